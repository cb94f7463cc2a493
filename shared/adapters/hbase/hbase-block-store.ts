// shared/adapters/hbase/hbase-block-store.ts — BlockStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (blocks).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { Page } from '../../ports/feed-store.js';
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

  async hiddenFrom(reader: string, others: string[]): Promise<Set<string>> {
    const pairs = await this.separated(others.map((other) => ({ viewer: reader, other })));
    return new Set(pairs.map((p) => p.other));
  }

  async silencing(actor: string, recipients: string[]): Promise<Set<string>> {
    const pairs = await this.separated(recipients.map((viewer) => ({ viewer, other: actor })));
    return new Set(pairs.map((p) => p.viewer));
  }

  /**
   * The pairs in which `viewer` must not see `other`: the viewer blocks or mutes them, or they
   * block the viewer (a mute is one-sided: the muted user notices nothing). Three rows a pair,
   * ONE multi-get for all of them.
   */
  private async separated(pairs: { viewer: string; other: string }[]): Promise<{ viewer: string; other: string }[]> {
    const unique = new Map(pairs.filter((p) => p.viewer !== p.other).map((p) => [`${p.viewer}>${p.other}`, p]));
    if (unique.size === 0) return [];
    const byRow = new Map<string, { viewer: string; other: string }>();
    for (const p of unique.values()) {
      for (const key of [blockKey(p.viewer, 'B', p.other), blockKey(p.viewer, 'M', p.other), blockKey(p.other, 'B', p.viewer)]) byRow.set(hex(key), p);
    }
    const keys = [...byRow.keys()].map((k) => Uint8Array.from(Buffer.from(k, 'hex')));
    const rows = await this.client.multiGet(this.table, keys, { columns: [SINCE] });
    return [...new Set(rows.flatMap((row) => byRow.get(hex(row.key)) ?? []))];
  }
}
