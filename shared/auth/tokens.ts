// shared/auth/tokens.ts — short-lived signed access tokens (JWT, HS256 via jose). The acting
// user of every authorized route is the verified `sub`, never a body or path field.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { AuthenticationError } from '../domain/errors.js';

const ISSUER = 'weibo-serverless';
const AUDIENCE = 'weibo-api';
const encoder = new TextEncoder();

export interface TokenSettings {
  secret: string;
  ttlSeconds: number;
}

export async function issueToken(handle: string, s: TokenSettings, now = Date.now()): Promise<{ token: string; expiresAt: string }> {
  const iat = Math.floor(now / 1000);
  const exp = iat + s.ttlSeconds;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(handle)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(encoder.encode(s.secret));
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/** Returns the handle the token was issued to; any defect is the same AuthenticationError. */
export async function verifyToken(token: string, secret: string): Promise<string> {
  try {
    // Pinning the algorithm list is what rejects `alg: none` and algorithm-confusion tokens.
    const { payload } = await jwtVerify(token, encoder.encode(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new AuthenticationError('Invalid token');
    return payload.sub;
  } catch (err) {
    if (err instanceof AuthenticationError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new AuthenticationError('Token expired', 'token_expired');
    throw new AuthenticationError('Invalid token', 'invalid_token');
  }
}
