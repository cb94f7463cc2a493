// shared/use-cases/log-in.ts — credentials → a short-lived access token and a refresh token
// (./sessions.ts). Steps: count the attempt (source and global) in parallel with reading the
// password hash → refuse while locked or past the ceiling (429) → past the source's limit, take
// the one verification its lock allows → verify (an unknown handle is verified against a dummy
// hash so both failures cost the same) → one 401 for every failure → on success clear the
// source's count, re-hash an outdated record, restore a deactivated account, start a session.
//
// Throttle rules, and why:
//  * Every attempt is COUNTED BEFORE its password is verified, and each sees the count with
//    itself included (an atomic increment): N parallel guesses see N distinct counts, so at
//    most `maxFailures` of them are verified before the lock, whatever the concurrency (a
//    read-then-record throttle verifies all N before the lock lands).
//  * The strict lockout counts per (handle, SOURCE ADDRESS) — API Gateway's own
//    requestContext.http.sourceIp, never X-Forwarded-For (a client writes that). Whoever
//    guesses locks only their own address out of that handle, never the account's owner:
//    a lockout cannot be aimed at a victim. IPv6 counts per /64, the block one subscriber
//    gets, else a single host could rotate through 2^64 addresses. After `maxFailures`
//    attempts the source is locked for `lockSeconds`, doubling with every further attempt
//    (the ones refused while locked count too), capped at an hour; when a lock ends, exactly
//    one attempt (check-and-put on the lock it saw) is verified before the next lock.
//  * A per-handle CEILING across all sources (`globalMaxFailures` failures per
//    `globalWindowSeconds`, much higher) stops a distributed guess from many addresses. Its
//    trade-off: someone with enough addresses CAN keep an account's password login refused
//    for the rest of a window. That is bounded (one window at a time, Retry-After says when)
//    and it does not sign anyone out: a user with a valid refresh token stays signed in,
//    since a refresh never needs the password.
//  * Users behind one NAT share a source: a guesser there can lock those users out of the
//    handle they guess at (not out of others). Accepted: that is the granularity the network
//    gives us.
//  * Unknown handles are counted and locked exactly like known ones (no enumeration); an
//    impossible handle (never a row key) costs a dummy verify and touches no storage.
//  * A record hashed with weaker parameters than today's still verifies; after a correct
//    password it is re-hashed and replaced by check-and-put on the record that was verified,
//    so a concurrent change of the record is never overwritten. Until then such an account
//    verifies faster than an unknown handle (the old, cheaper parameters): the upgrade closes
//    that at the owner's next login.
import { isIPv4, isIPv6 } from 'node:net';
import type { Passwords } from '../ports/credentials.js';
import { AuthenticationError, RateLimitedError } from '../domain/errors.js';
import type { Credentials, LoginAttempt, LoginThrottle, UserStore } from '../ports/user-store.js';
import { HANDLE_PATTERN } from '../domain/handle.js';
import { startSession, type Grant, type SessionDeps } from './sessions.js';
import { atStep } from './steps.js';

export interface LoginPolicy {
  /** Attempts one source may make at one handle before it is locked out of it. */
  maxFailures: number;
  /** The first lock; doubled by every further attempt, capped at an hour. */
  lockSeconds: number;
  /** Failures at one handle from all sources together, per global window. */
  globalMaxFailures: number;
  globalWindowSeconds: number;
}

export interface LoginDeps extends SessionDeps {
  users: UserStore;
  passwords: Passwords;
  throttle: LoginThrottle;
  policy: LoginPolicy;
}

/** Lock length doubles with every attempt past the limit, capped at one hour. */
export function lockUntil(
  attempts: number,
  policy: Pick<LoginPolicy, 'maxFailures' | 'lockSeconds'>,
  now: number,
): number | null {
  if (attempts < policy.maxFailures) return null;
  const doublings = Math.min(attempts - policy.maxFailures, 10);
  return now + Math.min(policy.lockSeconds * 2 ** doublings, 3600) * 1000;
}

/**
 * What the strict lockout counts by: an IPv4 address, an IPv6 address's /64, or 'unknown'
 * (no address: one shared bucket, still under the global ceiling).
 */
