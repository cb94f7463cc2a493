// test/unit/accounts.test.ts — account use cases, tokens, passwords and the error mapper, with
// in-memory fakes of the project's own ports (the same flows run on HBase in test/e2e).
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  needsRehash,
  PASSWORD_PARAMS,
  scryptPasswords,
  verifyPassword,
} from '../../shared/auth/password.js';
import { newRefreshToken, newSessionId, parseRefreshToken } from '../../shared/domain/session.js';
import { issueToken, jwtAccessTokens, verifyToken } from '../../shared/auth/tokens.js';
import { AuthenticationError, ConflictError, ForbiddenError, RateLimitedError } from '../../shared/domain/errors.js';
import { mapError, RequestError } from '../../shared/http/error-mapper.js';
import { MemorySessions, MemoryThrottle } from '../support/fakes/accounts.js';
import { FakePeople, FakeUsers } from '../support/fakes/feed.js';
import { logIn, lockUntil, throttleSource, type LoginDeps } from '../../shared/use-cases/log-in.js';
import { endSession, refreshSession, startSession } from '../../shared/use-cases/sessions.js';
import type { StepPoint } from '../../shared/use-cases/steps.js';
import { registerUser } from '../../shared/use-cases/register-user.js';
import { leave } from '../../shared/use-cases/leave.js';
import { ACTIVE } from '../../shared/domain/leaving.js';
import { updateProfile } from '../../shared/use-cases/update-profile.js';

const tokens = { secret: 's'.repeat(40), ttlSeconds: 900 };
const policy = { maxFailures: 3, lockSeconds: 60, globalMaxFailures: 10, globalWindowSeconds: 900 };
// Weaker than what the tests hash new records at (vitest.config.ts: N=2^12).
const WEAK = { N: 1 << 10, r: 8, p: 1 };

function loginDeps(over: Partial<LoginDeps> = {}) {
  const users = new FakeUsers();
  const throttle = new MemoryThrottle();
  const sessions = new MemorySessions();
  const verifying: string[] = [];
  const deps: LoginDeps = {
    users,
    throttle,
    sessions,
    passwords: scryptPasswords,
    tokens: jwtAccessTokens(tokens),
    policy,
    refreshTtlSeconds: 3600,
    step: async (point: StepPoint, d) => void (point === 'login.verifying' && verifying.push(d.source!)),
    ...over,
  };
  return { deps, users, throttle, sessions, verifying };
}

