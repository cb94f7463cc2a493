// shared/adapters/hbase/hbase-hot-store.ts — HotStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (hot).
import * as z from 'zod';
import { bytesToString, type HBaseRestClient } from '../../hbase/index.js';
import { hotBucketOf, type Engagement, type HotRanking } from '../../domain/hot.js';
import type { HotStore } from '../../ports/hot-store.js';
import {
  HOT_RANKING_KEY,
  HOT_SHARDS,
  hotEngagementKey,
  hotEngagementQualifier,
  hotShardOf,
  parseHotEngagementQualifier,
} from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';

/** The ranking cell as stored (it crossed storage: checked, never trusted). */
const StoredRanking = z.object({
  rankedAt: z.number(),
  posts: z.array(z.object({ id: z.string(), score: z.number(), people: z.number() })),
});

export class HBaseHotStore implements HotStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'hot');
  }

  async engaged({ postId, handle, at }: Engagement): Promise<void> {
    // ONE put of one cell, stamped with the engagement's time: of a person's engagements with the
    // post in this hour, a read sees the newest (and the TTL runs from it).
    await this.client.put(this.table, [
      {
        key: hotEngagementKey(hotShardOf(postId), hotBucketOf(at)),
        cells: [{ column: `e:${hotEngagementQualifier(postId, handle)}`, value: '', timestamp: at }],
      },
    ]);
  }

  async engagements(buckets: readonly number[]): Promise<Engagement[]> {
    const keys = buckets.flatMap((b) => Array.from({ length: HOT_SHARDS }, (_, s) => hotEngagementKey(s, b)));
    const out: Engagement[] = [];
    // ONE multi-get of every shard of every bucket asked (sent in chunks side by side).
    for (const row of await this.client.multiGet(this.table, keys, { columns: ['e'] })) {
      for (const cell of row.cells) {
        const parsed = parseHotEngagementQualifier(bytesToString(cell.qualifier));
        if (parsed) out.push({ ...parsed, at: cell.timestamp });
      }
    }
    return out;
  }

  async saveRanking(ranking: HotRanking): Promise<void> {
    await this.client.put(this.table, [
      { key: HOT_RANKING_KEY, cells: [{ column: 'r:a', value: JSON.stringify(ranking) }] },
    ]);
  }

  async ranking(): Promise<HotRanking | null> {
    const row = await this.client.getRow(this.table, HOT_RANKING_KEY, { columns: ['r:a'] });
    const cell = row?.cells[0];
    if (!cell) return null;
    try {
      const parsed = StoredRanking.safeParse(JSON.parse(bytesToString(cell.value)));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
