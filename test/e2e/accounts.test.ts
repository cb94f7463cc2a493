// test/e2e/accounts.test.ts — register, login, profile and authorization over HTTP through
// serverless-offline against the real HBase.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { apiClient, isErrorShape } from '../support/api.js';
import { allCellText, allRows } from '../support/hbase-rows.js';

const api = apiClient(inject('apiUrl'));
const namespace = inject('e2eNamespace');
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
afterAll(() => hbase.close());

const secrets: string[] = []; // every password and token used here; none may be stored or logged

const signed = (claims: Record<string, unknown>, secret: string, exp: number | string = '15m') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.sub ?? 'nobody'))
    .setIssuer('weibo-serverless')
    .setAudience('weibo-api')
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));

describe('register', () => {
  it('creates a user (201) whose profile shows zero counts and no password', async () => {
    const password = 'a long passphrase 1';
    secrets.push(password);
    const handle = `reg_${Date.now().toString(36)}`;
    const res = await api.call('POST', '/users', { body: { handle, displayName: '  Ada 🚀 ', password } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ handle, displayName: 'Ada 🚀' });

    const profile = await api.call('GET', `/users/${handle}`);
    expect(profile.status).toBe(200);
    expect(profile.json).toEqual({
      handle,
      displayName: 'Ada 🚀',
      createdAt: res.json.createdAt,
      followers: 0,
      following: 0,
      posts: 0,
      avatar: null,
      avatarLarge: null,
      bio: '',
      location: '',
      cover: null,
    });
    expect(profile.text).not.toContain('scrypt');
  });

  it('answers 409 for a taken handle and keeps the first registration', async () => {
    const { handle } = await api.newUser('dup');
    const res = await api.call('POST', '/users', {
      body: { handle, displayName: 'Impostor', password: 'another password' },
    });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('handle_taken');
    expect((await api.call('GET', `/users/${handle}`)).json.displayName).toBe(`User ${handle}`);
  });

  it('lets exactly one of many concurrent registrations of a handle win', async () => {
    const handle = `race_${Date.now().toString(36)}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.call('POST', '/users', { body: { handle, displayName: `Racer ${i}`, password: `racer password ${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    const winner = results.find((r) => r.status === 201)!.json.displayName;
    expect((await api.call('GET', `/users/${handle}`)).json.displayName).toBe(winner);
  });
});

describe('login', () => {
  it('issues a bearer token that authorizes the owner', async () => {
    const user = await api.newUser('login');
    secrets.push(user.password, user.token, user.refreshToken);
    const res = await api.call('PATCH', `/users/${user.handle}`, {
      token: user.token,
      body: { displayName: 'Renamed' },
    });
    expect(res.status).toBe(200);
    expect(res.json.displayName).toBe('Renamed');
  });

  it('gives the same 401 for an unknown handle and a wrong password', async () => {
    const user = await api.newUser('same401');
    const wrong = await api.call('POST', '/sessions', { body: { handle: user.handle, password: 'not the password' } });
    const unknown = await api.call('POST', '/sessions', {
      body: { handle: `${user.handle}x`, password: 'not the password' },
    });
    const impossible = await api.call('POST', '/sessions', { body: { handle: 'NOT/A*HANDLE', password: 'x' } });
    for (const r of [wrong, unknown, impossible]) expect(r.status).toBe(401);
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.text).toBe(impossible.text);
  });

  it('locks a handle after repeated failures, known or unknown alike, with Retry-After', async () => {
    const user = await api.newUser('lock');
    const ghost = `ghost_${Date.now().toString(36)}`;
    for (const handle of [user.handle, ghost]) {
      for (let i = 0; i < 5; i++) {
        expect((await api.call('POST', '/sessions', { body: { handle, password: `guess ${i}` } })).status).toBe(401);
      }
      const locked = await api.call('POST', '/sessions', { body: { handle, password: 'guess 6' } });
      expect(locked.status).toBe(429);
      expect(locked.json.error.code).toBe('rate_limited');
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // While locked even the right password is refused: a guesser learns nothing.
    expect(
      (await api.call('POST', '/sessions', { body: { handle: user.handle, password: user.password } })).status,
    ).toBe(429);
    // The throttle lives in its own table, so the unknown handle got no users row.
    const users = await allRows(hbase, namespace, 'users');
    expect(users.some((r) => Buffer.from(r.key).includes(Buffer.from(ghost)))).toBe(false);
  });
});

describe('sessions: refresh and logout', () => {
  it('login answers a refresh token; a refresh rotates it and answers a working access token', async () => {
    const user = await api.newUser('ref');
    secrets.push(user.refreshToken);
    expect(user.refreshToken).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const res = await api.call('POST', '/sessions/refresh', { body: { refreshToken: user.refreshToken } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json).toMatchObject({ handle: user.handle, tokenType: 'Bearer' });
    expect(res.json.refreshToken).not.toBe(user.refreshToken);
    secrets.push(res.json.token, res.json.refreshToken);
    const patched = await api.call('PATCH', `/users/${user.handle}`, {
      token: res.json.token,
      body: { displayName: 'Refreshed' },
    });
    expect(patched.status).toBe(200);
    // Only the SHA-256 of a refresh token is stored.
    const stored = await allCellText(hbase, namespace);
    expect(stored).toContain(createHash('sha256').update(res.json.refreshToken).digest('hex'));
  });

  it('a spent refresh token presented again ends the whole session (401 refresh_token_reused)', async () => {
    const user = await api.newUser('reuse');
    const next = await api.call('POST', '/sessions/refresh', { body: { refreshToken: user.refreshToken } });
    const reuse = await api.call('POST', '/sessions/refresh', { body: { refreshToken: user.refreshToken } });
    expect(reuse.status).toBe(401);
    expect(reuse.json.error.code).toBe('refresh_token_reused');
    const after = await api.call('POST', '/sessions/refresh', { body: { refreshToken: next.json.refreshToken } });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('invalid_refresh_token');
  });

  it('two refreshes of one token at once: exactly one gets new tokens', async () => {
    const user = await api.newUser('twice');
    const results = await Promise.all(
      [0, 1].map(() => api.call('POST', '/sessions/refresh', { body: { refreshToken: user.refreshToken } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('logout revokes the session, is idempotent, and answers 204 whatever it is given', async () => {
    const user = await api.newUser('bye');
    for (let i = 0; i < 2; i++) {
      expect((await api.call('POST', '/sessions/logout', { body: { refreshToken: user.refreshToken } })).status).toBe(
        204,
      );
    }
    expect((await api.call('POST', '/sessions/logout', { body: { refreshToken: 'not a token' } })).status).toBe(204);
    const refused = await api.call('POST', '/sessions/refresh', { body: { refreshToken: user.refreshToken } });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('invalid_refresh_token');
    // Access tokens are stateless and short-lived: the one in hand lives out its minutes.
    expect(
      (await api.call('PATCH', `/users/${user.handle}`, { token: user.token, body: { displayName: 'Still me' } }))
        .status,
    ).toBe(200);
  });

  it('refuses a malformed or unknown refresh token with 401 and a well-formed body error with 422', async () => {
    for (const refreshToken of ['', 'x', 'A'.repeat(64)]) {
      const res = await api.call('POST', '/sessions/refresh', { body: { refreshToken } });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('invalid_refresh_token');
    }
    expect((await api.call('POST', '/sessions/refresh', { body: { token: 'x' } })).status).toBe(422);
  });
});

describe('sessions for a browser (X-Weibo-Client: web): the refresh token in an HttpOnly cookie', () => {
  const WEB = { 'x-weibo-client': 'web' };
  /** The one Set-Cookie of an answer, and the `name=value` a browser would send back. */
  const setCookie = (res: { headers: Headers }) => {
    const all = res.headers.getSetCookie();
    expect(all).toHaveLength(1);
    return { attributes: all[0]!, sent: all[0]!.split(';')[0]! };
  };

  it("login sets the cookie (HttpOnly, Secure, SameSite=Strict, Path=/api/sessions, the token's lifetime) and leaves the token out of the JSON", async () => {
    const user = await api.newUser('ck');
    const res = await api.call('POST', '/sessions', {
      body: { handle: user.handle, password: user.password },
      headers: WEB,
    });
    expect(res.status).toBe(200);
    expect(res.json).not.toHaveProperty('refreshToken');
    const cookie = setCookie(res).attributes;
    const attributes = cookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes[0]).toMatch(/^weibo_refresh=[a-z0-9_-]{64}$/);
    for (const a of ['httponly', 'secure', 'samesite=strict', 'path=/api/sessions']) expect(attributes).toContain(a);
    const maxAge = Number(attributes.find((a) => a.startsWith('max-age='))!.slice('max-age='.length));
    const lifetime = (Date.parse(res.json.refreshExpiresAt) - Date.now()) / 1000;
    expect(Math.abs(maxAge - lifetime)).toBeLessThan(60);
  });

  it('refreshes by cookie, refuses the cookie without the header (403), and logout clears it', async () => {
    const user = await api.newUser('cr');
    const login = await api.call('POST', '/sessions', {
      body: { handle: user.handle, password: user.password },
      headers: WEB,
    });
    const first = setCookie(login).sent;

    const renewed = await api.call('POST', '/sessions/refresh', { body: {}, headers: { ...WEB, cookie: first } });
    expect(renewed.status).toBe(200);
    expect(renewed.json.handle).toBe(user.handle);
    expect(renewed.json).not.toHaveProperty('refreshToken');
    const second = setCookie(renewed).sent;
    expect(second).not.toBe(first);
    expect((await api.call('GET', `/users/${user.handle}/timeline`, { token: renewed.json.token })).status).toBe(200);

    for (const path of ['/sessions/refresh', '/sessions/logout']) {
      const forged = await api.call('POST', path, { body: {}, headers: { cookie: second } });
      expect(forged.status).toBe(403);
      expect(forged.json.error.code).toBe('client_header_required');
    }

    const out = await api.call('POST', '/sessions/logout', { body: {}, headers: { ...WEB, cookie: second } });
    expect(out.status).toBe(204);
    const cleared = setCookie(out).attributes.toLowerCase();
    expect(cleared).toMatch(/^weibo_refresh=;/);
    expect(cleared).toMatch(/max-age=0|expires=thu, 01 jan 1970/);
    expect(
      (await api.call('POST', '/sessions/refresh', { body: {}, headers: { ...WEB, cookie: second } })).json.error.code,
    ).toBe('invalid_refresh_token');
  });
});

describe('authorization', () => {
  it('refuses to change another user’s profile (403) and leaves it unchanged', async () => {
    const [alice, bob] = [await api.newUser('alice'), await api.newUser('bob')];
    const res = await api.call('PATCH', `/users/${bob.handle}`, { token: alice.token, body: { displayName: 'pwned' } });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('forbidden');
    expect((await api.call('GET', `/users/${bob.handle}`)).json.displayName).toBe(`User ${bob.handle}`);
  });

  it('answers 401 for a missing, forged, expired, alg:none or wrong-secret token', async () => {
    const user = await api.newUser('tok');
    const secret = inject('jwtSecret');
    const [header, payload] = user.token.split('.');
    const tokens = {
      missing: undefined,
      garbage: 'not-a-token',
      tampered: `${header}.${Buffer.from(JSON.stringify({ sub: 'someone_else' })).toString('base64url')}.${user.token.split('.')[2]}`,
      algNone: new UnsecuredJWT({ sub: user.handle })
        .setIssuer('weibo-serverless')
        .setAudience('weibo-api')
        .setIssuedAt()
        .setExpirationTime('15m')
        .encode(),
      wrongSecret: await signed({ sub: user.handle }, 'x'.repeat(40)),
      expired: await signed({ sub: user.handle }, secret, Math.floor(Date.now() / 1000) - 60),
      noSubject: `${header}.${payload}`,
    };
    for (const [name, token] of Object.entries(tokens)) {
      const res = await api.call('PATCH', `/users/${user.handle}`, {
        body: { displayName: name },
        ...(token ? { token } : {}),
      });
      expect(res.status, name).toBe(401);
      expect(isErrorShape(res.json), name).toBe(true);
    }
    expect((await api.call('GET', `/users/${user.handle}`)).json.displayName).toBe(`User ${user.handle}`);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await api.call('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('route_not_found');
  });
});

describe('secrets', () => {
  it('stores no password or token in clear in HBase, and logs none', async () => {
    expect(secrets.length).toBeGreaterThan(2);
    const stored = await allCellText(hbase, namespace);
    expect(stored).toContain('scrypt$'); // the hashes are there…
    const log = readFileSync(inject('offlineLogFile'), 'utf8');
    expect(log.length).toBeGreaterThan(0);
    for (const s of secrets) {
      expect(stored).not.toContain(s); // …the passwords and tokens are not
      expect(log).not.toContain(s);
    }
  });
});
