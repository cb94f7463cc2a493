// shared/adapters/hbase/hbase-counter-store.ts — CounterStore on HBase (secondary adapter): the
// c: family of users. Layout and access patterns: shared/schema/tables.ts (users).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { CounterStore, UserCounter } from '../../ports/feed-store.js';
import { userKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { counter } from './cells.js';
import { HBaseTallyMarks } from './tally-marks.js';

export class HBaseCounterStore implements CounterStore {
  private readonly table: string;
  private readonly tally: HBaseTallyMarks<UserCounter>;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'users');
    this.tally = new HBaseTallyMarks(
      client,
      this.table,
      (user) => userKey(user),
      (name) => `c:${name}`,
    );
  }

  /**
   * Server-side increment: concurrent follows and posts are all counted, none lost to a
   * read-modify-write race; with a fact, its tally mark in the same row mutation.
   */
  add(user: string, name: UserCounter, delta: number, fact?: string): Promise<void> {
    return this.tally.add(user, name, delta, fact);
  }

  tallied(user: string, name: UserCounter, fact: string) {
    return this.tally.tallied(user, name, fact);
  }

  claim(user: string, name: UserCounter, fact: string, sign: 1 | -1, now: number, staleBefore: number) {
    return this.tally.claim(user, name, fact, sign, now, staleBefore);
  }

  async get(user: string, name: UserCounter): Promise<number> {
    const column = `c:${name}`;
    return counter(await this.client.getRow(this.table, userKey(user), { columns: [column] }), column);
  }
}
