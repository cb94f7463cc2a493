// functions/http/avatar.ts — PUT and DELETE /users/{handle}/avatar: the token's user sets their
// avatar to a processed picture, or goes back to initials. One module, one handler per method.
import { profileDependencies } from '../../shared/wiring/profile.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { profileView } from '../../shared/http/views.js';
import { removeAvatar, setAvatar } from '../../shared/use-cases/avatar.js';

const set = httpRoute(routes.setAvatar, async ({ actor, params, body }) =>
  json(200, profileView(await setAvatar(profileDependencies(), actor, params.handle, body.mediaId))),
).handler;

const remove = httpRoute(routes.removeAvatar, async ({ actor, params }) =>
  json(200, profileView(await removeAvatar(profileDependencies(), actor, params.handle))),
).handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.setAvatar, set],
  [routes.removeAvatar, remove],
]);
