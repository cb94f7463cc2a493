// functions/http/cover.ts — PUT and DELETE /users/{handle}/cover: the token's user sets their
// profile's cover picture to a processed picture, or removes it. One module, one handler per method.
import { profileDependencies } from '../../shared/wiring/profile.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { profileView } from '../../shared/http/views.js';
import { removeCover, setCover } from '../../shared/use-cases/avatar.js';

const set = httpRoute(routes.setCover, async ({ actor, params, body }) =>
  json(200, profileView(await setCover(profileDependencies(), actor, params.handle, body.mediaId))),
).handler;

const remove = httpRoute(routes.removeCover, async ({ actor, params }) =>
  json(200, profileView(await removeCover(profileDependencies(), actor, params.handle))),
).handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.setCover, set],
  [routes.removeCover, remove],
]);
