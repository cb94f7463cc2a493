// test/bench/feed/timeline.ts — home timeline page latency (the real homeTimeline use case on
// the real adapters, limit 20) against a raw floor of the SAME shape measured on the SAME reader
// in the same loop. The use case reads the inbox row, then in ONE parallel stage the page's
// content rows (post + counts), the reader's reactions rows (liked / reposted) and the block and
// mute rows between the reader and the page's authors, so the floor is "inbox get + 3 parallel
// multi-gets": a raw getRow of the reader's inbox row, then three raw multiGets at once — the
// page's 20 content rows, the 20 reactions rows userKey(reader) + postKey (row-keys.ts
// reactionKey) and 3 blocks rows per distinct author (row-keys.ts blockKey). Each page is also charged with its HBase
// requests and sequential round trips.
// The data is realistic for that read: before timing, each sampled reader has liked a share
// (settings.timelineLikedShare) of their first page's posts through the real likePost use case
// (so their reactions rows exist, and the posts carry c:likes and reactors rows), and a fifth of
// those pages' posts also carry comment and repost counts (real adapter increments).
// Beside each page the same reader's "anything newer?" check (countNewer, one round trip through
// a server-side filter) is timed against the post NEWER_AT entries down, so the figure says
// what polling it costs next to reading the page again: `newer check / timeline page`.
import { performance } from 'node:perf_hooks';
import { postIdFromKey } from '../../../shared/schema/row-keys.js';
import { blockKey, parsePostKey, reactionKey } from '../../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../../shared/schema/tables.js';
import { homeTimeline } from '../../../shared/use-cases/home-timeline.js';
import { likePost } from '../../../shared/use-cases/likes.js';
import { countNewer } from '../../../shared/use-cases/newer-posts.js';
import { inPool } from './bulk.js';
import type { BenchContext } from './context.js';
import { cachedUserKey, inboxOf } from './graph.js';
import { prng, randomInt, sampleDistinct } from './random.js';
import { summarize, type LatencySummary } from '../stats.js';

const LIMIT = 20;
const WARMUP = 20;
/** What the floor is, for labels: the use case's shape with nothing but the requests. */
export const TIMELINE_FLOOR = 'inbox get + 3 parallel multi-gets';
/** Share of the sampled pages' distinct posts that also get comment and repost counts. */
const COUNTED_SHARE = 0.2;
const SEED_CONCURRENCY = 16;
/** The newer check asks above the entry this far down the inbox (a page left open a while). */
const NEWER_AT = 5;

export interface TimelineResult {
  readers: number;
  limit: number;
  /** Which floor: TIMELINE_FLOOR. */
  floorShape: string;
  /** Raw floor: getRow(inbox row), then multiGet(20 content rows) ∥ multiGet(20 reactions rows) ∥ multiGet(blocks rows). */
  floor: LatencySummary;
  /** The floor's own requests and sequential round trips per page, recorded like the use case's (4 and 2). */
  floorRequestsPerPage: { mean: number; max: number };
  floorSequentialRoundTrips: { mean: number; max: number };
  useCase: LatencySummary;
  p50Ratio: number;
  p99Ratio: number;
  requestsPerPage: { mean: number; max: number };
  sequentialRoundTrips: { mean: number; max: number };
  /** Cells in the sampled readers' inbox rows (the floor's row size). */
  inboxCells: { mean: number; min: number; max: number };
  /** Pages that came back with fewer posts than the inbox holds (should be 0). */
  shortPages: number;
  /** The data the pages read: likes written through likePost, posts given comment/repost counts. */
  seeded: { likes: number; countedPosts: number; seconds: number };
  /** Per timed page, as the use case returned it: posts the reader liked, posts with any count > 0. */
  likedPerPage: { mean: number; max: number };
  countedPerPage: { mean: number; max: number };
  /** The "anything newer?" check of the same readers, timed in the same loop. */
  newer: LatencySummary;
  /** Its p50 / the timeline page's p50 (and p99 / p99). */
  newerP50Ratio: number;
  newerP99Ratio: number;
  newerRequests: { mean: number; max: number };
  newerSequentialRoundTrips: { mean: number; max: number };
}

