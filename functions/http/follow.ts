// functions/http/follow.ts — PUT /users/{handle}/following/{target}: the token's user follows target (idempotent).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { follow } from '../../shared/use-cases/relations.js';
import { actAs } from '../../shared/use-cases/users.js';

export const { run, handler } = httpRoute(routes.follow, async ({ actor, params }) =>
  json(200, await follow(feedDependencies(), actAs(actor, params.handle), params.target)),
);
