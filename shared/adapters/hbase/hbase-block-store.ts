// shared/adapters/hbase/hbase-block-store.ts — BlockStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (blocks, and lists for the newest-first
// blocked / muted lists).
import { bytesToString, type HBaseRestClient } from '../../hbase/index.js';
import type { ListPage, ListPosition } from '../../ports/feed-store.js';
import type { SafetyEdge } from '../../domain/visibility.js';
import type { BlockEdge, BlockKind, BlockStore } from '../../ports/social-store.js';
import { blockKey, blockPrefix, handleFromKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellValue } from './cells.js';
import { ListIndex } from './list-index.js';

const SINCE = 'e:t';
const KIND = { block: 'B', mute: 'M' } as const;
/** The reverse kinds: in the blocked (muted) user's lists, who blocks (mutes) them — read only by the erasure. */
const AGAINST = { block: 'b', mute: 'm' } as const;

/** The entries beside an edge: the blocker's list entry, and the reverse one in the other user's (one multi-row put). */
const listed = (kind: BlockKind, from: string, to: string, since: number) => [
  { owner: from, kind: KIND[kind], since, other: to },
  { owner: to, kind: AGAINST[kind], since, other: from },
];

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export class HBaseBlockStore implements BlockStore {
  private readonly table: string;
  private readonly lists: ListIndex;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'blocks');
    this.lists = new ListIndex(client, namespace);
  }

  async add(kind: BlockKind, from: string, to: string, at: number): Promise<boolean> {
    const key = blockKey(from, KIND[kind], to);
    const entry = listed(kind, from, to, at);
    // The list entry first: no step rebuilds it later (blocks have no settle), so it must never
    // be missing; one left stale by a crash before the edge is skipped when the list is read.
    await this.lists.put(entry);
    if (
      await this.client.checkAndPut(this.table, key, [{ column: SINCE, value: String(at) }], {
        column: SINCE,
        value: null,
      })
    )
      return true;
    // A repeat: our entry goes unless the edge holds our since (a racing add in the same
    // millisecond wrote the same entry and won).
    if ((await this.since(key)) !== at) await this.lists.remove(entry);
    return false;
  }

  async remove(kind: BlockKind, from: string, to: string): Promise<boolean> {
    const key = blockKey(from, KIND[kind], to);
    const since = cellValue(await this.client.getRow(this.table, key, { columns: [SINCE] }), SINCE);
    if (since === undefined) return false;
    // On the since read: a block written again after the read (unblock → block) survives.
    if (!(await this.client.checkAndDelete(this.table, key, { column: SINCE, value: since }))) return false;
    // Then the entry of that since (a later block's entry has its own since in its key).
    const at = Number(bytesToString(since));
    if (Number.isSafeInteger(at)) await this.lists.remove(listed(kind, from, to, at));
    return true;
  }

  private async since(key: Uint8Array): Promise<number | null> {
    const value = cellValue(await this.client.getRow(this.table, key, { columns: [SINCE] }), SINCE);
    const since = value === undefined ? NaN : Number(bytesToString(value));
    return Number.isSafeInteger(since) ? since : null;
  }

  async has(kind: BlockKind, from: string, to: string): Promise<boolean> {
    return (await this.client.getRow(this.table, blockKey(from, KIND[kind], to), { columns: [SINCE] })) !== null;
  }

  list(kind: BlockKind, from: string, limit: number, after?: ListPosition): Promise<ListPage<BlockEdge>> {
    return this.lists.page(from, KIND[kind], limit, after);
  }

  async sinces(kind: BlockKind, from: string, others: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (others.length === 0) return out;
    const prefix = blockPrefix(from, KIND[kind]);
    for (const row of await this.client.multiGet(
      this.table,
      others.map((o) => blockKey(from, KIND[kind], o)),
      { columns: [SINCE] },
    )) {
      const value = cellValue(row, SINCE);
      const since = value === undefined ? NaN : Number(bytesToString(value));
      if (Number.isSafeInteger(since)) out.set(handleFromKey(row.key, prefix.length).handle, since);
    }
    return out;
  }

  async eitherBlocks(a: string, b: string): Promise<boolean> {
    const rows = await this.client.multiGet(this.table, [blockKey(a, 'B', b), blockKey(b, 'B', a)], {
      columns: [SINCE],
    });
    return rows.length > 0;
  }

  async existing(edges: SafetyEdge[]): Promise<SafetyEdge[]> {
    if (edges.length === 0) return [];
    const byRow = new Map(edges.map((e) => [hex(blockKey(e.from, KIND[e.kind], e.to)), e]));
    const keys = [...byRow.keys()].map((k) => Uint8Array.from(Buffer.from(k, 'hex')));
    // ONE multi-get for every edge asked; the server answers only the rows that exist.
    const rows = await this.client.multiGet(this.table, keys, { columns: [SINCE] });
    return rows.flatMap((row) => byRow.get(hex(row.key)) ?? []);
  }
}
