// shared/http/session-cookie.ts — the HTTP edge of sessions for browsers (OWASP's guidance for
// browser clients): a request marked with the client header gets its refresh token in an
// HttpOnly cookie, never in the JSON a script can read; refresh and logout read that cookie only
// from a request that carries the header. A cross-site form can send the cookie (were it not
// SameSite=Strict) but never a custom header, so it cannot spend or end the session.
// Other clients keep the JSON refresh token (body in, body out), exactly as before.
import { ForbiddenError } from '../domain/errors.js';

/** The header a browser client sends on its session calls, and its one value. */
export const CLIENT_HEADER = 'x-weibo-client';
export const BROWSER_CLIENT = 'web';
/** The cookie holding a browser's refresh token. No `__Host-` prefix: that would force Path=/. */
export const REFRESH_COOKIE = 'weibo_refresh';

export const isBrowserClient = (headers: { [CLIENT_HEADER]?: string | undefined } | undefined): boolean =>
  headers?.[CLIENT_HEADER] === BROWSER_CLIENT;

/**
 * `path` is where the browser sees the session routes (SESSION_COOKIE_PATH, shared/config):
 * the cookie goes out with refresh and logout (and login, which ignores it), with no other call.
 */
export function refreshCookie(token: string, maxAgeSeconds: number, path: string): string {
  return `${REFRESH_COOKIE}=${token}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; Path=${path}; HttpOnly; Secure; SameSite=Strict`;
}

/** Logout's answer to a browser: the cookie is gone, whatever it held (idempotent). */
export const clearedRefreshCookie = (path: string): string => refreshCookie('', 0, path);

/** The refresh cookie's value among a request's cookies (API Gateway payload 2.0 `cookies`), or undefined. */
export function readRefreshCookie(cookies: readonly string[]): string | undefined {
  for (const c of cookies) {
    const eq = c.indexOf('=');
    if (eq > 0 && c.slice(0, eq).trim() === REFRESH_COOKIE) return c.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * The refresh token a refresh or logout acts on. A body token is used as it is (non-browser
 * clients, unchanged). Without one the cookie is used, and only for a request marked by the
 * client header (403 `client_header_required` otherwise). '' when a browser has no cookie: the
 * use case then refuses it as any unknown token.
 */
export function presentedRefreshToken(req: {
  bodyToken: string | undefined;
  browser: boolean;
  cookies: readonly string[];
}): string {
  if (req.bodyToken !== undefined) return req.bodyToken;
  if (!req.browser) {
    throw new ForbiddenError(
      `Send the refresh token in the body, or the session cookie with the ${CLIENT_HEADER} header`,
      'client_header_required',
    );
  }
  return readRefreshCookie(req.cookies) ?? '';
}
