// shared/adapters/hbase/cursor.ts — the positions of the table walks the scheduled jobs make
// (hbase-maintenance-store.ts, hbase-post-count-store.ts): a walk's position is the next scan's
// start row, handed to the job as base64url text it passes on unchanged.
import type { Cursor } from '../../ports/maintenance-store.js';

/**
 * The exclusive stop row of a whole-table walk. Every row key of inbox, outbox, relations, users
 * and content starts with a userKey: 2 salt bytes, then a handle byte from [a-z0-9_] (≤ 0x7a),
 * so every key sorts below ff ff ff. (The scan API insists on a stop row; this one is exact.)
 */
export const TABLE_END = Uint8Array.of(0xff, 0xff, 0xff);

export const encodeCursor = (key: Uint8Array): Cursor => Buffer.from(key).toString('base64url');

/** A position a store issued; anything else is refused before it reaches a scan. */
export function decodeCursor(cursor: Cursor): Uint8Array {
  const key = new Uint8Array(Buffer.from(cursor, 'base64url'));
  if (cursor.length === 0 || !/^[A-Za-z0-9_-]+$/.test(cursor) || encodeCursor(key) !== cursor) {
    throw new RangeError('not a position of the maintenance store');
  }
  return key;
}
