// shared/adapters/hbase/hbase-block-store.ts — BlockStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (blocks).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { Page } from '../../ports/feed-store.js';
import type { SafetyEdge } from '../../domain/visibility.js';
import type { BlockEdge, BlockKind, BlockStore } from '../../ports/social-store.js';
import { blockKey, blockPrefix } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellValue, edgePage } from './cells.js';

const SINCE = 'e:t';
const KIND = { block: 'B', mute: 'M' } as const;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export class HBaseBlockStore implements BlockStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'blocks');
  }

  add(kind: BlockKind, from: string, to: string, at: number): Promise<boolean> {
    return this.client.checkAndPut(this.table, blockKey(from, KIND[kind], to), [{ column: SINCE, value: String(at) }], { column: SINCE, value: null });
  }

  async remove(kind: BlockKind, from: string, to: string): Promise<boolean> {
    const key = blockKey(from, KIND[kind], to);
    const since = cellValue(await this.client.getRow(this.table, key, { columns: [SINCE] }), SINCE);
    if (since === undefined) return false;
    // On the since read: a block written again after the read (unblock → block) survives.
    return this.client.checkAndDelete(this.table, key, { column: SINCE, value: since });
  }

  async has(kind: BlockKind, from: string, to: string): Promise<boolean> {
    return (await this.client.getRow(this.table, blockKey(from, KIND[kind], to), { columns: [SINCE] })) !== null;
  }

  list(kind: BlockKind, from: string, limit: number, cursor?: string): Promise<Page<BlockEdge>> {
    return edgePage(this.client, this.table, blockPrefix(from, KIND[kind]), SINCE, limit, cursor);
  }

  async eitherBlocks(a: string, b: string): Promise<boolean> {
    const rows = await this.client.multiGet(this.table, [blockKey(a, 'B', b), blockKey(b, 'B', a)], { columns: [SINCE] });
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
