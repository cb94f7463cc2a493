// test/integration/accounts.test.ts — the login throttle, the password rehash and refresh-token
// sessions on the real HBase, with the bad interleavings FORCED at named steps
// (shared/use-cases/steps.ts): an operation is held while another runs inside the gap, or many
// are held until all of them have reached a point. Rules: shared/use-cases/log-in.ts and
// sessions.ts; rows and requests: shared/schema/tables.ts (throttle, sessions).
import { describe, expect, inject, it } from 'vitest';
import { HBaseSessionStore } from '../../shared/adapters/hbase/hbase-session-store.js';
import { HBaseLoginThrottle, HBaseUserStore } from '../../shared/adapters/hbase/hbase-user-store.js';
import { hashPassword, needsRehash, verifyPassword } from '../../shared/auth/password.js';
import { AuthenticationError, RateLimitedError } from '../../shared/domain/errors.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { logIn, type LoginDeps, type LoginPolicy } from '../../shared/use-cases/log-in.js';
import { endSession, refreshSession, type Grant } from '../../shared/use-cases/sessions.js';
import type { StepHook, StepPoint } from '../../shared/use-cases/steps.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';
import { scryptPasswords } from '../../shared/auth/password.js';
import { jwtAccessTokens } from '../../shared/auth/tokens.js';

