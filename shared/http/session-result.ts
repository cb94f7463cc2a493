// shared/http/session-result.ts — the answer to a login or refresh: the tokens as JSON, and for a
// browser client the refresh token as an HttpOnly cookie instead (shared/http/session-cookie.ts).
// Never cached: it holds tokens.
import type { Grant } from '../use-cases/sessions.js';
import type { HttpResult } from './http-handler.js';
import { refreshCookie } from './session-cookie.js';
import { sessionView } from './views.js';

export function grantResult(g: Grant, opts: { browser: boolean; cookiePath: string; now?: number }): HttpResult {
  const headers = { 'Cache-Control': 'no-store' };
  if (!opts.browser) return { status: 200, body: sessionView(g), headers };
  // Max-Age: the refresh token's own lifetime, so the browser drops the cookie when the API would refuse it.
  const maxAge = (g.refreshExpiresAt - (opts.now ?? Date.now())) / 1000;
  return {
    status: 200,
    body: sessionView(g, { inCookie: true }),
    headers,
    cookies: [refreshCookie(g.refreshToken, maxAge, opts.cookiePath)],
  };
}
