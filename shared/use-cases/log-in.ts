// shared/use-cases/log-in.ts — credentials → a short-lived token.
// Steps: read throttle state and password hash (in parallel) → refuse while locked (429, the
// same for unknown and known handles) → verify (an unknown handle is verified against a dummy
// hash so both failures cost the same) → on failure count it and maybe lock → one 401 for
// every failure → on success clear the throttle and sign a token.
import { dummyPasswordHash, verifyPassword } from '../auth/password.js';
import { issueToken, type TokenSettings } from '../auth/tokens.js';
import { AuthenticationError, RateLimitedError } from '../domain/errors.js';
import type { LoginThrottle, UserStore } from '../ports/user-store.js';
import { HANDLE_PATTERN } from '../schema/row-keys.js';

export interface LoginPolicy {
  maxFailures: number;
  lockSeconds: number;
}

/** Lock length doubles with every failure past the limit, capped at one hour. */
export function lockUntil(failuresAfterThis: number, policy: LoginPolicy, now: number): number | null {
  if (failuresAfterThis < policy.maxFailures) return null;
  const doublings = Math.min(failuresAfterThis - policy.maxFailures, 10);
  return now + Math.min(policy.lockSeconds * 2 ** doublings, 3600) * 1000;
}

export async function logIn(
  deps: { users: UserStore; throttle: LoginThrottle; tokens: TokenSettings; policy: LoginPolicy },
  input: { handle: string; password: string },
  now = Date.now(),
) {
  // A handle that cannot exist gets the same answer as a wrong password, without storage.
  if (!HANDLE_PATTERN.test(input.handle)) {
    await verifyPassword(input.password, await dummyPasswordHash());
    throw new AuthenticationError();
  }
  const [state, stored] = await Promise.all([deps.throttle.read(input.handle), deps.users.passwordHash(input.handle)]);
  if (state.lockedUntil > now) {
    throw new RateLimitedError('Too many failed logins; try again later', Math.ceil((state.lockedUntil - now) / 1000));
  }
  const ok = await verifyPassword(input.password, stored ?? (await dummyPasswordHash()));
  if (!stored || !ok) {
    await deps.throttle.recordFailure(input.handle, lockUntil(state.failures + 1, deps.policy, now));
    throw new AuthenticationError();
  }
  if (state.failures > 0) await deps.throttle.reset(input.handle);
  return { handle: input.handle, ...(await issueToken(input.handle, deps.tokens, now)) };
}
