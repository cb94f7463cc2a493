// test/bench/feed/routes.ts — the per-route table (issue 22, item 4): each route class the bench
// can drive through the real use cases on the real adapters (what the HTTP handler calls, minus
// HTTP), timed, with its HBase requests and SEQUENTIAL round trips (requests.ts, the definition
// Server-Timing uses), against the raw floor of the same run: one row get (floor.ts), p50 / p50
// and p99 / p99. A route at n round trips has an honest floor of about n row gets; the table
// gives both figures so the reader sees which part is round trips and which is work.
// Inputs come from the loaded graph: readers and authors by the seeded PRNG, the hot post (1,000
// likers) for likers, a top author turned celebrity for the celebrity-reader timeline.
import { performance } from 'node:perf_hooks';
import { postIdFromKey } from '../../../shared/schema/row-keys.js';
import { getProfile } from '../../../shared/use-cases/get-profile.js';
import { homeTimeline } from '../../../shared/use-cases/home-timeline.js';
import { likePost, listLikers } from '../../../shared/use-cases/likes.js';
import { listNotifications } from '../../../shared/use-cases/notifications.js';
import { getPost, listUserPosts } from '../../../shared/use-cases/posts.js';
import { publishPost } from '../../../shared/use-cases/publish-post.js';
import { follow, listRelations } from '../../../shared/use-cases/relations.js';
import type { BenchContext } from './context.js';
import { prng, randomInt } from './random.js';
import { summarize, type LatencySummary } from '../stats.js';

const PAGE = 20;

export interface RouteFigure {
  route: string;
  kind: 'read' | 'write';
  samples: number;
  latency: LatencySummary;
  /** p50 / the floor's row-get p50, p99 / its p99. */
  p50Ratio: number;
  p99Ratio: number;
  requests: { mean: number; max: number };
  sequentialRoundTrips: { mean: number; max: number };
}

export interface RoutesResult {
  floor: { shape: string; medianMs: number; p99Ms: number };
  routes: RouteFigure[];
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** `samples` calls of `call(i)`, one after another, each recorded. */
async function measure(
  ctx: BenchContext,
  route: string,
  kind: RouteFigure['kind'],
  samples: number,
  floor: LatencySummary,
  call: (i: number) => Promise<unknown>,
): Promise<RouteFigure> {
  // Warm the code path (and the gateway's connection) before timing.
  for (let i = 0; i < Math.min(5, samples); i++) await call(samples + i);
  const ms: number[] = [];
  const requests: number[] = [];
  const depth: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const rec = await ctx.recorder.record(() => call(i));
    ms.push(performance.now() - t0);
    requests.push(rec.requests);
    depth.push(rec.sequential);
  }
  const latency = summarize(ms);
  const stat = (xs: number[]) => ({ mean: round1(xs.reduce((a, b) => a + b, 0) / xs.length), max: Math.max(...xs) });
  return {
    route,
    kind,
    samples,
    latency,
    p50Ratio: round2(latency.medianMs / floor.medianMs),
    p99Ratio: round2(latency.p99Ms / floor.p99Ms),
    requests: stat(requests),
    sequentialRoundTrips: stat(depth),
  };
}

export async function runRoutes(ctx: BenchContext, floor: LatencySummary, hotPostId: string): Promise<RoutesResult> {
  const { deps, graph, pool, s } = ctx;
  const n = s.routeSamples;
  const rand = prng(s.seed + 7);
  const users = graph.handles;
  const anyUser = () => users[randomInt(rand, 0, users.length - 1)]!;
  const withPosts = users.filter((_, u) => graph.posts[u]!.length > 0);
  const anyPost = () => {
    const u = randomInt(rand, 0, users.length - 1);
    const posts = graph.posts[u]!;
    return posts.length ? postIdFromKey(posts[randomInt(rand, 0, posts.length - 1)]!.key) : null;
  };
  const postIds = Array.from({ length: n + 5 }, anyPost).filter((id): id is string => id !== null);
  const figures: RouteFigure[] = [];
  const step = (i: number) => ctx.progress.update(i / 11, figures.at(-1)?.route ?? '');

  figures.push(await measure(ctx, 'GET home timeline', 'read', n, floor, () => homeTimeline(deps, anyUser(), PAGE)));
  step(1);

  // The most followed graph user turned celebrity: its readers carry the marker and merge its
  // outbox at read time (one more stage, the "3 where a celebrity merge needs it").
  const star = users[0]!;
  const starReaders = users.filter((_, u) => graph.following[u]!.includes(0)).slice(0, Math.max(n, 10));
  await deps.celebrities.setCelebrity(star, true);
  await deps.inbox.addCelebrity(starReaders, star);
  try {
    figures.push(
      await measure(ctx, 'GET home timeline, celebrity reader', 'read', n, floor, (i) =>
        homeTimeline(deps, starReaders[i % starReaders.length]!, PAGE),
      ),
    );
  } finally {
    await deps.celebrities.setCelebrity(star, false);
  }
  step(2);

  figures.push(
    await measure(ctx, 'GET profile page', 'read', n, floor, () => getProfile({ users: deps.users }, anyUser())),
  );
  step(3);
  figures.push(
    await measure(ctx, "GET an author's posts", 'read', n, floor, () =>
      listUserPosts(deps, withPosts[randomInt(rand, 0, withPosts.length - 1)]!, PAGE, undefined, anyUser()),
    ),
  );
  step(4);
  figures.push(
    await measure(ctx, 'GET post detail', 'read', n, floor, (i) =>
      getPost(deps, postIds[i % postIds.length]!, anyUser()),
    ),
  );
  step(5);
  figures.push(await measure(ctx, 'GET likers (hot post)', 'read', n, floor, () => listLikers(deps, hotPostId, PAGE)));
  step(6);
  figures.push(
    await measure(ctx, 'GET followers list', 'read', n, floor, () =>
      listRelations(deps, users[randomInt(rand, 0, Math.min(50, users.length - 1))]!, 'followers', PAGE),
    ),
  );
  step(7);
  figures.push(
    await measure(ctx, 'GET notifications', 'read', n, floor, () => listNotifications(deps, anyUser(), PAGE)),
  );
  step(8);

  figures.push(
    await measure(ctx, 'POST publish', 'write', n, floor, (i) =>
      publishPost(deps, anyUser(), { body: `route bench ${i}` }),
    ),
  );
  ctx.queued.length = 0; // their fan-out is measured elsewhere
  step(9);
  figures.push(
    await measure(ctx, 'PUT like', 'write', n, floor, (i) =>
      likePost(deps, pool.handles[i]!, postIds[i % postIds.length]!),
    ),
  );
  ctx.queued.length = 0;
  step(10);
  // Pool users follow graph users: every (follower, followee) pair is new, so each is a first follow.
  figures.push(
    await measure(ctx, 'PUT follow', 'write', n, floor, (i) =>
      follow(deps, pool.handles[pool.handles.length - 1 - i]!, users[(i * 7) % users.length]!),
    ),
  );
  ctx.queued.length = 0;
  step(11);

  return { floor: { shape: 'row get (1 round trip)', medianMs: floor.medianMs, p99Ms: floor.p99Ms }, routes: figures };
}
