// shared/adapters/hbase/hbase-outbox-store.ts — OutboxStore and CelebrityRegistry on HBase
// (secondary adapters). Layout: shared/schema/tables.ts (outbox; users p:celeb).
import { keyFromPostId } from '../../schema/row-keys.js';
import type { FeedEntry } from '../../domain/post.js';
import { concatBytes, type HBaseRestClient } from '../../hbase/index.js';
import type { CelebrityRegistry, FeedSlice, FeedWindow, OutboxStore } from '../../ports/feed-store.js';
import { inboxQualifier, userKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, feedCell, feedSlice, newerThanFilter, postKeyOf } from './cells.js';

const column = (qualifier: Uint8Array) => concatBytes('o:', qualifier);

export class HBaseOutboxStore implements OutboxStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'outbox');
  }

  async add(author: string, entry: FeedEntry): Promise<void> {
    const cell = feedCell('o', entry);
    if (cell) await this.client.put(this.table, [{ key: userKey(author), cells: [cell] }]);
  }

  async remove(author: string, postId: string): Promise<void> {
    const post = keyFromPostId(postId);
    if (post) await this.client.deleteColumn(this.table, userKey(author), column(inboxQualifier(post)));
  }

  async recent(author: string, limit: number): Promise<FeedEntry[]> {
    const row = await this.client.getRow(this.table, userKey(author), { columns: ['o'] });
    const { entries, reposts } = feedSlice(
      (row?.cells ?? []).filter((c) => c.family === 'o'),
      { limit },
    );
    return entries.map((id) => (reposts?.[id] ? { id, repostOf: reposts[id] } : { id }));
  }

  async recentOf(authors: string[], window: FeedWindow): Promise<FeedSlice> {
    if (authors.length === 0) return { entries: [], more: false };
    const rows = await this.client.multiGet(this.table, [...new Set(authors)].map(userKey), { columns: ['o'] });
    const slices = rows.map((r) =>
      feedSlice(
        r.cells.filter((c) => c.family === 'o'),
        window,
      ),
    );
    const reposts: Record<string, string> = Object.assign({}, ...slices.map((x) => x.reposts));
    const slice = { entries: slices.flatMap((x) => x.entries), more: slices.some((x) => x.more) };
    return Object.keys(reposts).length > 0 ? { ...slice, reposts } : slice;
  }

  async windowOf(author: string, window: FeedWindow): Promise<FeedSlice & { held: number }> {
    const row = await this.client.getRow(this.table, userKey(author), { columns: ['o'] });
    const cells = (row?.cells ?? []).filter((c) => c.family === 'o');
    return { ...feedSlice(cells, window), held: cells.length };
  }

  async newerOf(authors: string[], than: string, limit: number): Promise<FeedSlice> {
    if (authors.length === 0) return { entries: [], more: false };
    // The same filter as the inbox's newer check, per row: keys only, limit + 1 to tell "more".
    const filter = newerThanFilter('o', postKeyOf(than), limit + 1);
    const rows = await this.client.multiGet(this.table, [...new Set(authors)].map(userKey), { columns: ['o'], filter });
    const slices = rows.map((r) =>
      feedSlice(
        r.cells.filter((c) => c.family === 'o'),
        { limit },
      ),
    );
    return { entries: slices.flatMap((x) => x.entries), more: slices.some((x) => x.more) };
  }
}

export class HBaseCelebrityRegistry implements CelebrityRegistry {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'users');
  }

  async isCelebrity(author: string): Promise<boolean> {
    const row = await this.client.getRow(this.table, userKey(author), { columns: ['p:celeb'] });
    return cellText(row, 'p:celeb') === '1';
  }

  async setCelebrity(author: string, celebrity: boolean): Promise<void> {
    // Overwritten, never deleted: a delete marker could mask a promotion in the same millisecond.
    await this.client.put(this.table, [
      { key: userKey(author), cells: [{ column: 'p:celeb', value: celebrity ? '1' : '0' }] },
    ]);
  }
}