export function throttleSource(sourceIp: string): string {
  const ip = sourceIp.trim().replace(/%.*$/, ''); // an IPv6 zone id is local detail
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  const groups = (s: string) => (s === '' ? [] : s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const [head = '', tail] = ip.split('::');
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  const full = [...before, ...Array<string>(Math.max(0, 8 - before.length - after.length)).fill('0'), ...after];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

const lockedOut = (until: number, now: number) =>
  new RateLimitedError('Too many failed logins; try again later', Math.max(1, Math.ceil((until - now) / 1000)));

/** Throws 429 unless this counted attempt may have its password verified. */
async function admit(
  deps: LoginDeps,
  attempt: LoginAttempt,
  key: { handle: string; source: string },
  now: number,
): Promise<void> {
  const { policy } = deps;
  if (attempt.lockedUntil > now) throw lockedOut(attempt.lockedUntil, now);
  if (attempt.globalAttempts > policy.globalMaxFailures) {
    const windowMs = policy.globalWindowSeconds * 1000;
    throw lockedOut((Math.floor(now / windowMs) + 1) * windowMs, now);
  }
  const until = lockUntil(attempt.sourceAttempts, policy, now);
  // At the limit: lock first, verify after. Of the attempts that saw the same (absent or
  // ended) lock, only the one whose check-and-put wins is verified.
  if (until !== null && !(await deps.throttle.lock(key.handle, key.source, attempt.lockedUntil, until)))
    throw lockedOut(until, now);
}

/**
 * The password check of a login and of leaving: count the attempt, admit it, verify — one 401
 * for every failure — then clear the source's count and re-hash an outdated record. The
 * account's credentials as read, whatever its standing (the caller decides what that allows).
 */
export async function checkPassword(
  deps: LoginDeps,
  input: { handle: string; password: string; sourceIp: string },
  now: number,
): Promise<Credentials> {
  // A handle that cannot exist gets the same answer as a wrong password, without storage.
  if (!HANDLE_PATTERN.test(input.handle)) {
    await deps.passwords.verify(input.password, await deps.passwords.dummy());
    throw new AuthenticationError();
  }
  const key = { handle: input.handle, source: throttleSource(input.sourceIp) };
  const window = Math.floor(now / (deps.policy.globalWindowSeconds * 1000));
  const [attempt, stored] = await Promise.all([
    deps.throttle.count(key.handle, key.source, window),
    deps.users.credentials(key.handle),
  ]);
  await atStep(deps, 'login.counted', key);
  await admit(deps, attempt, key, now);
  await atStep(deps, 'login.verifying', key);
  const ok = await deps.passwords.verify(input.password, stored?.hash ?? (await deps.passwords.dummy()));
  // An erased account answers as a handle nobody has (its record stays only to hold the handle).
  if (!stored || !ok || stored.standing.state === 'erased') throw new AuthenticationError();
  await atStep(deps, 'login.verified', key);
  await Promise.all([
    deps.throttle.succeeded(key.handle, key.source, window),
    // false = the record changed since it was read: that change stays.
    deps.passwords.needsRehash(stored.hash)
      ? deps.passwords
          .hash(input.password)
          .then((fresh) => deps.users.replacePasswordHash(key.handle, stored.hash, fresh))
      : undefined,
  ]);
  return stored;
}

/** How often a login retries its restore when the standing moved under it (a leave again). */
const RESTORE_TRIES = 3;

/**
 * Logging in to a deactivated account restores it (leave.ts): one check-and-put on the standing
 * read, which an erasure that began meanwhile makes fail for good (Q). The session starts under
 * the epoch read with the password, so a leave that lands after that read ends it too.
 */
export async function logIn(
  deps: LoginDeps,
  input: { handle: string; password: string; sourceIp: string },
  now = Date.now(),
): Promise<Grant> {
  let credentials = await checkPassword(deps, input, now);
  let restored = false;
  for (let tries = 0; credentials.standing.state === 'deactivated'; tries++) {
    if (tries === RESTORE_TRIES) throw new AuthenticationError();
    restored = await deps.users.restore(input.handle, credentials.standing);
    if (restored) break;
    const fresh = await deps.users.credentials(input.handle);
    if (!fresh || fresh.standing.state === 'erased') throw new AuthenticationError();
    credentials = fresh;
  }
  await atStep(deps, 'login.restored', { handle: input.handle });
  const grant = await startSession(deps, { handle: input.handle, epoch: credentials.epoch }, now);
  return restored ? { ...grant, restored: true } : grant;
}
