// shared/ports/session-store.ts — what the session use cases (shared/use-cases/sessions.ts) need
// from storage: one login's session and the refresh tokens it issued, known only by their
// hashes. Implemented by shared/adapters/hbase/hbase-session-store.ts.

export interface IssuedToken {
  /** Hex SHA-256 of the refresh token; the token itself is never stored. */
  hash: string;
  expiresAt: number;
}

/** A session as one refresh attempt sees it. */
export interface SessionView {
  handle: string;
  /** The account's session epoch when the session started ('' = the first): another one now = over. */
  epoch: string;
  /** Logged out, or ended because a spent token came back. */
  revoked: boolean;
  /** The token that may be exchanged now (null once revoked). */
  currentHash: string | null;
  /** When the presented token expires, or null when this session never issued it. */
  presentedExpiresAt: number | null;
}

/** Whose a session is: the handle and the account's session epoch it started under. */
export interface SessionOwner {
  handle: string;
  epoch: string;
}

export interface SessionStore {
  /** A new session whose current token is `token` (a fresh random id: nothing can race it). */
  start(id: Uint8Array, owner: SessionOwner, token: IssuedToken): Promise<void>;
  /** The session, as it concerns the token with hash `presented`; null when no such session. */
  read(id: Uint8Array, presented: string): Promise<SessionView | null>;
  /**
   * Makes `next` the current token if `from` still is, at once: of racing refreshes exactly one
   * wins. False when `from` was spent by a racing refresh or the session was revoked meanwhile.
   */
  rotate(id: Uint8Array, owner: SessionOwner, from: string, next: IssuedToken): Promise<boolean>;
  /** No token of the session is accepted any more. Idempotent. */
  revoke(id: Uint8Array, now: number): Promise<void>;
}
