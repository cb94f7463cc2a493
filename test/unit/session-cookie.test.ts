// test/unit/session-cookie.test.ts — the HTTP edge of browser sessions (shared/http/session-cookie.ts,
// session-result.ts): the cookie's attributes, which refresh token a request presents (body,
// cookie with the client header, or a 403 without it), the JSON without the token, and the
// handler chain passing payload 2.0 cookies in and Set-Cookie values out.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { httpRoute } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import {
  clearedRefreshCookie,
  isBrowserClient,
  presentedRefreshToken,
  readRefreshCookie,
  refreshCookie,
} from '../../shared/http/session-cookie.js';
import { grantResult } from '../../shared/http/session-result.js';
import type { Grant } from '../../shared/use-cases/sessions.js';

const T = Date.UTC(2025, 0, 1);
const grant: Grant = {
  handle: 'amy',
  token: 'access.jwt',
  expiresAt: T + 900_000,
  refreshToken: 'r'.repeat(64),
  refreshExpiresAt: T + 30 * 86_400_000,
};

describe('the refresh cookie', () => {
  it('is HttpOnly, Secure, SameSite=Strict, scoped to the session routes, and lives as long as the token', () => {
    const cookie = refreshCookie('tok', 2_592_000.7, '/api/sessions');
    expect(cookie.split('; ')).toEqual([
      'weibo_refresh=tok',
      'Max-Age=2592000',
      'Path=/api/sessions',
      'HttpOnly',
      'Secure',
      'SameSite=Strict',
    ]);
    expect(clearedRefreshCookie('/api/sessions')).toMatch(
      /^weibo_refresh=; Max-Age=0; Path=\/api\/sessions; HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('is found among the request cookies by name only', () => {
    expect(readRefreshCookie(['a=1', 'weibo_refresh=xyz', 'weibo_refresh_other=no'])).toBe('xyz');
    expect(readRefreshCookie(['xweibo_refresh=no', 'weibo_refresh='])).toBeUndefined();
    expect(readRefreshCookie([])).toBeUndefined();
  });

  it('only `X-Weibo-Client: web` marks a browser client', () => {
    expect(isBrowserClient({ 'x-weibo-client': 'web' })).toBe(true);
    expect(isBrowserClient({ 'x-weibo-client': 'cli' })).toBe(false);
    expect(isBrowserClient({})).toBe(false);
    expect(isBrowserClient(undefined)).toBe(false);
  });
});

describe('which refresh token a refresh or logout presents', () => {
  const cookies = ['weibo_refresh=from-cookie'];
  it('a body token, whatever else the request carries (non-browser clients, unchanged)', () => {
    expect(presentedRefreshToken({ bodyToken: 'from-body', browser: false, cookies })).toBe('from-body');
    expect(presentedRefreshToken({ bodyToken: 'from-body', browser: true, cookies })).toBe('from-body');
  });
  it('without one, the cookie, only with the client header: else 403 client_header_required', () => {
    expect(presentedRefreshToken({ bodyToken: undefined, browser: true, cookies })).toBe('from-cookie');
    expect(() => presentedRefreshToken({ bodyToken: undefined, browser: false, cookies })).toThrow(
      expect.objectContaining({ code: 'client_header_required' }),
    );
    // A browser without its cookie presents nothing the use case could accept.
    expect(presentedRefreshToken({ bodyToken: undefined, browser: true, cookies: [] })).toBe('');
  });
});

describe('the answer to a login or refresh', () => {
  it('for a browser: the token in the cookie, not in the JSON', () => {
    const res = grantResult(grant, { browser: true, cookiePath: '/api/sessions', now: T });
    expect(res.body).not.toHaveProperty('refreshToken');
    expect(res.body).toMatchObject({ handle: 'amy', token: 'access.jwt', tokenType: 'Bearer' });
    expect(res.cookies).toEqual([
      `weibo_refresh=${grant.refreshToken}; Max-Age=2592000; Path=/api/sessions; HttpOnly; Secure; SameSite=Strict`,
    ]);
    expect(res.headers).toEqual({ 'Cache-Control': 'no-store' });
  });
  it('for any other client: the token in the JSON, no cookie', () => {
    const res = grantResult(grant, { browser: false, cookiePath: '/api/sessions', now: T });
    expect(res.body).toMatchObject({ refreshToken: grant.refreshToken });
    expect(res.cookies).toBeUndefined();
  });
});

describe('the handler chain', () => {
  const context = {
    functionName: 'unit',
    awsRequestId: 'r-1',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:unit',
    memoryLimitInMB: '512',
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context;
  it('hands the request cookies and the client header to the route, and sends its cookies as payload 2.0 `cookies`', async () => {
    const route = httpRoute(routes.logOut, async ({ cookies, headers }) => ({
      status: 204,
      cookies: [`seen=${readRefreshCookie(cookies)}-${headers['x-weibo-client']}`],
    }));
    const event = {
      version: '2.0',
      rawPath: '/sessions/logout',
      headers: { 'content-type': 'application/json', 'x-weibo-client': 'web' },
      cookies: ['weibo_refresh=abc'],
      body: '{}',
      requestContext: { requestId: 'apigw-1', http: { method: 'POST', path: '/sessions/logout' } },
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2;
    const res = (await route.handler(event, context)) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(204);
    expect(res.cookies).toEqual(['seen=abc-web']);
  });
});
