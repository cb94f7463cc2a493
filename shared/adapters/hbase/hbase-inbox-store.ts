// shared/adapters/hbase/hbase-inbox-store.ts — InboxStore on HBase (secondary adapter): one wide
// row per reader. Layout and access patterns: shared/schema/tables.ts (inbox).
import { InvalidInputError } from '../../domain/errors.js';
import { keyFromPostId, postIdFromKey } from '../../domain/post.js';
import { bytesEqual, compareBytes, concatBytes, type HBaseCell, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type { InboxEntry, InboxStore } from '../../ports/feed-store.js';
import { inboxQualifier, parsePostKey, postKeyFromInboxQualifier, timestampFromReversed, userKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';

const FAMILY = 'i';
const EMPTY = new Uint8Array(0);
// REST has no multi-row delete, so retracting a post is one DELETE per reader; bounded so a
// post with many readers neither floods the gateway nor opens unbounded sockets.
const REMOVE_CONCURRENCY = 16;

const column = (qualifier: Uint8Array) => concatBytes(`${FAMILY}:`, qualifier);

function inboxCells(row: HBaseRow | null): HBaseCell[] {
  return row ? row.cells.filter((c) => c.family === FAMILY) : [];
}

/** The opaque position of an entry: its qualifier, base64url without padding (URL-safe as is). */
const positionOf = (qualifier: Uint8Array) => Buffer.from(qualifier).toString('base64url');

/**
 * Decodes a position back into a qualifier. Only what positionOf could have produced passes:
 * the bytes must be revTs + a well-formed post key whose revTs matches, and re-encode to the
 * same text. Anything else is a client mistake, never a 500.
 */
function qualifierOfPosition(position: string): Uint8Array {
  const invalid = () => new InvalidInputError('timeline cursor is not one this API issued', 'invalid_cursor');
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(position)) throw invalid();
  const qualifier = new Uint8Array(Buffer.from(position, 'base64url'));
  if (positionOf(qualifier) !== position) throw invalid();
  try {
    const post = keyFromPostId(postIdFromKey(postKeyFromInboxQualifier(qualifier)));
    if (post && bytesEqual(inboxQualifier(post), qualifier)) return qualifier;
  } catch {
    // fall through: not a post key
  }
  throw invalid();
}

/** The post id of an inbox cell, or null for a qualifier that is not ours (skipped, never fatal). */
function postIdOf(cell: HBaseCell): string | null {
  try {
    return postIdFromKey(postKeyFromInboxQualifier(cell.qualifier));
  } catch {
    return null;
  }
}

async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export class HBaseInboxStore implements InboxStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'inbox');
  }

  async add(readers: string[], postId: string): Promise<void> {
    const post = keyFromPostId(postId);
    if (!post || readers.length === 0) return;
    const cell = { column: column(inboxQualifier(post)), value: EMPTY };
    // No timestamp: the region server stamps the cell now, so a delete marker left by an
    // earlier purge (which covers only older timestamps) can never hide it (HBASE-3300).
    await this.client.put(this.table, [...new Set(readers)].map((r) => ({ key: userKey(r), cells: [cell] })));
  }

  async addMany(reader: string, postIds: string[]): Promise<void> {
    const cells = postIds
      .map(keyFromPostId)
      .filter((k): k is Uint8Array => k !== null)
      .map((k) => ({ column: column(inboxQualifier(k)), value: EMPTY }));
    if (cells.length === 0) return;
    await this.client.put(this.table, [{ key: userKey(reader), cells }]);
  }

  async remove(readers: string[], postId: string): Promise<void> {
    const post = keyFromPostId(postId);
    if (!post) return;
    const col = column(inboxQualifier(post));
    await forEachLimit([...new Set(readers)], REMOVE_CONCURRENCY, (r) => this.client.deleteColumn(this.table, userKey(r), col));
  }

  async purgeAuthor(reader: string, author: string): Promise<number> {
    const row = await this.client.getRow(this.table, userKey(reader), { columns: [FAMILY] });
    const doomed = inboxCells(row).filter((c) => {
      try {
        return parsePostKey(postKeyFromInboxQualifier(c.qualifier)).author === author;
      } catch {
        return false;
      }
    });
    if (doomed.length === 0) return 0;
    // Only versions up to the newest one we saw: an entry re-added after our read (a refollow's
    // backfill) carries a newer server timestamp and survives.
    const upToTimestamp = Math.max(...doomed.map((c) => c.timestamp));
    await this.client.deleteColumns(this.table, userKey(reader), doomed.map((c) => c.column), { upToTimestamp });
    return doomed.length;
  }

  async page(reader: string, limit: number, after?: string): Promise<{ entries: InboxEntry[]; more: boolean }> {
    const from = after === undefined ? undefined : qualifierOfPosition(after);
    const cells = inboxCells(await this.client.getRow(this.table, userKey(reader), { columns: [FAMILY] }));
    // Qualifiers come back ascending = newest first. Entries added since the previous page are
    // newer, so they sort before the cursor: no duplicates and no gaps across pages.
    let i = from === undefined ? 0 : cells.findIndex((c) => compareBytes(c.qualifier, from) > 0);
    if (i < 0) i = cells.length;
    const entries: InboxEntry[] = [];
    for (; i < cells.length && entries.length < limit; i++) {
      const cell = cells[i] as HBaseCell;
      const postId = postIdOf(cell);
      if (postId) entries.push({ postId, position: positionOf(cell.qualifier) });
    }
    return { entries, more: i < cells.length };
  }

  async stats(reader: string): Promise<{ size: number; oldestMillis?: number }> {
    const cells = inboxCells(await this.client.getRow(this.table, userKey(reader), { columns: [FAMILY] }));
    const oldest = cells.at(-1);
    return oldest ? { size: cells.length, oldestMillis: timestampFromReversed(oldest.qualifier) } : { size: 0 };
  }
}
