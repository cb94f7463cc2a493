// shared/use-cases/sessions.ts — refresh tokens: a login starts a session; a refresh exchanges
// its current refresh token for a new access token AND a new refresh token (rotation); logout
// revokes the session. Access tokens stay short-lived stateless JWTs (shared/auth/tokens.ts), so
// a refresh is the point where a session is checked: once it is revoked no refresh works.
// Product rules, and why:
//  * A refresh token is spent by its refresh. Presenting a spent one again is REUSE: one of
//    its holders is not the user (a copied token), and nobody can tell which — so the whole
//    session (every token of that login) is revoked and the answer is 401
//    `refresh_token_reused` (OAuth 2.0 Security BCP, refresh token rotation). Two refreshes
//    of one token at once are the same case: exactly one rotation wins, the other is reuse.
//    A client must therefore never refresh twice in parallel (the web client shares one).
//  * Anything else we cannot accept — malformed, never issued, expired, or a revoked
//    session's token — is 401 `invalid_refresh_token` and changes nothing.
//  * Logout with a refresh token revokes its session; it is idempotent and answers the same
//    whatever was presented, so it tells nothing about tokens.
//  * A session refreshes only while its account is active and still has the session epoch the
//    session started under: leaving (./leave.ts) draws a new epoch, so every session of the
//    account ends at once and a later restore brings none of them back (docs/consistency.md Q).
//    The check is read BESIDE the rotation (no round trip more); a refused refresh revokes the
//    session it rotated and hands out nothing.
// Requests per operation and the interleavings: shared/schema/tables.ts (sessions).
import { newRefreshToken, newSessionId, parseRefreshToken } from '../domain/session.js';
import type { AccessTokens } from '../ports/credentials.js';
import { AuthenticationError } from '../domain/errors.js';
import type { SessionOwner, SessionStore } from '../ports/session-store.js';
import type { UserStore } from '../ports/user-store.js';
import { atStep, type StepHook } from './steps.js';

export interface SessionDeps {
  sessions: SessionStore;
  users: Pick<UserStore, 'sessionGate'>;
  tokens: AccessTokens;
  refreshTtlSeconds: number;
  /** Tests only: called between the steps of a refresh (./steps.ts). */
  step?: StepHook;
}

export interface Grant {
  handle: string;
  token: string;
  /** Millis (the HTTP view formats them). */
  expiresAt: number;
  refreshToken: string;
  refreshExpiresAt: number;
  /** This login brought a deactivated account back (leave.ts). */
  restored?: true;
}

const invalid = () => new AuthenticationError('Invalid refresh token: log in again', 'invalid_refresh_token');

async function grant(
  deps: SessionDeps,
  handle: string,
  refreshToken: string,
  refreshExpiresAt: number,
  now: number,
): Promise<Grant> {
  return { handle, ...(await deps.tokens.issue(handle, now)), refreshToken, refreshExpiresAt };
}

/** After a correct password: a new session under the account's current epoch, and its first tokens. */
export async function startSession(deps: SessionDeps, owner: SessionOwner, now = Date.now()): Promise<Grant> {
  const id = newSessionId();
  const { token, hash } = newRefreshToken(id);
  const expiresAt = now + deps.refreshTtlSeconds * 1000;
  await deps.sessions.start(id, owner, { hash, expiresAt });
  return grant(deps, owner.handle, token, expiresAt, now);
}

export async function refreshSession(deps: SessionDeps, refreshToken: string, now = Date.now()): Promise<Grant> {
  const presented = parseRefreshToken(refreshToken);
  if (!presented) throw invalid();
  const { sessionId: id, hash } = presented;
  const session = await deps.sessions.read(id, hash);
  if (!session || session.presentedExpiresAt === null || session.presentedExpiresAt <= now || session.revoked)
    throw invalid();
  const reuse = async () => {
    await deps.sessions.revoke(id, now);
    return new AuthenticationError(
      'This refresh token was already used: the session is ended, log in again',
      'refresh_token_reused',
    );
  };
  if (session.currentHash !== hash) throw await reuse();
  await atStep(deps, 'refresh.read', { handle: session.handle });
  const next = newRefreshToken(id);
  const expiresAt = now + deps.refreshTtlSeconds * 1000;
  const owner = { handle: session.handle, epoch: session.epoch };
  const [rotated, gate] = await Promise.all([
    deps.sessions.rotate(id, owner, hash, { hash: next.hash, expiresAt }),
    deps.users.sessionGate(session.handle),
  ]);
  if (gate?.standing.state !== 'active' || gate.epoch !== session.epoch) {
    // The account left (or left and came back) since this session began: it is over.
    await deps.sessions.revoke(id, now);
    throw invalid();
  }
  if (!rotated) {
    // No longer current: a racing refresh spent it (reuse), or a logout revoked the session.
    if ((await deps.sessions.read(id, hash))?.revoked) throw invalid();
    throw await reuse();
  }
  return grant(deps, session.handle, next.token, expiresAt, now);
}

/** Logout: the session of this refresh token accepts no token any more. Idempotent. */
export async function endSession(
  deps: Pick<SessionDeps, 'sessions'>,
  refreshToken: string,
  now = Date.now(),
): Promise<void> {
  const presented = parseRefreshToken(refreshToken);
  if (!presented) return;
  const session = await deps.sessions.read(presented.sessionId, presented.hash);
  // Only a token the session issued may end it (a spent one too: its holder is logging out).
  if (!session || session.presentedExpiresAt === null || session.revoked) return;
  await deps.sessions.revoke(presented.sessionId, now);
}
