// functions/http/refresh-session.ts — POST /sessions/refresh: a refresh token → new access and
// refresh tokens (the presented one is spent). The token comes from the body, or for a browser
// client from its cookie, and goes back the same way (shared/http/session-cookie.ts).
import { accountDependencies } from '../../shared/wiring/accounts.js';
import { httpRoute } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { isBrowserClient, presentedRefreshToken } from '../../shared/http/session-cookie.js';
import { grantResult } from '../../shared/http/session-result.js';
import { refreshSession } from '../../shared/use-cases/sessions.js';

export const { run, handler } = httpRoute(routes.refreshSession, async ({ body, headers, cookies }) => {
  const deps = accountDependencies();
  const browser = isBrowserClient(headers);
  const refreshToken = presentedRefreshToken({ bodyToken: body.refreshToken, browser, cookies });
  const session = await refreshSession({ ...deps, tokens: await deps.tokens() }, refreshToken);
  return grantResult(session, { browser, cookiePath: deps.sessionCookiePath });
});
