// shared/domain/trending.ts — what "trending" means (a product rule; no storage here): posts per
// topic counted in five-minute buckets of their creation time, summed over the last hour, the
// topics with the most posts first (ties by name, so the order never flickers), the top ten.
import { TRENDING_TOPICS, TRENDING_WINDOW_MS, TREND_BUCKET_MS } from './limits.js';

export interface TrendingTopic {
  name: string;
  posts: number;
}

/** The bucket a post created at `at` is counted in. */
export const trendBucketOf = (at: number): number => Math.floor(at / TREND_BUCKET_MS);

/**
 * The buckets the window ending at `now` sums, oldest first: the current bucket and the ones
 * before it, as many as the window spans (at least one). A deleted post stays counted until its
 * bucket leaves the window.
 */
export function bucketsOfWindow(now: number, windowMs = TRENDING_WINDOW_MS): number[] {
  const newest = trendBucketOf(now);
  const count = Math.max(1, Math.ceil(windowMs / TREND_BUCKET_MS));
  return Array.from({ length: count }, (_, i) => newest - count + 1 + i);
}

/** The ranking: topics with at least one post, most posts first, ties by name (code units), the top `limit`. */
export function rankTrending(counts: ReadonlyMap<string, number>, limit = TRENDING_TOPICS): TrendingTopic[] {
  return [...counts]
    .filter(([, posts]) => posts > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([name, posts]) => ({ name, posts }));
}
