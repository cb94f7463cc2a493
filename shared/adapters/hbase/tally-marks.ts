// shared/adapters/hbase/tally-marks.ts — CountTally on HBase, for every table that keeps exact
// counts in a `c` family (users, content): the tally family `t` of the same row, so a count and
// its fact's mark move in ONE atomic Increment. Layout: shared/schema/tables.ts (TALLY_DESIGN).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { CountTally } from '../../ports/feed-store.js';
import { TALLY_FAMILY } from '../../schema/tables.js';
import { cellText, cellValue } from './cells.js';

/** The qualifier of a fact's mark in one direction; its claim adds `.c`. No ':' (cells.ts splits on it). */
const markOf = (counter: string, fact: string, sign: 1 | -1) =>
  `${TALLY_FAMILY}:${counter}.${fact}.${sign > 0 ? '+' : '-'}`;
const claimOf = (counter: string, fact: string, sign: 1 | -1) => `${markOf(counter, fact, sign)}.c`;

export class HBaseTallyMarks<C extends string> implements CountTally<C> {
  constructor(
    private readonly client: HBaseRestClient,
    private readonly table: string,
    /** The row a counted id lives in (null: no such row can exist, e.g. a malformed post id). */
    private readonly rowKey: (id: string) => Uint8Array | null,
    /** The count's column in that row. */
    private readonly countColumn: (counter: C) => string,
  ) {}

  /** One Increment of the row: the count, and the fact's mark in that direction when given. */
  async add(id: string, counter: C, delta: number, fact?: string): Promise<void> {
    const key = this.rowKey(id);
    if (!key || delta === 0) return;
    const sign = delta > 0 ? 1 : -1;
    await this.client.incrementCells(this.table, key, [
      { column: this.countColumn(counter), amount: delta },
      ...(fact === undefined ? [] : [{ column: markOf(counter, fact, sign), amount: 1 }]),
    ]);
  }

  async tallied(id: string, counter: C, fact: string): Promise<{ added: boolean; removed: boolean }> {
    const key = this.rowKey(id);
    if (!key) return { added: false, removed: false };
    const [plus, minus] = [markOf(counter, fact, 1), markOf(counter, fact, -1)];
    const row = await this.client.getRow(this.table, key, { columns: [plus, minus] });
    return { added: cellValue(row, plus) !== undefined, removed: cellValue(row, minus) !== undefined };
  }

  async claim(id: string, counter: C, fact: string, sign: 1 | -1, now: number, staleBefore: number): Promise<boolean> {
    const key = this.rowKey(id);
    if (!key) return false;
    const column = claimOf(counter, fact, sign);
    const put = [{ column, value: String(now) }];
    if (await this.client.checkAndPut(this.table, key, put, { column, value: null })) return true;
    // Taken: a claim older than `staleBefore` belongs to a delivery that has timed out; take it
    // over with check-and-put on the value read, so of racing takers exactly one wins.
    const held = cellText(await this.client.getRow(this.table, key, { columns: [column] }), column);
    if (held === undefined || !(Number(held) < staleBefore)) return false;
    return this.client.checkAndPut(this.table, key, put, { column, value: held });
  }
}
