// functions/http/login.ts — POST /sessions: handle + password → a short-lived bearer token and a
// refresh token (for a browser client, `X-Weibo-Client: web`, in an HttpOnly cookie instead of
// the JSON: shared/http/session-cookie.ts). The throttle keys on the caller's address as API
// Gateway saw it.
import { accountDependencies } from '../../shared/wiring/accounts.js';
import { httpRoute } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { isBrowserClient } from '../../shared/http/session-cookie.js';
import { grantResult } from '../../shared/http/session-result.js';
import { logIn } from '../../shared/use-cases/log-in.js';

export const { run, handler } = httpRoute(routes.login, async ({ body, headers, sourceIp }) => {
  const deps = accountDependencies();
  const session = await logIn(
    { ...deps, tokens: await deps.tokens(), policy: deps.loginPolicy },
    { ...body, sourceIp },
  );
  return grantResult(session, { browser: isBrowserClient(headers), cookiePath: deps.sessionCookiePath });
});
