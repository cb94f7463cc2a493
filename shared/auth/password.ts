// shared/auth/password.ts — password hashing with node:crypto scrypt (no native addon needed on
// Lambda). Stored as one self-describing string so parameters can be raised later without a
// migration: scrypt$N$r$p$salt_b64$hash_b64. Comparison is constant-time.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

// OWASP's scrypt minimum (N=2^17, r=8, p=1) costs 128 MiB per hash; Lambda memory is small and
// shared, so N=2^15 (32 MiB, ~50 ms) with a 16-byte salt is the compromise.
const PARAMS = { N: 1 << 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const maxmem = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_BYTES, { ...PARAMS, maxmem });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/**
 * A fixed hash to verify against when the handle does not exist, so an unknown handle costs
 * the same time as a wrong password and login answers cannot be told apart by timing.
 */
let dummy: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword('dummy password for timing equalisation');
  return dummy;
}