export async function runTimeline(ctx: BenchContext): Promise<TimelineResult> {
  const { s, graph, deps, hb, recorder } = ctx;
  const rand = prng(s.seed + 1);
  const readers = sampleDistinct(rand, graph.handles.length, Math.min(s.timelineReaders, graph.handles.length));
  while (readers.length < s.timelineReaders) readers.push(readers[readers.length % graph.handles.length]!);
  const inboxTable = qualifiedTableName(ctx.ns, 'inbox');
  const contentTable = qualifiedTableName(ctx.ns, 'content');
  const reactionsTable = qualifiedTableName(ctx.ns, 'reactions');
  const blocksTable = qualifiedTableName(ctx.ns, 'blocks');

  // Active readers, as in steady state: a reader who read within the hour has m:seen, and the
  // page makes no activity write. Written through the real adapter (its format is its own).
  const now = Date.now();
  for (let i = 0; i < readers.length; i += 16) {
    await Promise.all(readers.slice(i, i + 16).map((r) => deps.inbox.markSeen(graph.handles[r]!, now)));
  }

  const inboxes = new Map(readers.map((r) => [r, inboxOf(graph, r, ctx.limits.inboxCap)]));

  // Realistic state for the page's second stage: likes by the readers themselves (the real use
  // case: reactions row, c:likes, reactors row), and comment / repost counts on some posts.
  const seedStarted = performance.now();
  const likes: [reader: string, postId: string][] = [];
  const pagePosts = new Map<string, Uint8Array>();
  for (const r of new Set(readers)) {
    for (const p of inboxes.get(r)!.slice(0, LIMIT)) {
      const id = postIdFromKey(p.key);
      pagePosts.set(id, p.key);
      if (rand() < s.timelineLikedShare) likes.push([graph.handles[r]!, id]);
    }
  }
  const counted = [...pagePosts.keys()].filter(() => rand() < COUNTED_SHARE);
  const countOps: (() => Promise<void>)[] = [
    ...likes.map(
      ([reader, id]) =>
        () =>
          likePost(deps, reader, id),
    ),
    ...counted.map((id) => {
      const comments = randomInt(rand, 1, 40);
      const reposts = randomInt(rand, 1, 15);
      return () =>
        Promise.all([deps.posts.count(id, 'comments', comments), deps.posts.count(id, 'reposts', reposts)]).then(
          () => {},
        );
    }),
  ];
  let seededOps = 0;
  await inPool(countOps, SEED_CONCURRENCY, async (op) => {
    await op();
    if (++seededOps % 100 === 0)
      ctx.progress.update((0.3 * seededOps) / countOps.length, `likes and counts ${seededOps}/${countOps.length}`);
  });
  const seeded = {
    likes: likes.length,
    countedPosts: counted.length,
    seconds: Math.round((performance.now() - seedStarted) / 100) / 10,
  };

  // The floor: the use case's shape — inbox get, then content ∥ reactions ∥ blocks multi-gets — raw.
  const pageKeys = new Map(
    readers.map((r) => {
      const page = inboxes.get(r)!.slice(0, LIMIT);
      const reader = graph.handles[r]!;
      const authors = [...new Set(page.map((p) => parsePostKey(p.key).author))].filter((a) => a !== reader);
      return [
        r,
        {
          content: page.map((p) => p.key),
          reactions: page.map((p) => reactionKey(reader, p.key)),
          blocks: authors.flatMap((a) => [
            blockKey(reader, 'B', a),
            blockKey(reader, 'M', a),
            blockKey(a, 'B', reader),
          ]),
        },
      ] as const;
    }),
  );
  const floorOp = async (r: number) => {
    await hb.getRow(inboxTable, cachedUserKey(graph.handles[r]!));
    const keys = pageKeys.get(r)!;
    if (keys.content.length) {
      await Promise.all([
        hb.multiGet(contentTable, keys.content),
        hb.multiGet(reactionsTable, keys.reactions),
        hb.multiGet(blocksTable, keys.blocks),
      ]);
    }
  };

  /** The post the reader's open page would show NEWER_AT entries down (the inbox's; null for a short inbox). */
  const newerAfter = (r: number): string | null => {
    const entry = inboxes.get(r)![Math.min(NEWER_AT, inboxes.get(r)!.length - 1)];
    return entry ? postIdFromKey(entry.key) : null;
  };

  for (let i = 0; i < WARMUP; i++) {
    const r = readers[i % readers.length]!;
    await floorOp(r);
    await homeTimeline(deps, graph.handles[r]!, LIMIT);
    const after = newerAfter(r);
    if (after) await countNewer(deps, graph.handles[r]!, after);
  }

  const floorMs: number[] = [];
  const floorRequests: number[] = [];
  const floorSequential: number[] = [];
  const caseMs: number[] = [];
  const requests: number[] = [];
  const sequential: number[] = [];
  const likedOnPage: number[] = [];
  const countedOnPage: number[] = [];
  const newerMs: number[] = [];
  const newerRequests: number[] = [];
  const newerSequential: number[] = [];
  let shortPages = 0;
  for (let i = 0; i < readers.length; i++) {
    const r = readers[i]!;
    const timeFloor = async () => {
      // Recorded like the use case (same bookkeeping on both sides), which also proves its shape.
      const t0 = performance.now();
      const rec = await recorder.record(() => floorOp(r));
      floorMs.push(performance.now() - t0);
      floorRequests.push(rec.requests);
      floorSequential.push(rec.sequential);
    };
    const timeCase = async () => {
      const t0 = performance.now();
      const rec = await recorder.record(() => homeTimeline(deps, graph.handles[r]!, LIMIT));
      caseMs.push(performance.now() - t0);
      requests.push(rec.requests);
      sequential.push(rec.sequential);
      if (rec.result.items.length < Math.min(LIMIT, inboxes.get(r)!.length)) shortPages++;
      likedOnPage.push(rec.result.items.filter((p) => p.viewer.liked).length);
      countedOnPage.push(
        rec.result.items.filter((p) => p.counts.likes + p.counts.comments + p.counts.reposts > 0).length,
      );
    };
    const timeNewer = async () => {
      const after = newerAfter(r);
      if (!after) return;
      const t0 = performance.now();
      const rec = await recorder.record(() => countNewer(deps, graph.handles[r]!, after));
      newerMs.push(performance.now() - t0);
      newerRequests.push(rec.requests);
      newerSequential.push(rec.sequential);
    };
    if (i % 2 === 0) {
      await timeFloor();
      await timeCase();
      await timeNewer();
    } else {
      await timeNewer();
      await timeCase();
      await timeFloor();
    }
    if (i % 10 === 0) ctx.progress.update(0.3 + (0.7 * i) / readers.length, `${i}/${readers.length} readers`);
  }

  const floor = summarize(floorMs);
  const useCase = summarize(caseMs);
  const newer = summarize(newerMs);
  const sizes = readers.map((r) => inboxes.get(r)!.length);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    readers: readers.length,
    limit: LIMIT,
    floorShape: TIMELINE_FLOOR,
    floor,
    useCase,
    p50Ratio: useCase.medianMs / floor.medianMs,
    p99Ratio: useCase.p99Ms / floor.p99Ms,
    floorRequestsPerPage: { mean: mean(floorRequests), max: Math.max(...floorRequests) },
    floorSequentialRoundTrips: { mean: mean(floorSequential), max: Math.max(...floorSequential) },
    requestsPerPage: { mean: mean(requests), max: Math.max(...requests) },
    sequentialRoundTrips: { mean: mean(sequential), max: Math.max(...sequential) },
    inboxCells: { mean: Math.round(mean(sizes)), min: Math.min(...sizes), max: Math.max(...sizes) },
    shortPages,
    seeded,
    likedPerPage: { mean: mean(likedOnPage), max: Math.max(...likedOnPage) },
    countedPerPage: { mean: mean(countedOnPage), max: Math.max(...countedOnPage) },
    newer,
    newerP50Ratio: newer.medianMs / useCase.medianMs,
    newerP99Ratio: newer.p99Ms / useCase.p99Ms,
    newerRequests: { mean: mean(newerRequests), max: Math.max(...newerRequests) },
    newerSequentialRoundTrips: { mean: mean(newerSequential), max: Math.max(...newerSequential) },
  };
}
