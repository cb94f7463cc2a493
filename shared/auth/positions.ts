// shared/auth/positions.ts — the PositionSeal port: a position in a reader's event log as handed to
// that reader's client, with when it was handed out, under an HMAC of the signing key. A client
// cannot forge one, nor use another reader's (the reader is in the MAC), and a position too old
// for the log is recognised as such (docs/consistency.md S).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PositionSeal } from '../ports/live-store.js';

const SEALED = /^(\d{1,15})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/;

/** Seals with `secret`; opens what `secret` or `previous` (a key being rotated out) sealed. */
export function hmacPositionSeal(secret: string, previous?: string): PositionSeal {
  // Keys of their own, derived from the signing keys: a seal is never a valid token MAC.
  const keys = [secret, ...(previous ? [previous] : [])].map((s) =>
    createHmac('sha256', s).update('weibo event-log positions').digest(),
  );
  const macWith = (key: Buffer, reader: string, position: number, at: number) =>
    createHmac('sha256', key).update(`${reader}\n${position}\n${at}`).digest().subarray(0, 16);
  return {
    seal: (reader, position, at) =>
      `${position}.${at.toString(36)}.${macWith(keys[0]!, reader, position, at).toString('base64url')}`,
    open: (reader, sealed) => {
      const m = SEALED.exec(sealed);
      if (!m) return null;
      const position = Number(m[1]);
      const at = Number.parseInt(m[2]!, 36);
      if (!Number.isSafeInteger(position) || !Number.isSafeInteger(at)) return null;
      const given = Buffer.from(m[3]!, 'base64url');
      const matches = keys.some((key) => {
        const expected = macWith(key, reader, position, at);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
      return matches ? { position, at } : null;
    },
  };
}
