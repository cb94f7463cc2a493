// shared/adapters/hbase/hbase-outbox-store.ts — OutboxStore and CelebrityRegistry on HBase
// (secondary adapters). Layout: shared/schema/tables.ts (outbox; users p:celeb).
import { keyFromPostId, postIdFromKey } from '../../domain/post.js';
import { concatBytes, type HBaseRestClient } from '../../hbase/index.js';
import type { CelebrityRegistry, FeedSlice, FeedWindow, OutboxStore } from '../../ports/feed-store.js';
import { inboxQualifier, postKeyFromInboxQualifier, userKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, feedSlice } from './cells.js';

const EMPTY = new Uint8Array(0);

/** The post id of an outbox cell; none for a qualifier that is not ours (skipped, never fatal). */
function postIdOf(cell: { family: string; qualifier: Uint8Array }): string[] {
  if (cell.family !== 'o') return [];
  try {
    return [postIdFromKey(postKeyFromInboxQualifier(cell.qualifier))];
  } catch {
    return [];
  }
}
const column = (qualifier: Uint8Array) => concatBytes('o:', qualifier);

export class HBaseOutboxStore implements OutboxStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'outbox');
  }

  async add(author: string, postId: string): Promise<void> {
    const post = keyFromPostId(postId);
    if (!post) return;
    await this.client.put(this.table, [{ key: userKey(author), cells: [{ column: column(inboxQualifier(post)), value: EMPTY }] }]);
  }

  async remove(author: string, postId: string): Promise<void> {
    const post = keyFromPostId(postId);
    if (post) await this.client.deleteColumn(this.table, userKey(author), column(inboxQualifier(post)));
  }

  async recent(author: string, limit: number): Promise<string[]> {
    const row = await this.client.getRow(this.table, userKey(author), { columns: ['o'] });
    return (row?.cells ?? []).slice(0, limit).flatMap(postIdOf);
  }

  async recentOf(authors: string[], window: FeedWindow): Promise<FeedSlice> {
    if (authors.length === 0) return { entries: [], more: false };
    const rows = await this.client.multiGet(this.table, [...new Set(authors)].map(userKey), { columns: ['o'] });
    const slices = rows.map((r) => feedSlice(r.cells.filter((c) => c.family === 'o'), window));
    return { entries: slices.flatMap((x) => x.entries), more: slices.some((x) => x.more) };
  }
}

export class HBaseCelebrityRegistry implements CelebrityRegistry {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'users');
  }

  async isCelebrity(author: string): Promise<boolean> {
    const row = await this.client.getRow(this.table, userKey(author), { columns: ['p:celeb'] });
    return cellText(row, 'p:celeb') === '1';
  }

  async setCelebrity(author: string, celebrity: boolean): Promise<void> {
    // Overwritten, never deleted: a delete marker could mask a promotion in the same millisecond.
    await this.client.put(this.table, [{ key: userKey(author), cells: [{ column: 'p:celeb', value: celebrity ? '1' : '0' }] }]);
  }
}
