// functions/http/unfollow.ts — DELETE /users/{handle}/following/{target}: the token's user unfollows target (idempotent).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { unfollow } from '../../shared/use-cases/relations.js';
import { actAs } from '../../shared/use-cases/users.js';

export const { run, handler } = httpRoute(routes.unfollow, async ({ actor, params }) =>
  json(200, await unfollow(feedDependencies(), actAs(actor, params.handle), params.target)),
);
