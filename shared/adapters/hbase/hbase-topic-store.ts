// shared/adapters/hbase/hbase-topic-store.ts — TopicStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (topics, trends).
import { bytesToString, decodeLong, type HBaseRestClient } from '../../hbase/index.js';
import type { Page } from '../../ports/feed-store.js';
import type { TopicStore } from '../../ports/social-store.js';
import {
  postIdOfTopicKey,
  topicEntryKey,
  topicNameKey,
  topicNameOfKey,
  topicPrefix,
  TREND_SHARDS,
  trendKey,
  trendShardOf,
} from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';

export class HBaseTopicStore implements TopicStore {
  private readonly topics: string;
  private readonly trends: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.topics = qualifiedTableName(namespace, 'topics');
    this.trends = qualifiedTableName(namespace, 'trends');
  }

  async add(postId: string, _createdAt: number, topics: string[], trendBucket: number | null): Promise<void> {
    if (topics.length === 0) return;
    await Promise.all([
      this.client.put(
        this.topics,
        // The post's entries and its topics' name rows (their keeping time starts again): one put.
        topics.flatMap((name) => [
          { key: topicEntryKey(name, postId), cells: [{ column: 't:a', value: '' }] },
          { key: topicNameKey(name), cells: [{ column: 't:a', value: '' }] },
        ]),
      ),
      // One increment per topic (≤ MAX_TOPICS): bounded work per post. Not idempotent: a
      // replayed publish never reaches here (only the request that created the post does).
      ...(trendBucket === null
        ? []
        : topics.map((name) =>
            this.client.increment(this.trends, trendKey(trendShardOf(name), trendBucket), `n:${name}`, 1),
          )),
    ]);
  }

  async remove(postId: string, topics: string[]): Promise<void> {
    await Promise.all(topics.map((name) => this.client.deleteRow(this.topics, topicEntryKey(name, postId))));
  }

  async posts(topic: string, limit: number, cursor?: string): Promise<Page<string>> {
    // ONE stateless scan of limit + 1 rows (text keys): the extra row says whether the topic goes
    // on. ' ' sorts below every character of a key, so the cursor's row + ' ' is the next row.
    const prefix = topicPrefix(topic);
    const startRow = cursor === undefined ? undefined : `${topicEntryKey(topic, cursor)} `;
    const rows = await this.client.scanText(this.topics, {
      prefix,
      ...(startRow ? { startRow } : {}),
      limit: limit + 1,
      columns: ['t:a'],
    });
    const items: string[] = [];
    for (const row of rows.slice(0, limit)) {
      const id = postIdOfTopicKey(prefix, bytesToString(row.key));
      if (id) items.push(id);
    }
    const last = items.at(-1);
    return rows.length > limit && last ? { items, nextCursor: last } : { items };
  }

  async named(prefix: string, limit: number): Promise<string[]> {
    // ONE stateless scan of the name rows the prefix starts ('#' + prefix…, text keys).
    const rows = await this.client.scanText(this.topics, { prefix: topicNameKey(prefix), limit, columns: ['t:a'] });
    return rows.flatMap((row) => {
      const name = topicNameOfKey(bytesToString(row.key));
      return name === null ? [] : [name];
    });
  }

  async trendCounts(buckets: number[]): Promise<Map<string, number>> {
    const keys = buckets.flatMap((b) => Array.from({ length: TREND_SHARDS }, (_, s) => trendKey(s, b)));
    const sums = new Map<string, number>();
    if (keys.length === 0) return sums;
    // ONE multi-get of every shard of every bucket asked (12 × 8 = 96 rows for the hour).
    for (const row of await this.client.multiGet(this.trends, keys, { columns: ['n'] })) {
      for (const cell of row.cells) {
        if (cell.value.length !== 8) continue;
        const name = bytesToString(cell.qualifier);
        sums.set(name, (sums.get(name) ?? 0) + Number(decodeLong(cell.value)));
      }
    }
    return sums;
  }
}