const ns = `it_acct_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
useNamespace(hbase, ns);

const users = new HBaseUserStore(hbase, ns);
const policy: LoginPolicy = { maxFailures: 5, lockSeconds: 60, globalMaxFailures: 100, globalWindowSeconds: 900 };
// What a record from before the upgrade looks like: weaker than the tests' new hashes (vitest.config.ts).
const WEAK = { N: 1 << 10, r: 8, p: 1 };

function accountDeps(step?: StepHook, over: Partial<LoginDeps> = {}): LoginDeps {
  return {
    users,
    throttle: new HBaseLoginThrottle(hbase, ns),
    sessions: new HBaseSessionStore(hbase, ns),
    passwords: scryptPasswords,
    tokens: jwtAccessTokens({ secret: 'i'.repeat(40), ttlSeconds: 900 }),
    refreshTtlSeconds: 3600,
    policy,
    ...(step ? { step } : {}),
    ...over,
  };
}

let n = 0;
async function newUser(password = 'right password', params?: { N: number; r: number; p: number }): Promise<string> {
  const handle = `acct_${(n++).toString(36)}_${Date.now().toString(36)}`;
  await users.create({
    handle,
    displayName: handle,
    passwordHash: await hashPassword(password, params),
    createdAt: Date.now(),
  });
  return handle;
}

/** Holds every operation that reaches `point` until `count` of them are there, then lets all go. */
function barrier(point: StepPoint, count: number): { hook: StepHook; verified: () => number } {
  let arrived = 0;
  let verifying = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return {
    hook: async (p) => {
      if (p === 'login.verifying') verifying++;
      if (p !== point) return;
      if (++arrived === count) open();
      await all;
    },
    verified: () => verifying,
  };
}

const attempt = (deps: LoginDeps, handle: string, password: string, sourceIp: string, now?: number) =>
  logIn(deps, { handle, password, sourceIp }, now);

describe('login throttle (counted before the password is verified)', () => {
  it('20 parallel wrong guesses, all counted before any is decided, verify at most maxFailures passwords', async () => {
    const handle = await newUser();
    // The worst case for a read-then-record throttle: every guess has read the state before
    // any has been decided. Here each has its own count, so only maxFailures are verified.
    const gate = barrier('login.counted', 20);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => attempt(accountDeps(gate.hook), handle, `guess ${i}`, '203.0.113.7')),
    );
    expect(gate.verified()).toBeLessThanOrEqual(policy.maxFailures);
    expect(gate.verified()).toBeGreaterThan(0);
    const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof RateLimitedError);
    const wrong = results.filter((r) => r.status === 'rejected' && r.reason instanceof AuthenticationError);
    expect(wrong).toHaveLength(gate.verified());
    expect(refused).toHaveLength(20 - gate.verified());
    // The lock is in place: even the right password is refused from there.
    await expect(attempt(accountDeps(), handle, 'right password', '203.0.113.7')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });

  it('the same for a handle that does not exist: counted and locked alike, and no users row is made', async () => {
    const ghost = `ghost_${Date.now().toString(36)}`;
    const gate = barrier('login.counted', 12);
    await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => attempt(accountDeps(gate.hook), ghost, `guess ${i}`, '203.0.113.8')),
    );
    expect(gate.verified()).toBeLessThanOrEqual(policy.maxFailures);
    await expect(attempt(accountDeps(), ghost, 'anything at all', '203.0.113.8')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(await users.credentials(ghost)).toBeNull();
  });

  it('guesses from attacker addresses never lock the victim’s address', async () => {
    const victim = await newUser();
    const attackers = ['198.51.100.1', '198.51.100.2', '2001:db8:bad::1', '2001:db8:bad::2'];
    await Promise.allSettled(
      attackers.flatMap((ip) =>
        Array.from({ length: policy.maxFailures + 3 }, (_, i) => attempt(accountDeps(), victim, `guess ${i}`, ip)),
      ),
    );
    // Each attacker (the two IPv6 hosts share one /64) locked itself out…
    for (const ip of attackers)
      await expect(attempt(accountDeps(), victim, 'right password', ip)).rejects.toBeInstanceOf(RateLimitedError);
    // …and the victim, from their own address, logs in.
    expect((await attempt(accountDeps(), victim, 'right password', '192.0.2.44')).handle).toBe(victim);
  });

  it('a distributed guess hits the per-handle ceiling; a signed-in user stays signed in through refresh', async () => {
    const victim = await newUser();
    const deps = accountDeps(undefined, { policy: { ...policy, globalMaxFailures: 8 } });
    // One instant for every attempt: the ceiling counts per fixed window (globalWindowSeconds,
    // aligned to the clock), and a run that crosses a window's end starts a fresh count.
    const now = Date.now();
    const session = await attempt(deps, victim, 'right password', '192.0.2.44', now);
    await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => attempt(deps, victim, 'wrong', `198.51.100.${10 + i}`, now)),
    );
    const refused = await attempt(deps, victim, 'right password', '192.0.2.45', now).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    // The trade-off written in log-in.ts: password logins wait for the window; sessions go on.
    expect((await refreshSession(deps, session.refreshToken)).handle).toBe(victim);
  });

  it('a success clears the source’s count', async () => {
    const handle = await newUser();
    for (let i = 0; i < policy.maxFailures - 1; i++)
      await expect(attempt(accountDeps(), handle, 'wrong', '192.0.2.50')).rejects.toBeInstanceOf(AuthenticationError);
    await attempt(accountDeps(), handle, 'right password', '192.0.2.50');
    for (let i = 0; i < policy.maxFailures - 1; i++)
      await expect(attempt(accountDeps(), handle, 'wrong', '192.0.2.50')).rejects.toBeInstanceOf(AuthenticationError);
    expect((await attempt(accountDeps(), handle, 'right password', '192.0.2.50')).handle).toBe(handle);
  });
});

describe('password rehash on login', () => {
  it('accepts a record with the old parameters, then replaces it with one at the current parameters', async () => {
    const handle = await newUser('old password', WEAK);
    const before = (await users.credentials(handle))!.hash;
    expect(needsRehash(before)).toBe(true);
    expect((await attempt(accountDeps(), handle, 'old password', '192.0.2.60')).handle).toBe(handle);
    const after = (await users.credentials(handle))!.hash;
    expect(after).not.toBe(before);
    expect(needsRehash(after)).toBe(false);
    expect(await verifyPassword('old password', after)).toBe(true);
    expect((await attempt(accountDeps(), handle, 'old password', '192.0.2.60')).handle).toBe(handle);
  });

  it('never clobbers a record that changed between the verify and the rehash write', async () => {
    const handle = await newUser('old password', WEAK);
    const gate = interleaver();
    const held = gate.holdAt('login.verified', (d) => d.handle === handle);
    const login = attempt(accountDeps(gate.hook), handle, 'old password', '192.0.2.61');
    await held.reached;
    const changed = await hashPassword('changed meanwhile', WEAK);
    expect(await users.replacePasswordHash(handle, (await users.credentials(handle))!.hash, changed)).toBe(true);
    held.release();
    expect((await login).handle).toBe(handle);
    expect((await users.credentials(handle))?.hash).toBe(changed);
  });
});

describe('refresh-token sessions', () => {
  async function signedIn(): Promise<Grant> {
    return attempt(accountDeps(), await newUser(), 'right password', '192.0.2.70');
  }

  it('two refreshes of one token at once: exactly one wins, and the session ends revoked', async () => {
    const grant = await signedIn();
    const gate = barrier('refresh.read', 2);
    const results = await Promise.allSettled([
      refreshSession(accountDeps(gate.hook), grant.refreshToken),
      refreshSession(accountDeps(gate.hook), grant.refreshToken),
    ]);
    const won = results.filter((r): r is PromiseFulfilledResult<Grant> => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'refresh_token_reused' } });
    // Both read the token as current: one of the two holders is not the user — the whole session ends.
    await expect(refreshSession(accountDeps(), won[0]!.value.refreshToken)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });

  it('a refresh held after its read while the same token is refreshed: the held one loses as a reuse', async () => {
    const grant = await signedIn();
    const gate = interleaver();
    const held = gate.holdAt('refresh.read');
    const first = refreshSession(accountDeps(gate.hook), grant.refreshToken).catch((e: unknown) => e);
    await held.reached;
    const second = await refreshSession(accountDeps(), grant.refreshToken);
    held.release();
    expect(await first).toMatchObject({ code: 'refresh_token_reused' });
    await expect(refreshSession(accountDeps(), second.refreshToken)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });

  it('reuse after rotation revokes the session: the newest token stops working too', async () => {
    const grant = await signedIn();
    const next = await refreshSession(accountDeps(), grant.refreshToken);
    const newest = await refreshSession(accountDeps(), next.refreshToken);
    await expect(refreshSession(accountDeps(), grant.refreshToken)).rejects.toMatchObject({
      code: 'refresh_token_reused',
    });
    await expect(refreshSession(accountDeps(), newest.refreshToken)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });

  it('a logout inside a refresh’s gap: the refresh issues nothing, the session ends revoked', async () => {
    const grant = await signedIn();
    const gate = interleaver();
    const held = gate.holdAt('refresh.read');
    const refresh = refreshSession(accountDeps(gate.hook), grant.refreshToken).catch((e: unknown) => e);
    await held.reached;
    await endSession(accountDeps(), grant.refreshToken);
    held.release();
    expect(await refresh).toMatchObject({ code: 'invalid_refresh_token' });
    await expect(refreshSession(accountDeps(), grant.refreshToken)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });

  it('a logout right after a refresh: the token that refresh issued does not work after the revoke', async () => {
    const grant = await signedIn();
    const next = await refreshSession(accountDeps(), grant.refreshToken);
    await endSession(accountDeps(), grant.refreshToken); // the spent token still names its session
    await endSession(accountDeps(), grant.refreshToken); // idempotent
    await expect(refreshSession(accountDeps(), next.refreshToken)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });
});
