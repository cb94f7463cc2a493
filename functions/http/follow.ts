// functions/http/follow.ts — PUT /users/{handle}/following/{target}: the token's user follows target (idempotent).
import { feedDependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { follow } from '../../shared/use-cases/relations.js';
import { actAs } from '../../shared/use-cases/users.js';
import { relationPath } from '../../shared/validation/feed.schema.js';

export const { run, handler } = httpRoute({ auth: true, path: relationPath }, async ({ actor, path }) =>
  json(200, await follow(feedDependencies(), actAs(actor, path.handle), path.target)),
);
