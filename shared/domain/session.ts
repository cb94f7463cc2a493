// shared/domain/session.ts — domain: a session's id and its opaque refresh tokens. A token is
// base64url(session id 16 bytes ‖ 32 random bytes): the id names the session (so a refresh
// needs one read, no index), the random part is the secret. Only the token's SHA-256 is ever
// stored; 256 random bits need no slow hash and no throttle — they cannot be guessed.
import { createHash, randomBytes } from 'node:crypto';
import { SESSION_ID_BYTES } from './limits.js';

const SECRET_BYTES = 32;
const TOKEN_BYTES = SESSION_ID_BYTES + SECRET_BYTES;
/** base64url of TOKEN_BYTES bytes (a multiple of 3: no padding, no spare bits, one spelling). */
const TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${(TOKEN_BYTES / 3) * 4}}$`);

export const newSessionId = (): Uint8Array => randomBytes(SESSION_ID_BYTES);

/** A fresh session epoch for an account (64 random bits): every session under the old one is over. */
export const newSessionEpoch = (): string => randomBytes(8).toString('hex');

export function newRefreshToken(sessionId: Uint8Array): { token: string; hash: string } {
  const token = Buffer.concat([sessionId, randomBytes(SECRET_BYTES)]).toString('base64url');
  return { token, hash: refreshTokenHash(token) };
}

export const refreshTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The session a token names and the token's hash, or null for anything we never issued. */
export function parseRefreshToken(token: string): { sessionId: Uint8Array; hash: string } | null {
  if (!TOKEN_PATTERN.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  return { sessionId: new Uint8Array(bytes.subarray(0, SESSION_ID_BYTES)), hash: refreshTokenHash(token) };
}
