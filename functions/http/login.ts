// functions/http/login.ts — POST /sessions: handle + password → a short-lived bearer token and a
// refresh token. The throttle keys on the caller's address as API Gateway saw it.
import { dependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { sessionView } from '../../shared/http/views.js';
import { logIn } from '../../shared/use-cases/log-in.js';

export const { run, handler } = httpRoute(routes.login, async ({ body, sourceIp }) => {
  const deps = dependencies();
  const session = await logIn({ ...deps, tokens: await deps.tokens(), policy: deps.loginPolicy }, { ...body, sourceIp });
  return json(200, sessionView(session), { 'Cache-Control': 'no-store' });
});
