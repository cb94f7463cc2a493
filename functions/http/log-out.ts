// functions/http/log-out.ts — POST /sessions/logout: revoke the session of a refresh token (204,
// idempotent). A browser client's token is its cookie, which the answer clears
// (shared/http/session-cookie.ts).
import { accountDependencies } from '../../shared/wiring/accounts.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { clearedRefreshCookie, isBrowserClient, presentedRefreshToken } from '../../shared/http/session-cookie.js';
import { endSession } from '../../shared/use-cases/sessions.js';

export const { run, handler } = httpRoute(routes.logOut, async ({ body, headers, cookies }) => {
  const deps = accountDependencies();
  const browser = isBrowserClient(headers);
  await endSession(deps, presentedRefreshToken({ bodyToken: body.refreshToken, browser, cookies }));
  return browser ? { status: 204, cookies: [clearedRefreshCookie(deps.sessionCookiePath)] } : json(204);
});
