// shared/adapters/hbase/list-index.ts — the newest-first list index (tables.ts, lists) that the
// relation, reaction and block adapters keep beside their edges, inside the methods that write
// and remove those edges (invariant K in docs/consistency.md).
import { bytesToString, type HBaseRestClient } from '../../hbase/index.js';
import type { ListPage, ListPosition } from '../../ports/feed-store.js';
import type { BookmarkPosition } from '../../ports/reaction-store.js';
import {
  listKeyAt,
  listPrefix,
  listRowKey,
  parseBookmarkRowKey,
  parseFollowListRowKey,
  parseListRowKey,
  type ListKind,
} from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';

const ENTRY = 'e:t';

/** One list entry: in `owner`'s list of `kind`, the user `other`, since `since`. */
export interface ListEntry {
  owner: string;
  kind: ListKind;
  since: number;
  other: string;
}

const rowKey = (e: ListEntry) => listRowKey(e.owner, e.kind, e.since, e.other);

export class ListIndex {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'lists');
  }

  /** One multi-row put (idempotent: the key is the entry). */
  async put(entries: ListEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.client.put(
      this.table,
      entries.map((e) => ({ key: rowKey(e), cells: [{ column: ENTRY, value: '' }] })),
    );
  }

  /** One DELETE per entry, in parallel (REST has no multi-row delete). Only that since's entry goes. */
  async remove(entries: ListEntry[]): Promise<void> {
    await Promise.all(entries.map((e) => this.client.deleteRow(this.table, rowKey(e))));
  }

  /**
   * Up to `limit` entries of `owner`'s list of `kind`, newest first, strictly after `after`: ONE
   * stateless scan of limit + 1 rows (the extra row says whether the list goes on). Entries are
   * returned as stored: the caller confirms them against the edge.
   */
  async page(
    owner: string,
    kind: ListKind,
    limit: number,
    after?: ListPosition,
  ): Promise<ListPage<{ handle: string; since: number }>> {
    const { items, more } = await this.rows(
      owner,
      kind,
      limit,
      after && { since: after.since, other: after.handle },
      parseListRowKey,
    );
    const last = items.at(-1);
    return more && last ? { items, next: { since: last.since, handle: last.handle } } : { items };
  }

  /** `owner`'s bookmarks (kind 'K', the other a post id), as `page` reads a list. */
  async bookmarkPage(
    owner: string,
    limit: number,
    after?: BookmarkPosition,
  ): Promise<{ items: BookmarkPosition[]; next?: BookmarkPosition }> {
    const { items, more } = await this.rows(
      owner,
      'K',
      limit,
      after && { since: after.since, other: after.postId },
      parseBookmarkRowKey,
    );
    const last = items.at(-1);
    return more && last ? { items, next: last } : { items };
  }

  /** ONE stateless scan of limit + 1 rows strictly after `after` (the extra row says whether the list goes on). */
  private async rows<T>(
    owner: string,
    kind: ListKind,
    limit: number,
    after: { since: number; other: string } | undefined,
    parse: (prefix: string, key: string) => T | null,
  ): Promise<{ items: T[]; more: boolean }> {
    const prefix = listPrefix(owner, kind);
    // ' ' sorts below every character of a key, so cursor row + ' ' is the first row after it.
    const startRow = after ? `${listRowKey(owner, kind, after.since, after.other)} ` : undefined;
    const rows = await this.client.scanText(this.table, {
      prefix,
      ...(startRow ? { startRow } : {}),
      limit: limit + 1,
      columns: [ENTRY],
    });
    const items: T[] = [];
    for (const row of rows.slice(0, limit)) {
      const entry = parse(prefix, bytesToString(row.key));
      if (entry) items.push(entry);
    }
    return { items, more: rows.length > limit };
  }

  /**
   * Follow edges from the rows at `at` of the key space on: ONE stateless scan of `limit` rows,
   * kept within the first salt character (the scan needs a prefix) so it never walks far. Other
   * kinds' rows in the run are skipped; rows are as stored (a stale one may be among them).
   */
  async followSample(at: number, limit: number): Promise<{ follower: string; followee: string; since: number }[]> {
    const start = listKeyAt(at);
    const rows = await this.client.scanText(this.table, {
      prefix: start.slice(0, 1),
      startRow: start,
      limit,
      columns: [ENTRY],
    });
    return rows.flatMap((row) => parseFollowListRowKey(bytesToString(row.key)) ?? []);
  }
}
