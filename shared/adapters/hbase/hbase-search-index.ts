// shared/adapters/hbase/hbase-search-index.ts — PostSearchIndex on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (search).
import { bytesToString, type HBaseRestClient } from '../../hbase/index.js';
import type { Page } from '../../ports/feed-store.js';
import type { PostSearchIndex } from '../../ports/search-index.js';
import { postIdOfSearchKey, searchEntryKey, searchPrefix } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { forEachLimit } from '../../runtime/concurrency.js';

/** Entry deletes in flight at once for one post. */
const REMOVE_PARALLEL = 16;

export class HBaseSearchIndex implements PostSearchIndex {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'search');
  }

  async add(postId: string, terms: readonly string[]): Promise<void> {
    // ONE batched put of every entry (each row is atomic; a cut put leaves some, and the post
    // row, written after it, does not exist yet: invariant V).
    await this.client.put(
      this.table,
      terms.map((term) => ({ key: searchEntryKey(term, postId), cells: [{ column: 's:a', value: '' }] })),
    );
  }

  async remove(postId: string, terms: readonly string[]): Promise<void> {
    // The gateway deletes one row per request: side by side, a few at a time.
    await forEachLimit([...terms], REMOVE_PARALLEL, (term) =>
      this.client.deleteRow(this.table, searchEntryKey(term, postId)),
    );
  }

  async posts(term: string, limit: number, after?: string): Promise<Page<string>> {
    // ONE stateless scan of limit + 1 rows (text keys); ' ' sorts below every character of a
    // key, so the cursor's row + ' ' is the next row.
    const prefix = searchPrefix(term);
    const rows = await this.client.scanText(this.table, {
      prefix,
      ...(after === undefined ? {} : { startRow: `${searchEntryKey(term, after)} ` }),
      limit: limit + 1,
      columns: ['s:a'],
    });
    const items: string[] = [];
    for (const row of rows.slice(0, limit)) {
      const id = postIdOfSearchKey(prefix, bytesToString(row.key));
      if (id) items.push(id);
    }
    const last = items.at(-1);
    return rows.length > limit && last ? { items, nextCursor: last } : { items };
  }
}
