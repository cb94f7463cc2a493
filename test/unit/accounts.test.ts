// test/unit/accounts.test.ts — account use cases, tokens, passwords and the error mapper, with
// in-memory fakes of the project's own ports (the same flows run on HBase in test/e2e).
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../shared/auth/password.js';
import { issueToken, verifyToken } from '../../shared/auth/tokens.js';
import { AuthenticationError, ConflictError, ForbiddenError, RateLimitedError } from '../../shared/domain/errors.js';
import { mapError, RequestError } from '../../shared/http/error-mapper.js';
import type { LoginThrottle, NewUser, ThrottleState, UserProfile, UserStore } from '../../shared/ports/user-store.js';
import { logIn, lockUntil } from '../../shared/use-cases/log-in.js';
import { registerUser } from '../../shared/use-cases/register-user.js';
import { updateProfile } from '../../shared/use-cases/update-profile.js';

class MemoryUsers implements UserStore {
  readonly rows = new Map<string, NewUser>();
  async create(u: NewUser) {
    if (this.rows.has(u.handle)) return false;
    this.rows.set(u.handle, u);
    return true;
  }
  async passwordHash(h: string) {
    return this.rows.get(h)?.passwordHash ?? null;
  }
  async profile(h: string): Promise<UserProfile | null> {
    const u = this.rows.get(h);
    return u ? { handle: u.handle, displayName: u.displayName, createdAt: u.createdAt, followers: 0, following: 0, posts: 0 } : null;
  }
  async updateDisplayName(h: string, displayName: string) {
    const u = this.rows.get(h);
    if (u) u.displayName = displayName;
    return Boolean(u);
  }
  async existing(handles: string[]) {
    return new Set(handles.filter((h) => this.rows.has(h)));
  }
}

class MemoryThrottle implements LoginThrottle {
  readonly state = new Map<string, ThrottleState>();
  async read(h: string) {
    return this.state.get(h) ?? { failures: 0, lockedUntil: 0 };
  }
  async recordFailure(h: string, lock: number | null) {
    const s = await this.read(h);
    this.state.set(h, { failures: s.failures + 1, lockedUntil: lock ?? s.lockedUntil });
  }
  async reset(h: string) {
    this.state.delete(h);
  }
}

const tokens = { secret: 's'.repeat(40), ttlSeconds: 900 };
const policy = { maxFailures: 3, lockSeconds: 60 };

describe('passwords', () => {
  it('hash with a per-user salt and verify only the right password', async () => {
    const a = await hashPassword('same password');
    const b = await hashPassword('same password');
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('same password', a)).toBe(true);
    expect(await verifyPassword('other password', a)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });
});

describe('tokens', () => {
  it('round-trip the subject and reject expiry and a wrong secret', async () => {
    const { token } = await issueToken('amy', tokens);
    expect(await verifyToken(token, tokens.secret)).toBe('amy');
    await expect(verifyToken(token, 'w'.repeat(40))).rejects.toBeInstanceOf(AuthenticationError);
    const old = await issueToken('amy', tokens, Date.now() - 3600_000);
    await expect(verifyToken(old.token, tokens.secret)).rejects.toMatchObject({ code: 'token_expired' });
  });
});

describe('registerUser', () => {
  it('stores a hash, never the password, and refuses a taken handle', async () => {
    const users = new MemoryUsers();
    await registerUser(users, { handle: 'amy', displayName: ' Amy ', password: 'secret password' });
    expect(users.rows.get('amy')?.passwordHash).not.toContain('secret password');
    expect(users.rows.get('amy')?.displayName).toBe('Amy');
    await expect(registerUser(users, { handle: 'amy', displayName: 'B', password: 'another one' })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('logIn', () => {
  it('locks after maxFailures, the same for unknown handles, and resets on success', async () => {
    const users = new MemoryUsers();
    const throttle = new MemoryThrottle();
    await registerUser(users, { handle: 'amy', displayName: 'Amy', password: 'right password' });
    const deps = { users, throttle, tokens, policy };
    const now = 1_000_000;

    await expect(logIn(deps, { handle: 'amy', password: 'wrong' }, now)).rejects.toBeInstanceOf(AuthenticationError);
    expect((await logIn(deps, { handle: 'amy', password: 'right password' }, now)).handle).toBe('amy');
    expect(throttle.state.has('amy')).toBe(false); // success cleared the failure

    for (const handle of ['amy', 'ghost']) {
      for (let i = 0; i < policy.maxFailures; i++) {
        await expect(logIn(deps, { handle, password: 'wrong' }, now)).rejects.toBeInstanceOf(AuthenticationError);
      }
      await expect(logIn(deps, { handle, password: 'right password' }, now + 1)).rejects.toBeInstanceOf(RateLimitedError);
    }
    // After the lock expires the right password works again.
    expect((await logIn(deps, { handle: 'amy', password: 'right password' }, now + 61_000)).handle).toBe('amy');
  });

  it('doubles the lock per extra failure, capped at an hour', () => {
    expect(lockUntil(2, policy, 0)).toBeNull();
    expect(lockUntil(3, policy, 0)).toBe(60_000);
    expect(lockUntil(4, policy, 0)).toBe(120_000);
    expect(lockUntil(50, policy, 0)).toBe(3_600_000);
  });
});

describe('updateProfile', () => {
  it('lets only the owner change a profile', async () => {
    const users = new MemoryUsers();
    await registerUser(users, { handle: 'amy', displayName: 'Amy', password: 'right password' });
    await expect(updateProfile(users, 'bob', 'amy', { displayName: 'x' })).rejects.toBeInstanceOf(ForbiddenError);
    expect((await updateProfile(users, 'amy', 'amy', { displayName: 'Amy 2' })).displayName).toBe('Amy 2');
  });
});

describe('mapError', () => {
  it('maps each error family to one status and hides internals of the rest', () => {
    expect(mapError(new ConflictError('x', 'handle_taken'))).toMatchObject({ status: 409, code: 'handle_taken' });
    expect(mapError(new ForbiddenError())).toMatchObject({ status: 403 });
    expect(mapError(new RateLimitedError('slow down', 7))).toMatchObject({ status: 429, headers: { 'Retry-After': '7' } });
    expect(mapError(new RequestError(413, 'payload_too_large', 'big'))).toMatchObject({ status: 413 });
    expect(mapError(Object.assign(new Error('Invalid or malformed JSON was provided'), { statusCode: 415 }))).toMatchObject({ status: 400, code: 'malformed_json' });
    expect(mapError(new Error('secret internals'))).toEqual({ status: 500, code: 'internal_error', message: 'Internal error' });
  });
});
