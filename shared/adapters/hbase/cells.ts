// shared/adapters/hbase/cells.ts — reading cells out of a fetched row: the few helpers every
// HBase adapter needs (a column's value, as text, as a counter; a window of feed cells).
import { keyFromPostId, postIdFromKey } from '../../domain/post.js';
import { bytesToString, compareBytes, decodeLong, type HBaseCell, type HBaseRow } from '../../hbase/index.js';
import type { FeedSlice, FeedWindow } from '../../ports/feed-store.js';
import { inboxQualifier, postKeyFromInboxQualifier } from '../../schema/row-keys.js';

/** Value of `family:qualifier` in a row, or undefined. */
export function cellValue(row: HBaseRow | null, column: string): Uint8Array | undefined {
  if (!row) return undefined;
  const [family, qualifier] = column.split(':');
  return row.cells.find((c) => c.family === family && bytesToString(c.qualifier) === qualifier)?.value;
}

/** Value of `family:qualifier` as UTF-8 text, or undefined. */
export const cellText = (row: HBaseRow | null, column: string) => {
  const v = cellValue(row, column);
  return v === undefined ? undefined : bytesToString(v);
};

/** Counters are 8-byte longs written by REST increments; absent means zero. */
export const counter = (row: HBaseRow | null, column: string): number => {
  const v = cellValue(row, column);
  return v === undefined || v.length !== 8 ? 0 : Number(decodeLong(v));
};

/**
 * A window of a row's feed cells (inbox `i:` or outbox `o:`, qualifier = reversed time + post
 * key, so ascending = feed order): the post ids of at most `limit` cells strictly after the
 * post `after`. Compared as bytes, and only the window's ids are decoded — a row holds up to
 * the cap (800) cells and a page wants ~30. Qualifiers that are not ours are skipped.
 */
export function feedSlice(cells: HBaseCell[], window: FeedWindow): FeedSlice {
  const afterKey = window.after === undefined ? null : keyFromPostId(window.after);
  const from = afterKey === null ? null : inboxQualifier(afterKey);
  const entries: string[] = [];
  for (const cell of cells) {
    if (from !== null && compareBytes(cell.qualifier, from) <= 0) continue;
    if (entries.length === window.limit) return { entries, more: true };
    try {
      entries.push(postIdFromKey(postKeyFromInboxQualifier(cell.qualifier)));
    } catch {
      // not a post key: skipped, never fatal
    }
  }
  return { entries, more: false };
}
