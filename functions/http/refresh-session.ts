// functions/http/refresh-session.ts — POST /sessions/refresh: a refresh token → new access and
// refresh tokens (the presented one is spent).
import { dependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { sessionView } from '../../shared/http/views.js';
import { refreshSession } from '../../shared/use-cases/sessions.js';

export const { run, handler } = httpRoute(routes.refreshSession, async ({ body }) => {
  const deps = dependencies();
  const session = await refreshSession({ ...deps, tokens: await deps.tokens() }, body.refreshToken);
  return json(200, sessionView(session), { 'Cache-Control': 'no-store' });
});
