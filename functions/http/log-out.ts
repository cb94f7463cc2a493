// functions/http/log-out.ts — POST /sessions/logout: revoke the session of a refresh token (204,
// idempotent).
import { dependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { endSession } from '../../shared/use-cases/sessions.js';

export const { run, handler } = httpRoute(routes.logOut, async ({ body }) => {
  await endSession(dependencies(), body.refreshToken);
  return json(204);
});
