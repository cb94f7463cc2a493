// shared/adapters/hbase/hbase-counter-store.ts — CounterStore on HBase (secondary adapter): the
// c: family of users. Layout and access patterns: shared/schema/tables.ts (users).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { CounterStore } from '../../ports/feed-store.js';
import { userKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { counter } from './cells.js';

type CounterName = 'followers' | 'following' | 'posts';

export class HBaseCounterStore implements CounterStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'users');
  }

  async add(user: string, name: CounterName, delta: number): Promise<void> {
    // Server-side increment: concurrent follows and posts are all counted, none lost to a
    // read-modify-write race.
    if (delta !== 0) await this.client.increment(this.table, userKey(user), `c:${name}`, delta);
  }

  async get(user: string, name: CounterName): Promise<number> {
    const column = `c:${name}`;
    return counter(await this.client.getRow(this.table, userKey(user), { columns: [column] }), column);
  }
}
