// test/support/trending.ts — trending checks that hold whatever else the namespace holds.
// Trending is the top 10 topics of the last hour across the whole namespace, and in a full run
// other files leave topics of their own. So a test never assumes its topic leads: it reads the
// namespace's counts through the real store (the numbers the route ranks) and checks the route's
// answer against the domain's ranking of them (shared/domain/trending.ts). A test that needs its
// topics listed (the browser's click-through) publishes just enough posts to place them in the
// top 10 by those counts — computed, not raced against a leader.
import { expect } from 'vitest';
import { HBaseTopicStore } from '../../shared/adapters/hbase/hbase-topic-store.js';
import { bucketsOfWindow, rankTrending, type TrendingTopic } from '../../shared/domain/trending.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { apiClient } from './api.js';
import { TRENDING_TOPICS, TRENDING_WINDOW_MS } from '../../shared/domain/limits.js';

type Api = ReturnType<typeof apiClient>;

/** The namespace's posts per topic over the trending window ending now, as the route reads them. */
export async function trendCounts(
  hbaseRestUrl: string,
  namespace: string,
  now = Date.now(),
): Promise<Map<string, number>> {
  return new HBaseTopicStore(new HBaseRestClient({ baseUrl: hbaseRestUrl }), namespace).trendCounts(
    bucketsOfWindow(now, TRENDING_WINDOW_MS),
  );
}

/** What GET /topics/trending must answer for these counts. */
export const expectedTrending = (counts: Map<string, number>): TrendingTopic[] => rankTrending(counts, TRENDING_TOPICS);

/**
 * How many more posts carrying every one of `topics` place each of them in the top
 * TRENDING_TOPICS: one more than the count of the other topic that would otherwise be the
 * (TRENDING_TOPICS − topics.length + 1)-th, so at most TRENDING_TOPICS − topics.length others can
 * rank at or above them.
 */
export function postsToPlace(counts: Map<string, number>, topics: string[]): number {
  const others = rankTrending(new Map([...counts].filter(([name]) => !topics.includes(name))), Number.MAX_SAFE_INTEGER);
  const bar = (others[TRENDING_TOPICS - topics.length]?.posts ?? 0) + 1;
  return Math.max(0, ...topics.map((t) => bar - (counts.get(t) ?? 0)));
}

/** Publishes (from a fresh user) the posts `postsToPlace` asks for; returns how many. */
export async function placeInTrending(
  api: Api,
  hbaseRestUrl: string,
  namespace: string,
  topics: string[],
): Promise<number> {
  const count = postsToPlace(await trendCounts(hbaseRestUrl, namespace), topics);
  if (count === 0) return 0;
  const poster = await api.newUser('trend');
  const body = topics.map((t) => `#${t}#`).join(' ');
  for (let i = 0; i < count; i++) {
    const res = await api.call('POST', '/posts', { token: poster.token, body: { body } });
    expect(res.status).toBe(201);
  }
  return count;
}
