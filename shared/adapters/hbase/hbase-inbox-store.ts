// shared/adapters/hbase/hbase-inbox-store.ts — InboxStore on HBase (secondary adapter): one wide
// row per reader. Layout and access patterns: shared/schema/tables.ts (inbox).
import { forEachLimit } from '../../runtime/concurrency.js';
import { keyFromPostId } from '../../schema/row-keys.js';
import type { FeedEntry } from '../../domain/post.js';
import {
  bytesToString,
  concatBytes,
  filters,
  type HBaseCell,
  type HBaseRestClient,
  type HBaseRow,
} from '../../hbase/index.js';
import type { FeedWindow, InboxStore, InboxView, NewerView } from '../../ports/feed-store.js';
import {
  inboxQualifier,
  parsePostKey,
  postKeyFromInboxQualifier,
  timestampFromReversed,
  userKey,
} from '../../schema/row-keys.js';
import { HANDLE_PATTERN } from '../../domain/handle.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, feedCell, feedSlice, newerThanFilter, postKeyOf } from './cells.js';

const FAMILY = 'i';
const CELEBRITIES = 'c';
const META = 'm';
const EMPTY = new Uint8Array(0);
/** Cells per batched put when the same posts go to many readers (keeps one request's body modest). */
const CELLS_PER_PUT = 5000;
// REST has no multi-row delete, so retracting a post is one DELETE per reader; bounded so a
// post with many readers neither floods the gateway nor opens unbounded sockets.
const REMOVE_CONCURRENCY = 16;

const column = (qualifier: Uint8Array) => concatBytes(`${FAMILY}:`, qualifier);

function inboxCells(row: HBaseRow | null): HBaseCell[] {
  return row ? row.cells.filter((c) => c.family === FAMILY) : [];
}

/** The celebrity markers of a fetched row (handles; anything else is ignored). */
function celebritiesOf(row: HBaseRow | null): string[] {
  return (row?.cells ?? [])
    .filter((c) => c.family === CELEBRITIES)
    .map((c) => bytesToString(c.qualifier))
    .filter((h) => HANDLE_PATTERN.test(h));
}

