// functions/http/get-profile.ts — GET /users/{handle}: public profile with follower/following/post counts.
import { dependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { getProfile } from '../../shared/use-cases/get-profile.js';
import { handlePath } from '../../shared/validation/accounts.schema.js';

export const { run, handler } = httpRoute({ auth: false, path: handlePath }, async ({ path }) =>
  json(200, await getProfile(dependencies().users, path.handle)),
);