describe('passwords', { timeout: 30_000 }, () => {
  it('hash with a per-user salt at OWASP’s parameters and verify only the right password', async () => {
    const a = await hashPassword('same password', PASSWORD_PARAMS);
    const b = await hashPassword('same password', PASSWORD_PARAMS);
    expect(a).not.toBe(b);
    expect(a.startsWith(`scrypt$${2 ** 17}$8$1$`)).toBe(true);
    expect(PASSWORD_PARAMS).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    expect(await verifyPassword('same password', a)).toBe(true);
    expect(await verifyPassword('other password', a)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
    expect(needsRehash(a)).toBe(false);
  });

  it('still verifies records made with weaker parameters, and says they need a rehash', async () => {
    const old = await hashPassword('old password', WEAK);
    expect(await verifyPassword('old password', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    // A corrupt record never verifies and never allocates past the limits.
    expect(await verifyPassword('x', 'scrypt$1073741824$8$1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$16384$8$1$AAAA$AAAA$extra')).toBe(false);
  });
});

describe('tokens', () => {
  it('round-trip the subject and reject expiry and a wrong secret', async () => {
    const { token } = await issueToken('amy', tokens);
    expect(await verifyToken(token, { secret: tokens.secret })).toBe('amy');
    await expect(verifyToken(token, { secret: 'w'.repeat(40) })).rejects.toBeInstanceOf(AuthenticationError);
    const old = await issueToken('amy', tokens, Date.now() - 3600_000);
    await expect(verifyToken(old.token, { secret: tokens.secret })).rejects.toMatchObject({ code: 'token_expired' });
  });

  it('refresh tokens are 48 random bytes in base64url, naming their session; anything else is refused', () => {
    const id = newSessionId();
    const { token, hash } = newRefreshToken(id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(parseRefreshToken(token)).toEqual({ sessionId: new Uint8Array(id), hash });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    for (const bad of [
      '',
      'x'.repeat(63),
      `${token}A`,
      `${token.slice(0, 63)}+`,
      `${token.slice(0, 63)}=`,
      ` ${token.slice(1)}`,
    ]) {
      expect(parseRefreshToken(bad), bad).toBeNull();
    }
  });
});

describe('registerUser', { timeout: 30_000 }, () => {
  it('stores a hash, never the password, and refuses a taken handle', async () => {
    const users = new FakeUsers();
    await registerUser(
      { users, people: new FakePeople(), passwords: scryptPasswords },
      { handle: 'amy', displayName: ' Amy ', password: 'secret password' },
    );
    expect(users.rows.get('amy')?.passwordHash).not.toContain('secret password');
    expect(users.rows.get('amy')?.displayName).toBe('Amy');
    await expect(
      registerUser(
        { users, people: new FakePeople(), passwords: scryptPasswords },
        { handle: 'amy', displayName: 'B', password: 'another one' },
      ),
    ).rejects.toBeInstanceOf(ConflictError);
  });
});

// scrypt at OWASP's parameters costs ~0.4 s a verify here: these tests verify a dozen passwords.
describe('logIn', { timeout: 60_000 }, () => {
  const attacker = '203.0.113.9';
  const owner = '198.51.100.7';

  it('locks a source out of a handle after maxFailures, the same for unknown handles, and resets on success', async () => {
    const { deps, users, throttle } = loginDeps();
    await registerUser(
      { users, people: new FakePeople(), passwords: scryptPasswords },
      { handle: 'amy', displayName: 'Amy', password: 'right password' },
    );
    const now = 1_000_000;

    await expect(logIn(deps, { handle: 'amy', password: 'wrong', sourceIp: owner }, now)).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    const first = await logIn(deps, { handle: 'amy', password: 'right password', sourceIp: owner }, now);
    expect(first.handle).toBe('amy');
    expect(first.refreshToken).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(throttle.sources.has(`amy/${owner}`)).toBe(false); // success cleared the source

    for (const handle of ['amy', 'ghost']) {
      for (let i = 0; i < policy.maxFailures; i++) {
        await expect(logIn(deps, { handle, password: 'wrong', sourceIp: attacker }, now)).rejects.toBeInstanceOf(
          AuthenticationError,
        );
      }
      await expect(
        logIn(deps, { handle, password: 'right password', sourceIp: attacker }, now + 1),
      ).rejects.toBeInstanceOf(RateLimitedError);
    }
    // The attacker locked only themselves: the owner's address still logs in.
    expect((await logIn(deps, { handle: 'amy', password: 'right password', sourceIp: owner }, now + 2)).handle).toBe(
      'amy',
    );
    // After the lock (doubled once by the refused attempt) the right password works again.
    expect(
      (await logIn(deps, { handle: 'amy', password: 'right password', sourceIp: attacker }, now + 121_000)).handle,
    ).toBe('amy');
  });

  it('verifies at most maxFailures of many parallel wrong guesses from one source', async () => {
    const { deps, users, verifying } = loginDeps();
    await registerUser(
      { users, people: new FakePeople(), passwords: scryptPasswords },
      { handle: 'amy', displayName: 'Amy', password: 'right password' },
    );
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        logIn(deps, { handle: 'amy', password: `guess ${i}`, sourceIp: attacker }, 5_000),
      ),
    );
    expect(verifying.length).toBeLessThanOrEqual(policy.maxFailures);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof RateLimitedError)).toHaveLength(
      12 - verifying.length,
    );
  });

  it('refuses every source once the handle passes its global ceiling, until the window ends', async () => {
    const { deps, users } = loginDeps();
    await registerUser(
      { users, people: new FakePeople(), passwords: scryptPasswords },
      { handle: 'amy', displayName: 'Amy', password: 'right password' },
    );
    const now = 900_000 * 10 + 1000;
    for (let i = 0; i < policy.globalMaxFailures; i++) {
      await expect(
        logIn(deps, { handle: 'amy', password: 'wrong', sourceIp: `192.0.2.${i}` }, now),
      ).rejects.toBeInstanceOf(AuthenticationError);
    }
    const refused = logIn(deps, { handle: 'amy', password: 'right password', sourceIp: owner }, now);
    await expect(refused).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 899 });
    expect(
      (await logIn(deps, { handle: 'amy', password: 'right password', sourceIp: owner }, now + 900_000)).handle,
    ).toBe('amy');
  });

  it('re-hashes a record with weaker parameters after a correct password, never over a changed record', async () => {
    const { deps, users } = loginDeps();
    await users.create({
      handle: 'amy',
      displayName: 'Amy',
      passwordHash: await hashPassword('right password', WEAK),
      createdAt: 0,
    });
    await logIn(deps, { handle: 'amy', password: 'right password', sourceIp: owner });
    const upgraded = users.rows.get('amy')!.passwordHash;
    expect(needsRehash(upgraded)).toBe(false);
    expect(await verifyPassword('right password', upgraded)).toBe(true);

    const changed = await hashPassword('changed meanwhile', WEAK);
    await users.create({
      handle: 'bob',
      displayName: 'Bob',
      passwordHash: await hashPassword('right password', WEAK),
      createdAt: 0,
    });
    const racing = loginDeps({
      users,
      step: async (point) => {
        if (point === 'login.verified') users.rows.get('bob')!.passwordHash = changed;
      },
    });
    await logIn(racing.deps, { handle: 'bob', password: 'right password', sourceIp: owner });
    expect(users.rows.get('bob')!.passwordHash).toBe(changed);
  });

  it('doubles the lock per extra attempt, capped at an hour', () => {
    expect(lockUntil(2, policy, 0)).toBeNull();
    expect(lockUntil(3, policy, 0)).toBe(60_000);
    expect(lockUntil(4, policy, 0)).toBe(120_000);
    expect(lockUntil(50, policy, 0)).toBe(3_600_000);
  });

  it('counts IPv4 per address, IPv6 per /64, and anything else as one unknown source', () => {
    expect(throttleSource('203.0.113.9')).toBe('203.0.113.9');
    expect(throttleSource('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(throttleSource('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(throttleSource('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(throttleSource('::1')).toBe('0:0:0:0::/64');
    expect(throttleSource('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(throttleSource('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    for (const junk of ['', 'unknown', '1.2.3.4, 5.6.7.8', 'x'.repeat(100), '1.2.3.256'])
      expect(throttleSource(junk)).toBe('unknown');
  });
});

describe('sessions', () => {
  const T = Date.now();
  // Sessions start after a correct password (logIn, above); here they start directly.
  async function signedIn() {
    const ctx = loginDeps();
    await ctx.users.create({ handle: 'amy', displayName: 'Amy', passwordHash: '', createdAt: 0 });
    return { ...ctx, grant: await startSession(ctx.deps, { handle: 'amy', epoch: '' }, T) };
  }

  it('rotates: a refresh answers new tokens and spends the old refresh token', async () => {
    const { deps, grant } = await signedIn();
    const next = await refreshSession(deps, grant.refreshToken, T + 1_000);
    expect(next.handle).toBe('amy');
    expect(next.refreshToken).not.toBe(grant.refreshToken);
    expect(await verifyToken(next.token, { secret: tokens.secret })).toBe('amy');
    expect(next.refreshExpiresAt).toBe(T + 1_000 + 3600_000);
    const third = await refreshSession(deps, next.refreshToken, T + 2_000);
    expect(third.refreshToken).not.toBe(next.refreshToken);
  });

  it('a spent refresh token presented again revokes the whole session', async () => {
    const { deps, grant } = await signedIn();
    const next = await refreshSession(deps, grant.refreshToken, T + 1_000);
    await expect(refreshSession(deps, grant.refreshToken, T + 2_000)).rejects.toMatchObject({
      code: 'refresh_token_reused',
    });
    await expect(refreshSession(deps, next.refreshToken, T + 3_000)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });

  it('refuses malformed, forged and expired refresh tokens without touching the session', async () => {
    const { deps, grant, sessions } = await signedIn();
    const forged = newRefreshToken(parseRefreshToken(grant.refreshToken)!.sessionId).token; // right session, never issued
    for (const bad of ['', 'nonsense', forged, newRefreshToken(newSessionId()).token]) {
      await expect(refreshSession(deps, bad, T + 1_000)).rejects.toMatchObject({ code: 'invalid_refresh_token' });
    }
    await expect(refreshSession(deps, grant.refreshToken, T + 3600_000)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
    expect([...sessions.rows.values()][0]!.revoked).toBe(false);
    expect((await refreshSession(deps, grant.refreshToken, T + 1_000)).handle).toBe('amy');
  });

  it('logout revokes the session, is idempotent, and ignores what it cannot attribute', async () => {
    const { deps, grant, sessions } = await signedIn();
    await endSession(deps, 'nonsense');
    await endSession(deps, newRefreshToken(parseRefreshToken(grant.refreshToken)!.sessionId).token);
    expect([...sessions.rows.values()][0]!.revoked).toBe(false);
    await endSession(deps, grant.refreshToken);
    await endSession(deps, grant.refreshToken);
    await expect(refreshSession(deps, grant.refreshToken, T + 1_000)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });
});

describe('leaving (use-cases/leave.ts)', { timeout: 60_000 }, () => {
  const T = Date.now();
  const ip = '198.51.100.7';
  async function member() {
    const ctx = loginDeps();
    await ctx.users.create({
      handle: 'amy',
      displayName: 'Amy',
      passwordHash: await hashPassword('right password', WEAK),
      createdAt: 0,
    });
    return { ...ctx, grant: await logIn(ctx.deps, { handle: 'amy', password: 'right password', sourceIp: ip }, T) };
  }

  it('deactivates with the password again: no session refreshes, and the dates say until when a login restores', async () => {
    const { deps, users, grant } = await member();
    const gone = await leave(deps, 'amy', { handle: 'amy', password: 'right password', sourceIp: ip }, T + 1_000);
    expect(gone).toEqual({ handle: 'amy', deactivatedAt: T + 1_000, erasableFrom: T + 1_000 + 30 * 86_400_000 });
    expect((await users.profile('amy'))!.standing).toEqual({ state: 'deactivated', at: T + 1_000 });
    expect(await users.faces(['amy'])).toEqual(new Map());
    await expect(refreshSession(deps, grant.refreshToken, T + 2_000)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
    // Asked again: the same dates, nothing moved.
    expect(await leave(deps, 'amy', { handle: 'amy', password: 'right password', sourceIp: ip }, T + 3_000)).toEqual(
      gone,
    );
  });

  it('refuses a wrong password (403 wrong_password: the session is fine) and anyone but yourself (403), changing nothing', async () => {
    const { deps, users } = await member();
    await expect(leave(deps, 'amy', { handle: 'amy', password: 'wrong', sourceIp: ip }, T)).rejects.toMatchObject({
      code: 'wrong_password',
    });
    await expect(
      leave(deps, 'bob', { handle: 'amy', password: 'right password', sourceIp: ip }, T),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect((await users.profile('amy'))!.standing).toEqual(ACTIVE);
  });

  it('a login restores the account, and only the sessions started after the leave live on', async () => {
    const { deps, users, grant: before } = await member();
    await leave(deps, 'amy', { handle: 'amy', password: 'right password', sourceIp: ip }, T + 1_000);
    const back = await logIn(deps, { handle: 'amy', password: 'right password', sourceIp: ip }, T + 2_000);
    expect(back.restored).toBe(true);
    expect((await users.profile('amy'))!.standing).toEqual(ACTIVE);
    expect((await refreshSession(deps, back.refreshToken, T + 3_000)).handle).toBe('amy');
    await expect(refreshSession(deps, before.refreshToken, T + 3_000)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
    expect(
      (await logIn(deps, { handle: 'amy', password: 'right password', sourceIp: ip }, T + 4_000)).restored,
    ).toBeUndefined();
  });

  it('an erased account logs in as nobody: the same 401 as a wrong password', async () => {
    const { deps, users } = await member();
    users.rows.get('amy')!.standing = { state: 'erased', at: T };
    await expect(
      logIn(deps, { handle: 'amy', password: 'right password', sourceIp: ip }, T + 1_000),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('updateProfile', () => {
  it('lets only the owner change a profile', async () => {
    const users = new FakeUsers();
    await registerUser(
      { users, people: new FakePeople(), passwords: scryptPasswords },
      { handle: 'amy', displayName: 'Amy', password: 'right password' },
    );
    await expect(
      updateProfile({ users, people: new FakePeople() }, 'bob', 'amy', { displayName: 'x' }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(
      (await updateProfile({ users, people: new FakePeople() }, 'amy', 'amy', { displayName: 'Amy 2' })).displayName,
    ).toBe('Amy 2');
  });
});

describe('mapError', () => {
  it('maps each error family to one status and hides internals of the rest', () => {
    expect(mapError(new ConflictError('x', 'handle_taken'))).toMatchObject({ status: 409, code: 'handle_taken' });
    expect(mapError(new ForbiddenError())).toMatchObject({ status: 403 });
    expect(mapError(new RateLimitedError('slow down', 7))).toMatchObject({
      status: 429,
      headers: { 'Retry-After': '7' },
    });
    expect(mapError(new RequestError(413, 'payload_too_large', 'big'))).toMatchObject({ status: 413 });
    expect(
      mapError(Object.assign(new Error('Invalid or malformed JSON was provided'), { statusCode: 415 })),
    ).toMatchObject({ status: 400, code: 'malformed_json' });
    expect(mapError(new Error('secret internals'))).toEqual({
      status: 500,
      code: 'internal_error',
      message: 'Internal error',
    });
  });
});
