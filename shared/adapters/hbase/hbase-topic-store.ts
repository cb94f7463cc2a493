// shared/adapters/hbase/hbase-topic-store.ts — TopicStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (topics, trends).
import { createHash } from 'node:crypto';
import { postIdFromKey } from '../../schema/row-keys.js';
import { bytesToString, decodeLong, type HBaseRestClient } from '../../hbase/index.js';
import type { Page } from '../../ports/feed-store.js';
import type { TopicStore } from '../../ports/social-store.js';
import { keyAfter, REV_TS_BYTES, topicEntryKey, topicPrefix, trendKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { postKeyOf } from './cells.js';

/** Trend counters are bucketed by five minutes… */
export const TREND_BUCKET_MS = 5 * 60_000;
/** …and spread over this many rows per bucket, so no single row takes every post's increment. */
export const TREND_SHARDS = 8;

const shardOf = (name: string) => createHash('md5').update(name).digest()[0]! % TREND_SHARDS;

export class HBaseTopicStore implements TopicStore {
  private readonly topics: string;
  private readonly trends: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.topics = qualifiedTableName(namespace, 'topics');
    this.trends = qualifiedTableName(namespace, 'trends');
  }

  async add(postId: string, createdAt: number, topics: string[]): Promise<void> {
    if (topics.length === 0) return;
    const post = postKeyOf(postId);
    const bucket = Math.floor(createdAt / TREND_BUCKET_MS);
    await Promise.all([
      this.client.put(this.topics, topics.map((name) => ({ key: topicEntryKey(name, post), cells: [{ column: 't:a', value: '' }] }))),
      // One increment per topic (≤ MAX_TOPICS): bounded work per post. Not idempotent: a
      // replayed publish never reaches here (only the request that created the post does).
      ...topics.map((name) => this.client.increment(this.trends, trendKey(bucket, shardOf(name)), `n:${name}`, 1)),
    ]);
  }

  async remove(postId: string, topics: string[]): Promise<void> {
    const post = postKeyOf(postId);
    await Promise.all(topics.map((name) => this.client.deleteRow(this.topics, topicEntryKey(name, post))));
  }

  async posts(topic: string, limit: number, cursor?: string): Promise<Page<string>> {
    const prefix = topicPrefix(topic);
    const startRow = cursor === undefined ? undefined : keyAfter(topicEntryKey(topic, postKeyOf(cursor)));
    const items: string[] = [];
    let more = false;
    for await (const row of this.client.scan(this.topics, { prefix, ...(startRow ? { startRow } : {}), limit: limit + 1, columns: ['t:a'], pageSize: limit + 1 })) {
      if (items.length === limit) {
        more = true;
        break;
      }
      try {
        items.push(postIdFromKey(row.key.subarray(prefix.length + REV_TS_BYTES)));
      } catch {
        // not an entry of ours: skipped
      }
    }
    const last = items.at(-1);
    return more && last ? { items, nextCursor: last } : { items };
  }

  async trending(now: number, windowMs: number, limit: number): Promise<{ name: string; posts: number }[]> {
    const newest = Math.floor(now / TREND_BUCKET_MS);
    const buckets = Math.max(1, Math.ceil(windowMs / TREND_BUCKET_MS));
    const keys: Uint8Array[] = [];
    for (let b = newest - buckets + 1; b <= newest; b++) for (let s = 0; s < TREND_SHARDS; s++) keys.push(trendKey(b, s));
    const sums = new Map<string, number>();
    for (const row of await this.client.multiGet(this.trends, keys, { columns: ['n'] })) {
      for (const cell of row.cells) {
        if (cell.value.length !== 8) continue;
        const name = bytesToString(cell.qualifier);
        sums.set(name, (sums.get(name) ?? 0) + Number(decodeLong(cell.value)));
      }
    }
    return [...sums]
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([name, posts]) => ({ name, posts }));
  }
}
