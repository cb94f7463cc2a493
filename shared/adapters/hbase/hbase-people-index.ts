// shared/adapters/hbase/hbase-people-index.ts — PeopleIndex on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (people).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { PeopleEntry, PeopleIndex } from '../../ports/people-index.js';
import { parsePeopleKey, peopleKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';

export class HBasePeopleIndex implements PeopleIndex {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'people');
  }

  async add(handle: string, terms: string[], naming: string): Promise<void> {
    if (terms.length === 0) return;
    await this.client.put(
      this.table,
      terms.map((term) => ({ key: peopleKey(term, handle, naming), cells: [{ column: 'e:a', value: '' }] })),
    );
  }

  async remove(handle: string, terms: string[], naming: string): Promise<void> {
    await Promise.all(terms.map((term) => this.client.deleteRow(this.table, peopleKey(term, handle, naming))));
  }

  async find(prefix: string, bound: number): Promise<PeopleEntry[]> {
    // ONE stateless scan: the key is the term first, so the prefix's rows are one key range,
    // and 0x00 after a term puts the rows of the term equal to the prefix first.
    const rows = await this.client.scanText(this.table, { prefix, limit: bound, columns: ['e:a'] });
    return rows.flatMap((row) => {
      const entry = parsePeopleKey(row.key);
      return entry ? [entry] : [];
    });
  }
}
