// functions/http/update-profile.ts — PATCH /users/{handle}: the token's user changes their own display name.
import { dependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { updateProfile } from '../../shared/use-cases/update-profile.js';
import { handlePath, updateProfileBody } from '../../shared/validation/accounts.schema.js';

export const { run, handler } = httpRoute({ auth: true, path: handlePath, body: updateProfileBody }, async ({ actor, path, body }) =>
  json(200, await updateProfile(dependencies().users, actor, path.handle, body)),
);
