// test/integration/session-cookie.test.ts — the session handlers themselves (functions/http/
// login.ts, refresh-session.ts, log-out.ts, their middy chain included) on the real HBase, as a
// browser (`X-Weibo-Client: web`, the refresh token in a cookie) and as any other client (the
// token in the JSON, unchanged). Rules: shared/http/session-cookie.ts.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_cookie_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
useNamespace(hbase, ns);

// The handlers read their configuration from the environment once (shared/config/config.ts).
Object.assign(process.env, {
  HBASE_REST_URL: inject('hbaseRestUrl'),
  HBASE_NAMESPACE: ns,
  JWT_SECRET: 'c'.repeat(40),
  PASSWORD_SCRYPT_LOG2N: '15',
});
const { handler: register } = await import('../../functions/http/register.js');
const { handler: login } = await import('../../functions/http/login.js');
const { handler: refresh } = await import('../../functions/http/refresh-session.js');
const { handler: logout } = await import('../../functions/http/log-out.js');

type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<unknown>;
const context = {
  functionName: 'it',
  awsRequestId: 'r',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:it',
  memoryLimitInMB: '512',
  getRemainingTimeInMillis: () => 30_000,
} as unknown as Context;
const BROWSER = { 'x-weibo-client': 'web' };

/** An answer's body: the fields these tests read (a session, or an error), and the rest. */
type AnswerBody = { refreshToken: string; error: { code: string }; [field: string]: unknown };

async function call(
  handler: Handler,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  cookies?: string[],
) {
  const event = {
    version: '2.0',
    rawPath: path,
    headers: { 'content-type': 'application/json', ...headers },
    ...(cookies ? { cookies } : {}),
    body: JSON.stringify(body),
    requestContext: { requestId: `apigw-${path}`, http: { method: 'POST', path, sourceIp: '203.0.113.9' } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const res = (await handler(event, context)) as APIGatewayProxyStructuredResultV2;
  return {
    status: res.statusCode,
    json: res.body ? (JSON.parse(res.body) as AnswerBody) : undefined,
    cookies: res.cookies ?? [],
  };
}

/** The `name=value` a browser would send back from a Set-Cookie value. */
const sent = (setCookie: string) => setCookie.split(';')[0]!;

const handle = `ck_${Date.now().toString(36)}`;
const password = 'correct horse battery';
beforeAll(async () => {
  expect((await call(register, '/users', { handle, displayName: handle, password })).status).toBe(201);
}, 60_000);

describe('a browser client (X-Weibo-Client: web)', () => {
  it('logs in with the refresh token in an HttpOnly cookie on /api/sessions, not in the JSON', async () => {
    const res = await call(login, '/sessions', { handle, password }, BROWSER);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ handle, tokenType: 'Bearer' });
    expect(res.json).not.toHaveProperty('refreshToken');
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(
      /^weibo_refresh=[A-Za-z0-9_-]{64}; Max-Age=(2591999|2592000); Path=\/api\/sessions; HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('refreshes by cookie (rotating it), is refused without the header, and logs out clearing the cookie', async () => {
    const first = (await call(login, '/sessions', { handle, password }, BROWSER)).cookies[0]!;
    const renewed = await call(refresh, '/sessions/refresh', {}, BROWSER, ['other=1', sent(first)]);
    expect(renewed.status).toBe(200);
    expect(renewed.json).toMatchObject({ handle });
    expect(renewed.json).not.toHaveProperty('refreshToken');
    const second = renewed.cookies[0]!;
    expect(sent(second)).not.toBe(sent(first));

    // The cookie alone, as a cross-site form would send it: refused before the token is looked at.
    const forged = await call(refresh, '/sessions/refresh', {}, {}, [sent(second)]);
    expect(forged.status).toBe(403);
    expect(forged.json!.error.code).toBe('client_header_required');
    expect((await call(logout, '/sessions/logout', {}, {}, [sent(second)])).status).toBe(403);
    // ...and it spent nothing: the cookie still renews.
    const third = await call(refresh, '/sessions/refresh', {}, BROWSER, [sent(second)]);
    expect(third.status).toBe(200);

    const out = await call(logout, '/sessions/logout', {}, BROWSER, [sent(third.cookies[0]!)]);
    expect(out.status).toBe(204);
    expect(out.cookies).toEqual(['weibo_refresh=; Max-Age=0; Path=/api/sessions; HttpOnly; Secure; SameSite=Strict']);
    expect((await call(refresh, '/sessions/refresh', {}, BROWSER, [sent(third.cookies[0]!)])).json!.error.code).toBe(
      'invalid_refresh_token',
    );
    // Idempotent, with or without a cookie left.
    expect((await call(logout, '/sessions/logout', {}, BROWSER, [sent(third.cookies[0]!)])).status).toBe(204);
    expect((await call(logout, '/sessions/logout', {}, BROWSER)).status).toBe(204);
  });

  it('a refresh without a cookie is an unknown token (401), not a hint', async () => {
    const res = await call(refresh, '/sessions/refresh', {}, BROWSER);
    expect(res.status).toBe(401);
    expect(res.json!.error.code).toBe('invalid_refresh_token');
  });
});

describe('any other client', () => {
  it('keeps the JSON refresh token: no cookie set, the body token refreshes and logs out', async () => {
    const res = await call(login, '/sessions', { handle, password });
    expect(res.cookies).toEqual([]);
    const token = res.json!.refreshToken as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const next = await call(refresh, '/sessions/refresh', { refreshToken: token });
    expect(next.status).toBe(200);
    expect(next.cookies).toEqual([]);
    expect(next.json!.refreshToken).not.toBe(token);
    expect((await call(logout, '/sessions/logout', { refreshToken: next.json!.refreshToken })).status).toBe(204);
    expect((await call(refresh, '/sessions/refresh', { refreshToken: next.json!.refreshToken })).json!.error.code).toBe(
      'invalid_refresh_token',
    );
  });
});