export class HBaseInboxStore implements InboxStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'inbox');
  }

  async add(readers: string[], entry: FeedEntry): Promise<void> {
    const cell = feedCell(FAMILY, entry);
    if (!cell || readers.length === 0) return;
    // No timestamp: the region server stamps the cell now, so a delete marker left by an
    // earlier purge (which covers only older timestamps) can never hide it (HBASE-3300).
    await this.client.put(
      this.table,
      [...new Set(readers)].map((r) => ({ key: userKey(r), cells: [cell] })),
    );
  }

  async addMany(reader: string, entries: FeedEntry[]): Promise<void> {
    const cells = entries.flatMap((e) => feedCell(FAMILY, e) ?? []);
    if (cells.length === 0) return;
    await this.client.put(this.table, [{ key: userKey(reader), cells }]);
  }

  async remove(readers: string[], postId: string): Promise<void> {
    const post = keyFromPostId(postId);
    if (!post) return;
    const col = column(inboxQualifier(post));
    await forEachLimit([...new Set(readers)], REMOVE_CONCURRENCY, (r) =>
      this.client.deleteColumn(this.table, userKey(r), col),
    );
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
    await this.client.deleteColumns(
      this.table,
      userKey(reader),
      doomed.map((c) => c.column),
      { upToTimestamp },
    );
    return doomed.length;
  }

  async read(reader: string, window: FeedWindow): Promise<InboxView> {
    // One get of the reader's whole row: entries, celebrity markers and activity meta.
    const row = await this.client.getRow(this.table, userKey(reader), { columns: [FAMILY, CELEBRITIES, META] });
    // Ascending qualifiers = feed order (newest first across all followees).
    const { entries, more, reposts } = feedSlice(inboxCells(row), window);
    const celebrities = celebritiesOf(row);
    const meta = (q: string) => {
      const n = Number(cellText(row, `${META}:${q}`));
      return Number.isSafeInteger(n) ? n : undefined;
    };
    const lastSeen = meta('seen');
    const regeneratingSince = meta('regen');
    return {
      entries,
      more,
      ...(reposts ? { reposts } : {}),
      celebrities,
      ...(lastSeen !== undefined ? { lastSeen } : {}),
      ...(regeneratingSince !== undefined ? { regeneratingSince } : {}),
    };
  }

  async newer(reader: string, than: string, limit: number): Promise<NewerView> {
    // One get whose filter leaves only what the count needs (tables.ts, inbox "newer check"):
    // the c: markers whole, and the keys of at most limit + 1 i: cells before `than`'s, so the
    // answer of a full inbox (800 cells) is as small as a fresh one's.
    const row = await this.client.getRow(this.table, userKey(reader), {
      columns: [CELEBRITIES, FAMILY],
      filter: filters.or(filters.family(CELEBRITIES), newerThanFilter(FAMILY, postKeyOf(than), limit + 1)),
    });
    const { entries, more } = feedSlice(inboxCells(row), { limit });
    return { entries, more, celebrities: celebritiesOf(row) };
  }

  async addManyToReaders(readers: string[], entries: FeedEntry[]): Promise<void> {
    const cells = entries.flatMap((e) => feedCell(FAMILY, e) ?? []);
    if (cells.length === 0 || readers.length === 0) return;
    const perPut = Math.max(1, Math.floor(CELLS_PER_PUT / cells.length));
    const unique = [...new Set(readers)];
    for (let at = 0; at < unique.length; at += perPut) {
      await this.client.put(
        this.table,
        unique.slice(at, at + perPut).map((r) => ({ key: userKey(r), cells })),
      );
    }
  }

  async addCelebrity(readers: string[], celebrity: string): Promise<void> {
    if (readers.length === 0) return;
    const cell = { column: `${CELEBRITIES}:${celebrity}`, value: EMPTY };
    await this.client.put(
      this.table,
      [...new Set(readers)].map((r) => ({ key: userKey(r), cells: [cell] })),
    );
  }

  async removeCelebrity(readers: string[], celebrity: string): Promise<void> {
    await forEachLimit([...new Set(readers)], REMOVE_CONCURRENCY, (r) =>
      this.client.deleteColumn(this.table, userKey(r), `${CELEBRITIES}:${celebrity}`),
    );
  }

  async markSeen(reader: string, at: number): Promise<void> {
    await this.client.put(this.table, [
      { key: userKey(reader), cells: [{ column: `${META}:seen`, value: String(at) }] },
    ]);
  }

  async lastSeen(readers: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (readers.length === 0) return out;
    const rows = await this.client.multiGet(this.table, readers.map(userKey), { columns: [`${META}:seen`] });
    const byKey = new Map(readers.map((r) => [Buffer.from(userKey(r)).toString('base64'), r]));
    for (const row of rows) {
      const reader = byKey.get(Buffer.from(row.key).toString('base64'));
      const value = Number(cellText(row, `${META}:seen`));
      if (reader && Number.isSafeInteger(value)) out.set(reader, value);
    }
    return out;
  }

  async markAway(reader: string, seenAt: number): Promise<void> {
    await this.client.put(this.table, [
      { key: userKey(reader), cells: [{ column: `${META}:away`, value: String(seenAt) }] },
    ]);
  }

  async markRegenerating(reader: string, at: number): Promise<void> {
    // Seen and regen together: the reader is back, and the rebuild is under way.
    await this.client.put(this.table, [
      {
        key: userKey(reader),
        cells: [
          { column: `${META}:seen`, value: String(at) },
          { column: `${META}:regen`, value: String(at) },
        ],
      },
    ]);
  }

  async clearRegenerating(reader: string): Promise<void> {
    await this.client.deleteColumn(this.table, userKey(reader), `${META}:regen`);
  }

  async stats(reader: string): Promise<{ size: number; oldestMillis?: number }> {
    const cells = inboxCells(await this.client.getRow(this.table, userKey(reader), { columns: [FAMILY] }));
    const oldest = cells.at(-1);
    return oldest ? { size: cells.length, oldestMillis: timestampFromReversed(oldest.qualifier) } : { size: 0 };
  }
}
