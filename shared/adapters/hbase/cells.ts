// shared/adapters/hbase/cells.ts — reading cells out of a fetched row: the few helpers every
// HBase adapter needs (a column's value, as text, as a counter; a window of feed cells).
import { keyFromPostId, postIdFromKey } from '../../schema/row-keys.js';
import type { FeedEntry } from '../../domain/post.js';
import {
  bytesToString,
  compareBytes,
  concatBytes,
  decodeLong,
  filters,
  type FilterString,
  type HBaseCell,
  type HBaseRestClient,
  type HBaseRow,
} from '../../hbase/index.js';
import type { FeedSlice, FeedWindow, Page } from '../../ports/feed-store.js';
import { handleFromKey, inboxQualifier, keyAfter, postKeyFromInboxQualifier, userKey } from '../../schema/row-keys.js';

/** The row key of a post id the use case already validated (a bad one is a programming error). */
export function postKeyOf(id: string): Uint8Array {
  const key = keyFromPostId(id);
  if (!key) throw new TypeError(`not a post id: ${JSON.stringify(id)}`);
  return key;
}

/** Value of `family:qualifier` in a row, or undefined. */
export function cellValue(row: HBaseRow | null, column: string): Uint8Array | undefined {
  return cellOf(row, column)?.value;
}

/** The cell `family:qualifier` of a row (value and timestamp), or undefined. */
export function cellOf(row: HBaseRow | null | undefined, column: string): HBaseCell | undefined {
  if (!row) return undefined;
  const [family, qualifier] = column.split(':');
  return row.cells.find((c) => c.family === family && bytesToString(c.qualifier) === qualifier);
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

/** A feed cell (inbox i:, outbox o:) for a post: qualifier = reversed time + post key; value = the original's id for a repost. */
export function feedCell(family: string, entry: FeedEntry): { column: Uint8Array; value: Uint8Array | string } | null {
  const key = keyFromPostId(entry.id);
  if (!key) return null;
  return { column: concatBytes(`${family}:`, inboxQualifier(key)), value: entry.repostOf ?? EMPTY };
}

const EMPTY = new Uint8Array(0);

const withReposts = (slice: FeedSlice, reposts: Record<string, string>): FeedSlice =>
  Object.keys(reposts).length > 0 ? { ...slice, reposts } : slice;

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
  const reposts: Record<string, string> = {};
  for (const cell of cells) {
    if (from !== null && compareBytes(cell.qualifier, from) <= 0) continue;
    if (entries.length === window.limit) return withReposts({ entries, more: true }, reposts);
    try {
      const id = postIdFromKey(postKeyFromInboxQualifier(cell.qualifier));
      entries.push(id);
      // A repost's cell holds its original's id (tables.ts, inbox); anything else is ignored.
      const original = cell.value.length > 0 ? bytesToString(cell.value) : undefined;
      if (original !== undefined && keyFromPostId(original)) reposts[id] = original;
    } catch {
      // not a post key: skipped, never fatal
    }
  }
  return withReposts({ entries, more: false }, reposts);
}

/**
 * The server-side filter for the feed cells (family `family`, inbox i: or outbox o:) strictly
 * newer than the post `than`: qualifiers below its qualifier (ascending = newest first), keys
 * only, at most `limit` per row: the answer stays small however full the row is.
 */
export function newerThanFilter(family: string, than: Uint8Array, limit: number): FilterString {
  return filters.and(
    filters.family(family),
    filters.columnRange('', false, inboxQualifier(than), false),
    filters.columnPagination(limit),
    filters.keyOnly(),
  );
}

/**
 * One page of "user → other user" edge rows (the follow-edge walks; the product's lists are
 * newest first from list-index.ts): rows `prefix + userKey(other)` holding `since` in `column`,
 * ordered by the other user's salted key.
 * `cursor` = the last handle of the previous page, validated by the use case. One scan of limit + 1 rows: the extra row
 * tells whether a next page exists without a second request.
 */
export async function edgePage(
  client: HBaseRestClient,
  table: string,
  prefix: Uint8Array,
  column: string,
  limit: number,
  cursor?: string,
): Promise<Page<{ handle: string; since: number }>> {
  // The use case validated the cursor (a handle); a bad one is a programming error (userKey throws).
  const startRow = cursor === undefined ? undefined : keyAfter(concatBytes(prefix, userKey(cursor)));
  const items: { handle: string; since: number }[] = [];
  let more = false;
  for await (const row of client.scan(table, {
    prefix,
    ...(startRow ? { startRow } : {}),
    limit: limit + 1,
    columns: [column],
    pageSize: limit + 1,
  })) {
    if (items.length === limit) {
      more = true;
      break;
    }
    const since = Number(cellText(row, column));
    items.push({
      handle: handleFromKey(row.key, prefix.length).handle,
      since: Number.isSafeInteger(since) ? since : 0,
    });
  }
  const last = items.at(-1);
  return more && last ? { items, nextCursor: last.handle } : { items };
}
