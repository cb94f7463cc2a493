// shared/use-cases/leave.ts — leaving (注销): `DELETE /users/{handle}` with the password again.
// Steps: only as yourself (403) → the password, counted and throttled exactly as a login's
// (log-in.ts checkPassword), a wrong one 403 `wrong_password` (a 401 would say the session is
// over, and a client would drop it) → ONE check-and-put on the users row:
// standing active → deactivated now, with a new session epoch.
// From that write on (docs/consistency.md Q): the profile is 404 to everyone; every view leaves out
// what the account wrote or did, since a face is read with every post, comment, list entry and
// notification and a departed account has none (feeds read faces through a one-minute cache, so
// a feed may show the account's posts for up to that minute); the account is nobody's new
// mention, follow, block or search result (its private conversations stay with the other side,
// the person shown as gone, and a message to it is refused); and no session of it refreshes again. Logging in
// within RESTORE_WINDOW_MS restores all of it (log-in.ts), nothing having been deleted; after
// that the erasure may begin, and nothing brings the account back.
// Leaving again while deactivated answers the same deactivation (idempotent).
import { newSessionEpoch } from '../domain/session.js';
import { AuthenticationError, ForbiddenError } from '../domain/errors.js';
import { erasableFrom } from '../domain/leaving.js';
import { checkPassword, type LoginDeps } from './log-in.js';
import { atStep } from './steps.js';
import { actAs } from './users.js';

export interface Departure {
  handle: string;
  deactivatedAt: number;
  /** From then the account may be erased; until the erasure begins, logging in restores it. */
  erasableFrom: number;
}

const departure = (handle: string, at: number): Departure => ({
  handle,
  deactivatedAt: at,
  erasableFrom: erasableFrom(at),
});

export async function leave(
  deps: LoginDeps,
  actor: string,
  input: { handle: string; password: string; sourceIp: string },
  now = Date.now(),
): Promise<Departure> {
  const handle = actAs(actor, input.handle);
  const credentials = await checkPassword(deps, input, now).catch((err: unknown) => {
    throw err instanceof AuthenticationError ? new ForbiddenError('Wrong password', 'wrong_password') : err;
  });
  if (credentials.standing.state === 'deactivated') return departure(handle, credentials.standing.at);
  await atStep(deps, 'leave.verified', { handle });
  if (await deps.users.deactivate(handle, now, newSessionEpoch())) return departure(handle, now);
  // The standing moved since it was read: a racing leave won (the same answer), or the erasure
  // began (checkPassword refuses an erased account, so only a race gets here).
  const fresh = await deps.users.credentials(handle);
  if (fresh?.standing.state === 'deactivated') return departure(handle, fresh.standing.at);
  throw new ForbiddenError('This account is being erased', 'forbidden');
}
