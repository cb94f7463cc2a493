// shared/auth/positions.ts — the PositionSeal port: a position in a reader's event log as handed to
// that reader's client, with the presence mark it was read under, under an HMAC of the reader's
// own random secret (kept in its log row, made at its first connect). A client cannot forge one,
// nor use another reader's, and a position too old for the log is recognised as such
// (docs/consistency.md S). No signing key of the service is needed: the worker seals too.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PositionSeal } from '../ports/live-store.js';

const SEALED = /^(\d{1,15})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/;

const mac = (key: string, position: number, at: number) =>
  createHmac('sha256', key).update(`${position}\n${at}`).digest().subarray(0, 16);

export const hmacPositionSeal: PositionSeal = {
  seal: (key, position, at) => `${position}.${at.toString(36)}.${mac(key, position, at).toString('base64url')}`,
  claimed: (sealed) => {
    const m = SEALED.exec(sealed);
    const position = m ? Number(m[1]) : Number.NaN;
    return Number.isSafeInteger(position) ? position : null;
  },
  open: (key, sealed) => {
    const m = SEALED.exec(sealed);
    if (!m) return null;
    const position = Number(m[1]);
    const at = Number.parseInt(m[2]!, 36);
    if (!Number.isSafeInteger(position) || !Number.isSafeInteger(at)) return null;
    const given = Buffer.from(m[3]!, 'base64url');
    const expected = mac(key, position, at);
    return given.length === expected.length && timingSafeEqual(given, expected) ? { position, at } : null;
  },
};
