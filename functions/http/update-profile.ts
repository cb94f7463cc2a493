// functions/http/update-profile.ts — PATCH /users/{handle}: the token's user changes their own display name.
import { profileDependencies } from '../../shared/wiring/profile.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { profileView } from '../../shared/http/views.js';
import { updateProfile } from '../../shared/use-cases/update-profile.js';

export const { run, handler } = httpRoute(routes.updateProfile, async ({ actor, params, body }) =>
  json(200, profileView(await updateProfile(profileDependencies(), actor, params.handle, body))),
);
