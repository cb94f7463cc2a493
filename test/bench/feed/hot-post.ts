// test/bench/feed/hot-post.ts — one hot post: N distinct users like it at once (bounded
// concurrency, the real likePost use case on the real adapters), then the post is read back.
// Every like is a put-if-absent on the liker's own reactions row (the truth), and only the
// winner increments c:likes on the ONE post row; each like also leaves its post-side reactors
// row and its likers-list entry. So under this contention the count must come out exactly N, and
// "who liked" (the likers list index, read through the listLikers use case, which checks each
// entry against the reactions rows) must list exactly those N users. A second round, the same N users liking
// again at once, must change nothing (likes are idempotent): the count stays N.
// Reported: likes/s of each round, p50/p99 per like, HBase requests per like and where their
// time goes (by request kind), the counts. The phase knows nothing of likePost's inner steps.
import { performance } from 'node:perf_hooks';
import { postIdFromKey } from '../../../shared/schema/row-keys.js';
import { postKey } from '../../../shared/schema/row-keys.js';
import { likePost, listLikers } from '../../../shared/use-cases/likes.js';
import { inPool } from './bulk.js';
import type { BenchContext } from './context.js';
import { breakdown, type RequestKind } from './requests.js';
import { summarize, type LatencySummary } from '../stats.js';

/** Page size when reading the likers list back. */
const LIKERS_PAGE = 100;

export interface LikeRound {
  likes: number;
  /** Likes that threw (each is also a reason the count can miss). */
  errors: number;
  firstError?: string;
  seconds: number;
  likesPerSec: number;
  perLike: LatencySummary;
  /** HBase requests sent during the round / likes. */
  requestsPerLike: number;
  /** Where the round's HBase time went, by request kind (durations of overlapping requests add up). */
  requestKinds: RequestKind[];
  /** c:likes read back after the round (the real post store). */
  likeCount: number;
  /** Entries of the likers list after the round (listLikers, paged to the end). */
  likersListed: number;
  /** Of those, distinct handles that are among the likers (exact = all N, no stranger). */
  likersMatching: number;
}

export interface HotPostResult {
  postId: string;
  likers: number;
  concurrency: number;
  first: LikeRound;
  /** The same users again: idempotent, nothing may change. */
  repeat: LikeRound;
  /** Both rounds: count N, list N, list = exactly the likers. */
  exact: boolean;
}

async function likersOf(
  ctx: BenchContext,
  postId: string,
  expected: Set<string>,
): Promise<{ listed: number; matching: number }> {
  const seen = new Set<string>();
  let listed = 0;
  let cursor: string | undefined;
  for (let page = 0; page < Math.ceil(expected.size / LIKERS_PAGE) + 10; page++) {
    const res = await listLikers(ctx.deps, postId, LIKERS_PAGE, cursor);
    listed += res.items.length;
    for (const l of res.items) if (expected.has(l.handle)) seen.add(l.handle);
    if (!res.nextCursor) break;
    cursor = res.nextCursor;
  }
  return { listed, matching: seen.size };
}

async function round(
  ctx: BenchContext,
  postId: string,
  likers: string[],
  onProgress: (f: number) => void,
): Promise<LikeRound> {
  const samples: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  const rec = await ctx.recorder.record(() =>
    inPool(likers, ctx.s.hotConcurrency, async (user) => {
      const start = performance.now();
      try {
        await likePost(ctx.deps, user, postId);
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
      samples.push(performance.now() - start);
      if (samples.length % 50 === 0) onProgress(samples.length / likers.length);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const requests = rec.requests;
  const post = await ctx.deps.posts.get(postId);
  const list = await likersOf(ctx, postId, new Set(likers));
  return {
    likes: likers.length,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    seconds: Math.round(seconds * 1000) / 1000,
    likesPerSec: Math.round(likers.length / seconds),
    perLike: summarize(samples),
    requestsPerLike: Math.round((requests / likers.length) * 100) / 100,
    requestKinds: breakdown(rec.spans),
    likeCount: post?.counts.likes ?? -1, // -1: the post could not be read back
    likersListed: list.listed,
    likersMatching: list.matching,
  };
}

export async function runHotPost(ctx: BenchContext): Promise<HotPostResult> {
  const { s, graph, pool, deps } = ctx;
  if (s.hotLikers > pool.handles.length) {
    throw new Error(
      `BENCH_HOT_LIKERS (${s.hotLikers}) exceeds the follower pool (${pool.handles.length}); raise BENCH_LAG_FOLLOWERS or BENCH_MEM_LARGE`,
    );
  }
  // A fresh post by the most-followed user, created through the real store: nothing else in
  // the run likes it, so its count is exactly what this phase does.
  const author = graph.handles[0]!;
  const createdAt = Date.now() - 1_000;
  const postId = postIdFromKey(postKey(author, createdAt));
  if (!(await deps.posts.create({ id: postId, author, body: 'hot post: everyone likes this one', createdAt }))) {
    throw new Error(`hot post ${postId} already exists`);
  }
  // Distinct users of the pool (real users rows), none of whom liked anything yet.
  const likers = pool.handles.slice(0, s.hotLikers);
  const first = await round(ctx, postId, likers, (f) =>
    ctx.progress.update(0.5 * f, `first round ${Math.round(f * likers.length)}/${likers.length}`),
  );
  const repeat = await round(ctx, postId, likers, (f) =>
    ctx.progress.update(0.5 + 0.5 * f, `repeat round ${Math.round(f * likers.length)}/${likers.length}`),
  );
  const exactRound = (r: LikeRound) =>
    r.errors === 0 &&
    r.likeCount === likers.length &&
    r.likersListed === likers.length &&
    r.likersMatching === likers.length;
  return {
    postId,
    likers: likers.length,
    concurrency: s.hotConcurrency,
    first,
    repeat,
    exact: exactRound(first) && exactRound(repeat),
  };
}
