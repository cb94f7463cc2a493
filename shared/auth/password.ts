// shared/auth/password.ts — password hashing with node:crypto scrypt (no native addon needed on
// Lambda). Stored as one self-describing string, scrypt$N$r$p$salt_b64$hash_b64, so the
// parameters can be raised without a migration: old records keep verifying with their own
// parameters and are re-hashed at the owner's next successful login (needsRehash, log-in.ts).
// Comparison is constant-time.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { config } from '../config/config.js';
import type { Passwords } from '../ports/credentials.js';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

// OWASP Password Storage Cheat Sheet (scrypt): "a minimum CPU/memory cost parameter of (2^17), a
// minimum block size of 8 (1024 bytes), and a parallelization parameter of 1" —
// https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
// That costs 128 MiB and about 0.4 s of one core per hash here (Node 22, this 2-core machine),
// which is why the login and register functions get 1024 MB (infra/functions/http.yml: Lambda
// gives CPU in proportion to memory). Records written before were N=2^15 and are re-hashed.
export const PASSWORD_PARAMS: Readonly<ScryptParams> = { N: 1 << 17, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
// Node refuses when (about) 128·N·r exceeds maxmem, and exactly 128·N·r is already refused,
// so allow the block plus 1 MiB for scrypt's own small buffers.
const maxmemFor = ({ N, r }: ScryptParams) => 128 * N * r + 1024 * 1024;
// A stored record is ours, but a corrupt one must not make a verify allocate gigabytes.
const LIMITS: Readonly<ScryptParams> = { N: 1 << 20, r: 32, p: 16 };

/** What new hashes get: OWASP's parameters, unless the local stage lowered N (config.ts PASSWORD_SCRYPT_LOG2N). */
export function currentPasswordParams(): Readonly<ScryptParams> {
  const log2n = config().PASSWORD_SCRYPT_LOG2N;
  return log2n === undefined ? PASSWORD_PARAMS : { ...PASSWORD_PARAMS, N: 2 ** log2n };
}

export async function hashPassword(password: string, params: ScryptParams = currentPasswordParams()): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_BYTES, { ...params, maxmem: maxmemFor(params) });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parse(stored: string): (ScryptParams & { salt: Buffer; key: Buffer }) | null {
  const [scheme, n, r, p, saltB64, keyB64, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !saltB64 || !keyB64 || rest.length > 0) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const valid = (Object.keys(params) as (keyof ScryptParams)[]).every(
    (k) => Number.isSafeInteger(params[k]) && params[k] >= 1 && params[k] <= LIMITS[k],
  );
  return valid ? { ...params, salt: Buffer.from(saltB64, 'base64'), key: Buffer.from(keyB64, 'base64') } : null;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const record = parse(stored);
  if (!record || record.key.length === 0) return false;
  const { salt, key, ...params } = record;
  const actual = await scrypt(password, salt, key.length, { ...params, maxmem: maxmemFor(params) });
  return timingSafeEqual(actual, key);
}

/** True when the record was made with weaker parameters than today's (or is not ours at all). */
export function needsRehash(stored: string): boolean {
  const record = parse(stored);
  if (!record) return true;
  const params = currentPasswordParams();
  return record.N < params.N || record.r < params.r || record.p < params.p || record.key.length < KEY_BYTES;
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

/** The Passwords port on scrypt. */
export const scryptPasswords: Passwords = {
  hash: (password) => hashPassword(password),
  verify: verifyPassword,
  needsRehash,
  dummy: dummyPasswordHash,
};
