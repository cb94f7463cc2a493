// functions/http/settings.ts — GET and PATCH /users/{handle}/settings: the token's user reads or
// changes their own settings (who may message them, which notifications they are told of).
import { profileDependencies } from '../../shared/wiring/profile.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { changeSettings, getSettings } from '../../shared/use-cases/settings.js';

const read = httpRoute(routes.getSettings, async ({ actor, params }) =>
  json(200, await getSettings(profileDependencies(), actor, params.handle)),
).handler;

const change = httpRoute(routes.changeSettings, async ({ actor, params, body }) =>
  json(200, await changeSettings(profileDependencies(), actor, params.handle, body)),
).handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.getSettings, read],
  [routes.changeSettings, change],
]);
