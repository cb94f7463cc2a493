// shared/auth/tokens.ts — short-lived signed access tokens (JWT, HS256 via jose). The acting
// user of every authorized route is the verified `sub`, never a body or path field.
// Key rotation without downtime: a token names its key (`kid`, a digest of the key, never the
// key); verification accepts the current key and, while a rotation is under way, the previous
// one — so tokens signed just before the switch stay valid for their short lifetime.
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { AuthenticationError } from '../domain/errors.js';
import type { AccessTokens } from '../ports/credentials.js';

const ISSUER = 'weibo-serverless';
const AUDIENCE = 'weibo-api';
const encoder = new TextEncoder();

export interface TokenKeys {
  /** Signs every new token. */
  secret: string;
  /** Still accepted, never used to sign: the key before the last rotation. */
  previousSecret?: string;
}

export interface TokenSettings extends TokenKeys {
  ttlSeconds: number;
}

/** Keys as read from configuration: each at least 32 characters (HS256 wants ≥ 256 bits). */
export function tokenKeysFrom(secret: string, previousSecret?: string): TokenKeys {
  for (const key of [secret, previousSecret]) {
    if (key !== undefined && key.length < 32)
      throw new Error('Invalid configuration: a token signing key must be at least 32 characters');
  }
  return previousSecret === undefined || previousSecret === secret ? { secret } : { secret, previousSecret };
}

/** A key's public name: enough to pick the key, useless to forge with. */
export const keyId = (secret: string): string => createHash('sha256').update(secret).digest('base64url').slice(0, 12);

export async function issueToken(
  handle: string,
  s: TokenSettings,
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(now / 1000);
  const exp = iat + s.ttlSeconds;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keyId(s.secret) })
    .setSubject(handle)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(encoder.encode(s.secret));
  // Millis: the HTTP view formats instants (shared/http/views.ts).
  return { token, expiresAt: exp * 1000 };
}

/** Returns the handle the token was issued to; any defect is the same AuthenticationError. */
export async function verifyToken(token: string, keys: TokenKeys): Promise<string> {
  return (await verifiedSession(token, keys)).handle;
}

/** The handle the token was issued to and when it expires (millis); defects as verifyToken. */
export async function verifiedSession(token: string, keys: TokenKeys): Promise<{ handle: string; expiresAt: number }> {
  const accepted = [keys.secret, ...(keys.previousSecret ? [keys.previousSecret] : [])];
  try {
    // The key the token names; a token without a kid (issued before kids) is tried with the current key.
    const pick = ({ kid }: { kid?: string }) => {
      const key = kid === undefined ? keys.secret : accepted.find((k) => keyId(k) === kid);
      if (key === undefined) throw new AuthenticationError('Invalid token', 'invalid_token');
      return encoder.encode(key);
    };
    // Pinning the algorithm list is what rejects `alg: none` and algorithm-confusion tokens.
    const { payload } = await jwtVerify(token, pick, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new AuthenticationError('Invalid token');
    return { handle: payload.sub, expiresAt: (payload.exp ?? 0) * 1000 };
  } catch (err) {
    if (err instanceof AuthenticationError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new AuthenticationError('Token expired', 'token_expired');
    throw new AuthenticationError('Invalid token', 'invalid_token');
  }
}

/** The AccessTokens port: JWTs signed with the current key of `settings`. */
export const jwtAccessTokens = (settings: TokenSettings): AccessTokens => ({
  issue: (handle, now) => issueToken(handle, settings, now),
});
