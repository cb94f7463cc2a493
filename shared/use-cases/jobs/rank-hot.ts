// shared/use-cases/jobs/rank-hot.ts — ranks the hot feed (热门微博), every 5 minutes.
//
// Steps (one job step; there is nothing to continue from):
//   1. every engagement of the window: ONE multi-get of the last 49 hours × 8 shards of the hot
//      table (domain/hot.ts hotBucketsAt);
//   2. the ranking by domain/hot.ts (distinct people, half-life, post age, minimum), a few spare
//      beyond HOT_RANKED;
//   3. the candidates' posts in ONE content multi-get: deleted ones are dropped (the feed drops
//      them at read too, and accounts that left and what a reader blocked or muted);
//   4. ONE put of the ranking row, replaced whole.
// Work: O(E + P log P) for E engagement entries (distinct person × post × hour) of the last
// 48 hours over P posts, in memory E entries of ~60 bytes; a day of activity at 1 M engagements
// is ~1 M cells read in 392 row reads (chunked), the rest is HOT_RANKED + spare ids. It never
// scans the table: what ages out of the window is never read again, and expires (TTL).
// Idempotent: a second run at the same time writes the same ranking.
import * as z from 'zod';
import { HOT_RANKED, hotBucketsAt, rankEngagements, type HotRanking } from '../../domain/hot.js';
import { parsePostId } from '../../domain/post.js';
import type { PostStore } from '../../ports/feed-store.js';
import type { HotStore } from '../../ports/hot-store.js';
import type { JobDefinition } from './job-runner.js';

/** Candidates read beyond HOT_RANKED, to fill in for deleted posts (same round trip). */
const SPARE_CANDIDATES = 50;

export interface RankHotDeps {
  hot: HotStore;
  posts: Pick<PostStore, 'getMany'>;
}

export interface RankHotResult {
  /** Posts in the ranking written. */
  posts: number;
  /** Engagement entries read (distinct person × post × hour in the window). */
  engagements: number;
  /** Ranked candidates found deleted and left out. */
  dropped: number;
  ms: number;
  ranking: HotRanking;
}

const postFacts = (id: string) => {
  const parts = parsePostId(id);
  return parts ? { createdAt: parts.millis, author: parts.author } : null;
};

/** One ranking at `now`: read the window, rank, drop deleted posts, write. */
export async function rankHot(deps: RankHotDeps, now = Date.now()): Promise<RankHotResult> {
  const started = performance.now();
  const engagements = await deps.hot.engagements(hotBucketsAt(now));
  const candidates = rankEngagements(engagements, now, postFacts, HOT_RANKED + SPARE_CANDIDATES);
  const live = new Set(
    candidates.length === 0 ? [] : (await deps.posts.getMany(candidates.map((c) => c.id))).map((p) => p.id),
  );
  const ranking: HotRanking = {
    rankedAt: now,
    posts: candidates.filter((c) => live.has(c.id)).slice(0, HOT_RANKED),
  };
  await deps.hot.saveRanking(ranking);
  return {
    posts: ranking.posts.length,
    engagements: engagements.length,
    dropped: candidates.length - live.size,
    ms: performance.now() - started,
    ranking,
  };
}

export function rankHotJob(deps: RankHotDeps & { now?: () => number }): JobDefinition<Record<string, never>> {
  return {
    name: 'rank-hot',
    carry: z.strictObject({}) as z.ZodType<Record<string, never>>,
    // Scheduled every 5 minutes: a run never overlaps the next one.
    maxRunMs: 4 * 60_000,
    step: async () => {
      const r = await rankHot(deps, deps.now?.() ?? Date.now());
      return {
        done: true,
        stats: { seen: r.engagements, fixed: r.posts, dropped: r.dropped, ms: Math.round(r.ms) },
        notes: { top: r.ranking.posts.slice(0, 3).map((p) => p.id) },
      };
    },
  };
}
