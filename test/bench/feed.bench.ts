// test/bench/feed.bench.ts — `npm run bench` (and `npm run bench:smoke`): the feed's performance
// targets (product.md "Performance") measured in ONE run on the local stack, each as a ratio
// against a floor measured in the same run:
//   1. the raw HBase REST floor (./floor.ts: row get, multi-get 20, batch put 1/100/1000)
//   2. a synthetic power-law social graph, bulk-loaded in the real layouts (./feed/graph.ts)
//   3. home timeline page p50/p99 vs the raw floor of the same shape (inbox get + 2 parallel
//      multi-gets: content ∥ the reader's reactions), HBase requests per page; the readers have
//      liked some of their page's posts and the posts carry counts; beside it the "anything
//      newer?" check of the same readers (p50 / the page's p50, and its round trips)
//   3b. hot-post likes: N distinct users like ONE post at once through likePost, twice; the
//      count and the likers list must come out exactly N (likes/s, p50/p99 per like)
//   3d. the per-route table: every route class the bench can drive through the real use cases
//      (timelines, profile, an author's posts, post detail, likers, followers, notifications,
//      publish, like, follow), p50/p99 against the floor's row get, requests and round trips
//   4. fan-out inbox cells/s vs raw batch puts of the same cells, at 10,000 and 100,000 followers
//   4b. the same for the 10,000-follower author in G ordinary groups of followers and in G
//      followers' 特别关注, with publish → the last special notice (./feed/group-fanout.ts)
//   5. publish → visible lag for a 10,000-follower author through a real ElasticMQ queue
//   3c. seed 000's read path (inbox row with 5 versions per followee, one get per cell, grouped
//      by author: ./feed/seed-read.ts) vs our home timeline page, p50/p99, same readers and posts
//   6. follow backfill rows: ours (read, examined) vs seed 000's full-table substring scan (rows
//      examined, measured from the region counters), at 100 k and 1 M posts
//   7. fan-out worker peak memory at 1,000 vs 100,000 followers, each in a child process
// Everything lives in a throwaway HBase namespace and queue, dropped at the end (also on Ctrl-C).
// Output: a progress bar on stderr, a table on stdout, docs/bench/feed-bench.json and .svg (smoke:
// bench-results/), and docs/benchmarks.md rewritten from docs/bench.
// Knobs: test/bench/feed/settings.ts (BENCH_* variables; --smoke or BENCH_PROFILE=smoke).
// The stack must already run: `bash infra/local/stack.sh start`.
import { dropBenchNamespace } from './drop-namespace.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DeleteQueueCommand } from '@aws-sdk/client-sqs';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { ensureQueues, localSqsClient } from '../../infra/local/sqs-poller.js';
import { feedLimits, loadConfig } from '../../shared/config/config.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseLiveStore } from '../../shared/adapters/hbase/hbase-live-store.js';
import { hmacPositionSeal } from '../../shared/auth/positions.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { deferToInvocation } from '../../shared/runtime/invocation-scope.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { createSeedTables, runBackfill } from './feed/backfill.js';
import { createSeedReadTables, runSeedRead } from './feed/seed-read.js';
import type { BenchContext } from './feed/context.js';
import { runFanout } from './feed/fanout.js';
import { runGroupFanout } from './feed/group-fanout.js';
import { buildGraph, buildPool, loadGraph } from './feed/graph.js';
import { runHotPost } from './feed/hot-post.js';
import { runLag } from './feed/lag.js';
import { runRoutes } from './feed/routes.js';
import { runMemory } from './feed/memory.js';
import { Progress } from './feed/progress.js';
import { chartSvg, formatTarget, formatValue, resultWord, target, type TargetResult } from './feed/report.js';
import { RequestRecorder } from './feed/requests.js';
import { benchSettings, outPath } from './feed/settings.js';
import { runTimeline, TIMELINE_FLOOR } from './feed/timeline.js';
import { measureFloor, prepareFloorTable, printFloor } from './floor.js';
import { printTable } from './stats.js';
import { refreshBenchmarksPage } from '../../infra/docs/benchmarks-document.js';

/** The machine's cores: the lag and throughput figures depend on them. */
const CORES = availableParallelism();
/** The fan-out worker's configured memory (serverless.yml provider.memorySize): the RSS target's denominator. */
const WORKER_MEMORY_MB = Number(
  /^\s*memorySize:\s*(\d+)/m.exec(readFileSync(new URL('../../serverless.yml', import.meta.url), 'utf8'))?.[1] ?? NaN,
);
const started = performance.now();
const s = benchSettings();
const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const ns = `bench_${runId}`;
const queueName = `weibo-bench-${runId}`;

// The real composition (feedDependencies(), used by the published post and the Lambda handler
// in the lag phase) reads its configuration from the environment on first use: point it at
// this run's namespace and queue before anything reads it.
process.env.HBASE_NAMESPACE = ns;
const sqsEndpoint = process.env.SQS_ENDPOINT || `http://127.0.0.1:${process.env.ELASTICMQ_PORT || '19324'}`;
process.env.SQS_ENDPOINT = sqsEndpoint;
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN'; // the worker logs every message at INFO
const cfg = loadConfig(process.env);
const restUrl = cfg.HBASE_REST_URL;
const headers: Record<string, string> = cfg.HBASE_AUTHORIZATION ? { Authorization: cfg.HBASE_AUTHORIZATION } : {};

async function stackProblem(): Promise<string | null> {
  const problems: string[] = [];
  try {
    const res = await fetch(`${restUrl}/version/cluster`, {
      headers: { ...headers, Accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    if (res.status !== 200) problems.push(`HBase REST gateway ${restUrl} answered ${res.status} to /version/cluster`);
  } catch (err) {
    problems.push(`HBase REST gateway ${restUrl} does not answer (${(err as Error).message})`);
  }
  try {
    const res = await fetch(`${sqsEndpoint}/health`, { signal: AbortSignal.timeout(5_000) });
    if (res.status !== 200) problems.push(`ElasticMQ ${sqsEndpoint} answered ${res.status} to /health`);
  } catch (err) {
    problems.push(`ElasticMQ ${sqsEndpoint} does not answer (${(err as Error).message})`);
  }
  return problems.length ? problems.join('; ') : null;
}

const problem = await stackProblem();
if (problem) {
  process.stderr.write(
    `feed bench: the local stack is not running — ${problem}.\n` +
      `Start it first with:  bash infra/local/stack.sh start   (or npm run stack:start), then run the bench again.\n`,
  );
  process.exit(2);
}

const recorder = new RequestRecorder();
// handOff as the functions' composition has it: inside an invocation (the fan-out's messages,
// drainInProcess) a scanner's delete runs beside what follows; elsewhere it is awaited in place.
const hb = new HBaseRestClient({
  baseUrl: restUrl,
  timeoutMs: 300_000,
  headers,
  onRequest: recorder.onRequest,
  handOff: deferToInvocation,
});
// The bench's likes are many per user per minute (the hot-post rounds, the timeline readers'
// likes): the per-user like quota is set out of the way. Its requests are still made.
const configured = feedLimits(cfg);
const limits = { ...configured, writesPerMinute: { ...configured.writesPerMinute, like: 1_000_000 } };
const queued: FanoutMessage[] = [];
const progress = new Progress([
  { id: 'setup', label: 'schema, queue', weight: 3 },
  { id: 'floor', label: 'raw HBase floor', weight: 12 },
  { id: 'graph', label: 'loading the social graph', weight: 30 },
  { id: 'timeline', label: `home timeline vs ${TIMELINE_FLOOR}`, weight: 20 },
  { id: 'seedread', label: 'seed 000 read path vs our home timeline', weight: 12 },
  { id: 'hotpost', label: 'hot-post likes (concurrent likePost)', weight: 10 },
  { id: 'routes', label: 'per-route table vs the raw row get', weight: 12 },
  { id: 'fanout', label: 'fan-out vs raw batch put', weight: 6 },
  { id: 'groups', label: 'fan-out of an author in groups and 特别关注', weight: 8 },
  { id: 'lag', label: 'publish → visible through the queue', weight: 10 },
  { id: 'memory', label: 'fan-out worker memory (child processes)', weight: 15 },
  { id: 'backfill', label: 'follow backfill: ours vs seed full scan', weight: 80 },
]);

let queueUrls: string[] = [];
let cleaned = false;
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await dropBenchNamespace(hb, restUrl, headers, ns, (line) => process.stderr.write(`feed bench: ${line}\n`));
  if (queueUrls.length) {
    const sqs = localSqsClient(sqsEndpoint);
    for (const QueueUrl of queueUrls) await sqs.send(new DeleteQueueCommand({ QueueUrl })).catch(() => {});
    sqs.destroy();
  }
}
process.once('SIGINT', () => {
  process.stderr.write('\nfeed bench: interrupted, dropping the bench namespace and queue…\n');
  void cleanup().finally(() => process.exit(130));
});

try {
  progress.phase('setup', ns);
  const hbaseVersion = await hb.clusterVersion();
  await applySchema(hb, ns);
  await createSeedTables(hb, ns);
  await createSeedReadTables(hb, ns);
  const floorTable = `${ns}:floor`;
  await prepareFloorTable(hb, floorTable);
  const queues = await ensureQueues({ sqsEndpoint, stage: 'local', queueName });
  queueUrls = [queues.queueUrl, queues.deadLetterQueueUrl];
  process.env.FANOUT_QUEUE_URL = queues.queueUrl;

  // 1. raw floor
  progress.phase('floor', `${s.floorReps} repetitions`);
  const scale = s.profile === 'smoke' ? 0.2 : 1;
  const floor = await measureFloor(hb, floorTable, {
    reps: s.floorReps,
    batchPuts: [
      [1, Math.min(s.floorReps, 500)],
      [100, 20_000 * scale],
      [1000, 50_000 * scale],
    ],
    onProgress: (f) => progress.update(f),
  });

  // 2. graph
  progress.phase('graph', `${s.users} users`);
  const now = Date.now();
  const graph = buildGraph(s, limits.maxFollowing, now);
  const pool = buildPool(s);
  const load = await loadGraph(hb, ns, s, graph, pool, limits.inboxCap, now, (f, d) => progress.update(f, d));
  const followerCounts = [...graph.followers].sort((a, b) => b - a);

  const ctx: BenchContext = {
    s,
    ns,
    restUrl,
    sqsEndpoint,
    headers,
    hb,
    recorder,
    deps: {
      ...hbaseFeedStores(hb, ns),
      queue: { send: async (m) => void queued.push(m) },
      limits,
      // The live channel as the worker has it: each fan-out message reads its author's watchers.
      announcer: {
        live: new HBaseLiveStore(hb, ns, { watchersMaxAgeMs: 5_000 }),
        push: { send: async () => 'sent', disconnect: async () => {} },
        positions: hmacPositionSeal,
        relations: hbaseFeedStores(hb, ns).relations,
      },
    },
    queued,
    limits,
    progress,
    graph,
    pool,
  };

  // 3. home timeline
  progress.phase('timeline', `${s.timelineReaders} readers`);
  const timeline = await runTimeline(ctx);

  // 3c. the seeds' read path vs our home timeline page, same readers, same posts
  progress.phase('seedread', `${s.timelineReaders} readers`);
  const seedRead = await runSeedRead(ctx);

  // 3b. hot-post likes
  progress.phase('hotpost', `${s.hotLikers} users × 2 rounds, ${s.hotConcurrency} in flight`);
  const hotPost = await runHotPost(ctx);

  // 3d. every route class through the real use cases
  progress.phase('routes', `${s.routeSamples} calls per route`);
  const routes = await runRoutes(ctx, floor.rowGet, hotPost.postId);

  // 4. fan-out throughput
  progress.phase('fanout', `${s.lagFollowers} and ${s.memLarge} followers`);
  const fanout = await runFanout(ctx);
  const fanoutLarge = await runFanout(ctx, pool.authors[2]!);

  // 4b. the same author held in groups and in 特别关注
  progress.phase('groups', `${s.groupCounts.join(', ')} groups; ${s.specialCounts.join(', ')} 特别关注 fans`);
  const groupFanout = await runGroupFanout(ctx);

  // 5. publish → visible, the large author's posts, segments run by concurrent worker invocations
  progress.phase('lag', `${s.memLarge} followers × ${s.lagReps}, ${s.workerConcurrency} workers`);
  const lag = await runLag(ctx, queues.queueUrl);

  // 7. memory (before the big load, so HBase is calm while the children run)
  progress.phase('memory', `${s.memSmall} vs ${s.memLarge} followers`);
  const memory = await runMemory(ctx);

  // 6. backfill
  progress.phase('backfill', `${s.seedPosts} posts`);
  const backfill = await runBackfill(ctx);
  progress.done();

  const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
  const backfillFormula = (cp: (typeof backfill.checkpoints)[number]) =>
    `${cp.seedRowsExamined.toLocaleString('en-US')}${cp.seedRowsExaminedMeasured ? '' : ' (table size, not measured)'} / ${(cp.oursRowsExamined ?? cp.oursRowsRead).toLocaleString('en-US')} rows`;
  const targets: TargetResult[] = [
    target({
      id: 'timeline_p99_ratio',
      label: `Timeline p99 / raw ${TIMELINE_FLOOR} p99 (${timeline.readers} readers)`,
      formula: `${timeline.useCase.p99Ms} ms / ${timeline.floor.p99Ms} ms`,
      value: timeline.p99Ratio,
      kind: 'max',
      target: 1.5,
      unit: '×',
    }),
    target({
      id: 'timeline_sequential_round_trips',
      label: 'Home timeline page: sequential HBase round trips (worst page)',
      formula: `${timeline.requestsPerPage.max} requests max, ${timeline.sequentialRoundTrips.max} sequential`,
      value: timeline.sequentialRoundTrips.max,
      kind: 'max',
      target: 2,
      unit: 'requests',
    }),
    target({
      id: 'newer_check_ratio',
      label: `"Anything newer?" check p50 / timeline page p50 (${timeline.readers} readers)`,
      formula: `${timeline.newer.medianMs} ms / ${timeline.useCase.medianMs} ms (p99 ${timeline.newer.p99Ms} ms / ${timeline.useCase.p99Ms} ms)`,
      value: timeline.newerP50Ratio,
      kind: 'max',
      target: 0.5,
      unit: '×',
    }),
    target({
      id: 'newer_check_sequential_round_trips',
      label: '"Anything newer?" check: sequential HBase round trips (worst; 2 for readers of celebrities)',
      formula: `${timeline.newerRequests.max} requests max, ${timeline.newerSequentialRoundTrips.max} sequential`,
      value: timeline.newerSequentialRoundTrips.max,
      kind: 'max',
      target: 2,
      unit: 'requests',
    }),
    target({
      id: 'hot_post_like_count',
      label: `Hot post: like count after ${hotPost.likers.toLocaleString('en-US')} users liked it at once (${hotPost.concurrency} in flight)`,
      formula: `c:likes ${hotPost.first.likeCount} · ${hotPost.first.errors} errors · ${hotPost.first.likesPerSec} likes/s`,
      value: hotPost.first.likeCount,
      kind: 'exact',
      target: hotPost.likers,
      unit: 'count',
    }),
    target({
      id: 'hot_post_likers',
      label: 'Hot post: likers listed via listLikers (the likers list index)',
      formula: `${hotPost.first.likersListed} entries, ${hotPost.first.likersMatching} distinct likers`,
      // Entries that are not distinct likers (none can be: one row per liker) would be a miss too.
      value: hotPost.first.likersMatching - (hotPost.first.likersListed - hotPost.first.likersMatching),
      kind: 'exact',
      target: hotPost.likers,
      unit: 'count',
    }),
    target({
      id: 'hot_post_like_count_repeat',
      label: 'Hot post: like count after the same users like again (idempotent)',
      formula: `c:likes ${hotPost.repeat.likeCount} · ${hotPost.repeat.likersListed} listed`,
      value: hotPost.repeat.likeCount,
      kind: 'exact',
      target: hotPost.likers,
      unit: 'count',
    }),
    ...[fanout, fanoutLarge].map((f, i) =>
      target({
        id: i === 0 ? 'fanout_ratio' : 'fanout_ratio_large',
        label: `Fan-out inbox cells/s vs raw batch put, ${f.batchSize} cells per put (${f.followers.toLocaleString('en-US')} followers)`,
        formula: `${f.fanoutCellsPerSec} / ${f.rawPutCellsPerSec} cells/s · ${Math.round(f.requestsPerPost * 10) / 10} requests per post (packed audience built)`,
        value: f.ratio,
        kind: 'min',
        target: 0.7,
        unit: '%',
      }),
    ),
    ...[fanout, fanoutLarge].map((f, i) =>
      target({
        id: i === 0 ? 'fanout_ratio_cold' : 'fanout_ratio_large_cold',
        label: `  same, the first post after the follower list changed (followers scanned, packs built)`,
        formula: `${f.cold.ms} ms for ${f.followers} cells · ${f.cold.requests} requests`,
        value: f.cold.ratio,
        kind: 'info',
        target: 0,
        unit: '%',
      }),
    ),
    ...groupFanout.groups.map((g) =>
      target({
        id: `fanout_ratio_groups_${g.groups}`,
        label: `Fan-out vs raw batch put, the ${g.followers.toLocaleString('en-US')}-follower author in ${g.groups.toLocaleString('en-US')} ordinary groups of followers`,
        formula: `${g.fanoutCellsPerSec} / ${g.rawPutCellsPerSec} cells/s · ${Math.round(g.requestsPerPost * 10) / 10} requests per post`,
        value: g.ratio,
        kind: 'info',
        target: 0,
        unit: '%',
      }),
    ),
    ...groupFanout.special.flatMap((g) => [
      target({
        id: `fanout_ratio_special_${g.groups}`,
        label: `Fan-out vs raw batch put, the ${g.followers.toLocaleString('en-US')}-follower author in ${g.groups.toLocaleString('en-US')} followers' 特别关注`,
        formula: `${g.fanoutCellsPerSec} / ${g.rawPutCellsPerSec} cells/s · ${Math.round(g.requestsPerPost * 10) / 10} requests per post`,
        value: g.ratio,
        kind: 'info',
        target: 0,
        unit: '%',
      }),
      target({
        id: `special_notice_ms_${g.groups}`,
        label: `  publish → the last of ${g.groups.toLocaleString('en-US')} 特别关注 notices written, p50 (${g.reps} posts)`,
        formula: `${g.noticesPerPostMin} notices a post; ${g.noticeMs.join(', ')} ms`,
        value: g.noticeMsMedian!,
        kind: 'info',
        target: 0,
        unit: 'ms',
      }),
    ]),
    target({
      id: 'lag_p50',
      label: `Publish → visible in the last of ${lag.followers.toLocaleString('en-US')} followers, p50 (${lag.runs.length} posts, ${lag.workerConcurrency} worker invocations at once, ${CORES} cores)`,
      formula: `last-follower lag p50 of ${lag.runs.map((r) => r.lastMs).join(', ')} ms`,
      value: lag.lastMsMedian,
      kind: 'max',
      target: 3000,
      unit: 'ms',
    }),
    target({
      id: 'lag_p99',
      label: `  same, p99`,
      formula: `nearest rank over ${lag.runs.length} posts`,
      value: lag.lastMsP99,
      kind: 'info',
      target: 0,
      unit: 'ms',
    }),
    target({
      id: 'backfill_ratio',
      label: `Follow backfill rows examined: seed full scan / ours (${backfill.final.tablePosts.toLocaleString('en-US')} posts)`,
      formula: backfillFormula(backfill.final),
      value: backfill.final.rowsRatio,
      kind: 'min',
      target: 100,
      unit: '×',
      log: true,
    }),
    ...backfill.checkpoints.slice(0, -1).map((cp) =>
      target({
        id: `backfill_ratio_${cp.tablePosts >= 1000 ? `${Math.round(cp.tablePosts / 1000)}k` : cp.tablePosts}`,
        label: `  same at ${cp.tablePosts.toLocaleString('en-US')} posts`,
        formula: backfillFormula(cp),
        value: cp.rowsRatio,
        kind: 'info',
        target: 0,
        unit: '×',
        log: true,
      }),
    ),
    // The per-route table: a read's depth against its issue-22 bound (2; 3 with a celebrity
    // merge), each route's p99 against the floor's row-get p99 as information.
    ...routes.routes.flatMap((r) => {
      const slug = r.route
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_|_$/g, '');
      return [
        target({
          id: `route_${slug}_round_trips`,
          label: `Route ${r.route}: sequential HBase round trips (worst of ${r.samples})`,
          formula: `${r.requests.mean} requests mean, ${r.requests.max} max · p50 ${r.latency.medianMs} ms, p99 ${r.latency.p99Ms} ms`,
          value: r.sequentialRoundTrips.max,
          kind: r.kind === 'read' ? 'max' : 'info',
          target: r.kind === 'read' ? (r.route.includes('celebrity') ? 3 : 2) : 0,
          unit: 'requests',
        }),
        target({
          id: `route_${slug}_p99_ratio`,
          label: `  ${r.route}: p99 / raw row-get p99`,
          formula: `${r.latency.p99Ms} ms / ${routes.floor.p99Ms} ms (p50 ${r.p50Ratio}×)`,
          value: r.p99Ratio,
          kind: 'info',
          target: 0,
          unit: '×',
        }),
      ];
    }),
    target({
      id: 'seed_read_p50_ratio',
      label: `Timeline read p50: seed 000 read path / our home page (${seedRead.readers} readers)`,
      formula: `${seedRead.seed.medianMs} ms / ${seedRead.ours.medianMs} ms`,
      value: seedRead.p50Ratio,
      kind: 'info',
      target: 0,
      unit: '×',
    }),
    target({
      id: 'seed_read_p99_ratio',
      label: `Timeline read p99: seed 000 read path / our home page`,
      formula: `${seedRead.seed.p99Ms} ms / ${seedRead.ours.p99Ms} ms`,
      value: seedRead.p99Ratio,
      kind: 'info',
      target: 0,
      unit: '×',
    }),
    target({
      id: 'memory_retained_ratio',
      label: `Fan-out worker retained heap (after GC), ${memory.large.followers.toLocaleString('en-US')} vs ${memory.small.followers.toLocaleString('en-US')} followers`,
      formula: `${memory.large.heapAfterGcMB} MB / ${memory.small.heapAfterGcMB} MB`,
      value: memory.large.heapAfterGcMB / memory.small.heapAfterGcMB,
      kind: 'band',
      target: 0.1,
      unit: '×',
    }),
    target({
      id: 'memory_peak_rss_share',
      label: `Fan-out worker peak RSS at ${memory.large.followers.toLocaleString('en-US')} followers / the function's memory (${WORKER_MEMORY_MB} MB)`,
      formula: `${memory.large.peakRssMB} MB / ${WORKER_MEMORY_MB} MB`,
      value: memory.large.peakRssMB / WORKER_MEMORY_MB,
      kind: 'max',
      target: 0.5,
      unit: '%',
    }),
    target({
      id: 'memory_ratio',
      label: `  peak RSS, ${memory.large.followers.toLocaleString('en-US')} vs ${memory.small.followers.toLocaleString('en-US')} followers`,
      formula: `${memory.large.peakRssMB} MB / ${memory.small.peakRssMB} MB`,
      value: memory.peakRssRatio,
      kind: 'info',
      target: 0,
      unit: '×',
    }),
  ];

  const metrics: Record<string, number> = {
    wall_seconds: wallSeconds,
    floor_row_get_p50_ms: floor.rowGet.medianMs,
    floor_row_get_p99_ms: floor.rowGet.p99Ms,
    floor_multiget20_p50_ms: floor.multiGet20.medianMs,
    floor_multiget20_p99_ms: floor.multiGet20.p99Ms,
    ...Object.fromEntries(floor.batchPut.map((b) => [`floor_put_${b.batchSize}_cells_per_s`, b.cellsPerSec])),
    floor_timeline_p50_ms: timeline.floor.medianMs,
    floor_timeline_p99_ms: timeline.floor.p99Ms,
    graph_users: graph.handles.length,
    graph_edges: graph.edges,
    graph_posts: graph.postCount,
    graph_max_followers: followerCounts[0]!,
    graph_pool_followers: pool.handles.length,
    graph_load_cells: load.cells,
    graph_load_seconds: Math.round(load.seconds * 10) / 10,
    graph_load_cells_per_s: Math.round(load.cells / load.seconds),
    timeline_p50_ms: timeline.useCase.medianMs,
    timeline_p99_ms: timeline.useCase.p99Ms,
    timeline_p50_ratio: timeline.p50Ratio,
    timeline_p99_ratio: timeline.p99Ratio,
    timeline_floor_requests_per_page_max: timeline.floorRequestsPerPage.max,
    timeline_floor_sequential_round_trips_max: timeline.floorSequentialRoundTrips.max,
    timeline_requests_per_page_mean: timeline.requestsPerPage.mean,
    timeline_requests_per_page_max: timeline.requestsPerPage.max,
    timeline_sequential_round_trips_max: timeline.sequentialRoundTrips.max,
    newer_check_p50_ms: timeline.newer.medianMs,
    newer_check_p99_ms: timeline.newer.p99Ms,
    newer_check_p50_ratio: timeline.newerP50Ratio,
    newer_check_p99_ratio: timeline.newerP99Ratio,
    newer_check_sequential_round_trips_max: timeline.newerSequentialRoundTrips.max,
    timeline_inbox_cells_mean: timeline.inboxCells.mean,
    timeline_short_pages: timeline.shortPages,
    timeline_seeded_likes: timeline.seeded.likes,
    timeline_seeded_counted_posts: timeline.seeded.countedPosts,
    timeline_liked_per_page_mean: timeline.likedPerPage.mean,
    timeline_counted_per_page_mean: timeline.countedPerPage.mean,
    hot_post_likers: hotPost.likers,
    hot_post_concurrency: hotPost.concurrency,
    hot_post_likes_per_s: hotPost.first.likesPerSec,
    hot_post_like_p50_ms: hotPost.first.perLike.medianMs,
    hot_post_like_p99_ms: hotPost.first.perLike.p99Ms,
    hot_post_requests_per_like: hotPost.first.requestsPerLike,
    hot_post_errors: hotPost.first.errors,
    hot_post_like_count: hotPost.first.likeCount,
    hot_post_likers_listed: hotPost.first.likersListed,
    hot_post_repeat_likes_per_s: hotPost.repeat.likesPerSec,
    hot_post_repeat_like_p50_ms: hotPost.repeat.perLike.medianMs,
    hot_post_repeat_like_p99_ms: hotPost.repeat.perLike.p99Ms,
    hot_post_repeat_requests_per_like: hotPost.repeat.requestsPerLike,
    hot_post_repeat_errors: hotPost.repeat.errors,
    hot_post_repeat_like_count: hotPost.repeat.likeCount,
    hot_post_repeat_likers_listed: hotPost.repeat.likersListed,
    hot_post_exact: hotPost.exact ? 1 : 0,
    ...Object.fromEntries(
      routes.routes.flatMap((r) => {
        const slug = r.route
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_|_$/g, '');
        return [
          [`route_${slug}_p50_ms`, r.latency.medianMs],
          [`route_${slug}_p99_ms`, r.latency.p99Ms],
          [`route_${slug}_p50_ratio`, r.p50Ratio],
          [`route_${slug}_p99_ratio`, r.p99Ratio],
          [`route_${slug}_requests_max`, r.requests.max],
          [`route_${slug}_round_trips_max`, r.sequentialRoundTrips.max],
        ];
      }),
    ),
    fanout_cells_per_s: fanout.fanoutCellsPerSec,
    fanout_raw_put_cells_per_s: fanout.rawPutCellsPerSec,
    fanout_ratio: fanout.ratio,
    fanout_requests_per_post: fanout.requestsPerPost,
    fanout_cold_ratio: fanout.cold.ratio,
    fanout_cold_ms: fanout.cold.ms,
    fanout_large_followers: fanoutLarge.followers,
    fanout_large_cells_per_s: fanoutLarge.fanoutCellsPerSec,
    fanout_large_raw_put_cells_per_s: fanoutLarge.rawPutCellsPerSec,
    fanout_large_ratio: fanoutLarge.ratio,
    fanout_large_requests_per_post: fanoutLarge.requestsPerPost,
    fanout_large_cold_ratio: fanoutLarge.cold.ratio,
    fanout_large_cold_ms: fanoutLarge.cold.ms,
    fanout_large_messages_per_post: fanoutLarge.messagesPerPost,
    ...Object.fromEntries(
      [...groupFanout.groups, ...groupFanout.special].flatMap((g) => [
        [`fanout_${g.kind}_${g.groups}_cells_per_s`, g.fanoutCellsPerSec],
        [`fanout_${g.kind}_${g.groups}_raw_put_cells_per_s`, g.rawPutCellsPerSec],
        [`fanout_${g.kind}_${g.groups}_ratio`, g.ratio],
        [`fanout_${g.kind}_${g.groups}_requests_per_post`, g.requestsPerPost],
        ...(g.kind === 'special'
          ? [
              [`special_${g.groups}_notice_ms_median`, g.noticeMsMedian!],
              [`special_${g.groups}_notice_ms_max`, g.noticeMsMax!],
              [`special_${g.groups}_notices_per_post`, g.noticesPerPostMin],
            ]
          : []),
      ]),
    ),
    fanout_groups_setup_seconds: groupFanout.setupSeconds,
    lag_followers: lag.followers,
    lag_worker_concurrency: lag.workerConcurrency,
    lag_last_follower_ms_p99: lag.lastMsP99,
    lag_last_follower_ms_median: lag.lastMsMedian,
    lag_last_follower_ms_max: lag.lastMsMax,
    lag_first_follower_ms_median: lag.firstMsMedian,
    lag_publish_ms_median: lag.publishMsMedian,
    backfill_table_posts: backfill.final.tablePosts,
    backfill_ours_rows_read: backfill.final.oursRowsRead,
    backfill_ours_content_rows_read: backfill.final.oursContentRowsRead,
    backfill_ours_posts_backfilled: backfill.final.oursPostsBackfilled,
    backfill_ours_wall_ms: backfill.final.oursWallMs,
    backfill_seed_rows_examined: backfill.final.seedRowsExamined,
    backfill_seed_rows_examined_measured: backfill.final.seedRowsExaminedMeasured ? 1 : 0,
    ...(backfill.final.oursRowsExamined !== null
      ? { backfill_ours_rows_examined: backfill.final.oursRowsExamined }
      : {}),
    ...(backfill.final.seedRowsFiltered !== null
      ? { backfill_seed_rows_filtered: backfill.final.seedRowsFiltered }
      : {}),
    ...Object.fromEntries(
      backfill.checkpoints.flatMap((cp) => {
        const at = `at_${cp.tablePosts}`;
        return [
          [`backfill_ours_rows_read_${at}`, cp.oursRowsRead],
          ...(cp.oursRowsExamined !== null ? [[`backfill_ours_rows_examined_${at}`, cp.oursRowsExamined]] : []),
          [`backfill_seed_rows_examined_${at}`, cp.seedRowsExamined],
          [`backfill_rows_ratio_${at}`, cp.rowsRatio],
        ];
      }),
    ),
    seed_read_p50_ms: seedRead.seed.medianMs,
    seed_read_p99_ms: seedRead.seed.p99Ms,
    seed_read_ours_p50_ms: seedRead.ours.medianMs,
    seed_read_ours_p99_ms: seedRead.ours.p99Ms,
    seed_read_p50_ratio: seedRead.p50Ratio,
    seed_read_p99_ratio: seedRead.p99Ratio,
    seed_read_posts_per_read_mean: seedRead.seedPostsPerRead.mean,
    seed_read_requests_per_read_mean: seedRead.seedRequestsPerRead.mean,
    seed_read_sequential_round_trips_max: seedRead.seedSequentialRoundTrips.max,
    seed_read_ours_posts_per_page_mean: seedRead.oursPostsPerPage.mean,
    backfill_seed_rows_returned: backfill.final.seedRowsReturned,
    backfill_seed_wall_ms: backfill.final.seedWallMs,
    backfill_rows_ratio: backfill.final.rowsRatio,
    backfill_wall_ratio: backfill.final.wallRatio,
    backfill_ours_rows_read_small_table: backfill.checkpoints[0]!.oursRowsRead,
    backfill_seed_wall_ms_small_table: backfill.checkpoints[0]!.seedWallMs,
    backfill_write_seconds: backfill.writeSeconds,
    memory_small_peak_rss_mb: memory.small.peakRssMB,
    memory_large_peak_rss_mb: memory.large.peakRssMB,
    memory_peak_rss_ratio: memory.peakRssRatio,
    memory_small_peak_heap_mb: memory.small.peakHeapUsedMB,
    memory_large_peak_heap_mb: memory.large.peakHeapUsedMB,
    memory_peak_heap_ratio: memory.peakHeapRatio,
    memory_small_heap_after_gc_mb: memory.small.heapAfterGcMB,
    memory_large_heap_after_gc_mb: memory.large.heapAfterGcMB,
  };

  const result = {
    at: new Date().toISOString(),
    profile: s.profile,
    hbaseVersion,
    restUrl,
    node: process.version,
    cores: CORES,
    wallSeconds,
    settings: s,
    limits,
    metrics,
    targets,
    floor: { ...floor, timeline: { shape: TIMELINE_FLOOR, ...timeline.floor } },
    graph: {
      users: graph.handles.length,
      edges: graph.edges,
      posts: graph.postCount,
      topFollowerCounts: followerCounts.slice(0, 10),
      medianFollowers: followerCounts[Math.floor(followerCounts.length / 2)],
      meanFollowing: Math.round((graph.edges / graph.handles.length) * 10) / 10,
      pool: { followers: pool.handles.length, authors: pool.authors },
      load,
    },
    timeline,
    seedRead,
    hotPost,
    routes,
    fanout,
    fanoutLarge,
    groupFanout,
    lag,
    backfill,
    memory,
  };

  mkdirSync(s.outDir, { recursive: true });
  writeFileSync(outPath(s, 'json'), `${JSON.stringify(result, null, 2)}\n`);
  const subtitle = `${s.profile} profile · ${CORES} cores · HBase ${hbaseVersion} via REST · ${graph.handles.length} users, ${graph.edges.toLocaleString('en-US')} follows · ${new Date().toISOString().slice(0, 16)}Z · wall ${wallSeconds} s`;
  writeFileSync(outPath(s, 'svg'), chartSvg('weibo-serverless feed benchmark: measured vs target', subtitle, targets));
  if (refreshBenchmarksPage(s.outDir)) console.log('rewrote docs/benchmarks.md');

  printFloor(floor);
  printTable(
    `Feed benchmark (${s.profile}): ${graph.handles.length} users, ${graph.edges} follows (top ${followerCounts.slice(0, 3).join(', ')} followers), ${graph.postCount} posts, loaded in ${load.seconds.toFixed(1)} s`,
    ['figure', 'measured', 'target', 'result'],
    [
      ...targets.map((t) => [t.label, formatValue(t), formatTarget(t), resultWord(t)]),
      [
        `  timeline p50 / floor p50 (${timeline.useCase.medianMs} / ${timeline.floor.medianMs} ms)`,
        formatValue({ value: timeline.p50Ratio, unit: '×' }),
        '—',
        'info',
      ],
      [
        `  timeline p99 / floor p99 (${timeline.useCase.p99Ms} / ${timeline.floor.p99Ms} ms; ${TIMELINE_FLOOR})`,
        formatValue({ value: timeline.p99Ratio, unit: '×' }),
        '—',
        'info',
      ],
      [
        `  per page: ${timeline.likedPerPage.mean.toFixed(1)} posts liked by the reader, ${timeline.countedPerPage.mean.toFixed(1)} with counts (${timeline.seeded.likes} likes seeded)`,
        `${timeline.requestsPerPage.mean.toFixed(1)} req`,
        '—',
        'info',
      ],
      [
        `Hot-post likes/s, ${hotPost.likers} users at once (${hotPost.first.requestsPerLike} requests per like)`,
        `${hotPost.first.likesPerSec}/s`,
        '—',
        'info',
      ],
      [`  per like p50 / p99`, `${hotPost.first.perLike.medianMs} / ${hotPost.first.perLike.p99Ms} ms`, '—', 'info'],
      [
        `  repeat round (idempotent): likes/s, p50 / p99`,
        `${hotPost.repeat.likesPerSec}/s, ${hotPost.repeat.perLike.medianMs} / ${hotPost.repeat.perLike.p99Ms} ms`,
        '—',
        'info',
      ],
      [
        `  fan-out worker peak heap, ${memory.large.peakHeapUsedMB} / ${memory.small.peakHeapUsedMB} MB`,
        formatValue({ value: memory.peakHeapRatio, unit: '×' }),
        '—',
        'info',
      ],
      [
        `  fan-out worker heap after GC, ${memory.large.heapAfterGcMB} / ${memory.small.heapAfterGcMB} MB`,
        formatValue({ value: memory.large.heapAfterGcMB / memory.small.heapAfterGcMB, unit: '×' }),
        '—',
        'info',
      ],
      [
        `  backfill wall time: seed ${backfill.final.seedWallMs} ms / ours ${backfill.final.oursWallMs} ms`,
        formatValue({ value: backfill.final.wallRatio, unit: '×' }),
        '—',
        'info',
      ],
      ...backfill.checkpoints.map((cp) => [
        `  backfill at ${cp.tablePosts.toLocaleString('en-US')} posts: ours read ${cp.oursRowsRead} rows${cp.oursRowsExamined !== null ? ` (examined ${cp.oursRowsExamined})` : ''}; seed examined ${cp.seedRowsExamined.toLocaleString('en-US')}${cp.seedRowsFiltered !== null ? ` (${cp.seedRowsFiltered.toLocaleString('en-US')} filtered out + ${cp.seedRowsPassed} passed)` : ' (table size, NOT measured)'}`,
        formatValue({ value: cp.rowsRatio, unit: '×' }),
        '—',
        'info',
      ]),
      [
        `  seed read path: ${seedRead.seedPostsPerRead.mean} posts/read (${seedRead.versions} per followee, grouped by author: ${seedRead.seedGroupedByAuthor ? 'yes' : 'NO'}), ${seedRead.seedRequestsPerRead.mean} req; ours ${seedRead.oursPostsPerPage.mean} posts/page, ${seedRead.oursRequestsPerPage.mean} req`,
        `${seedRead.seed.medianMs} / ${seedRead.ours.medianMs} ms p50`,
        '—',
        'info',
      ],
      [
        `Publish → visible in the last follower's inbox (${lag.followers} followers, median of ${lag.runs.length})`,
        `${lag.lastMsMedian} ms`,
        '—',
        'info',
      ],
    ],
  );
  printTable(
    `Per route, through the real use cases (${s.routeSamples} calls each; floor: raw row get p50 ${routes.floor.medianMs} / p99 ${routes.floor.p99Ms} ms)`,
    ['route', 'p50 ms', 'p99 ms', 'p50 / floor', 'p99 / floor', 'requests (max)', 'round trips (max)'],
    routes.routes.map((r) => [
      r.route,
      r.latency.medianMs,
      r.latency.p99Ms,
      `${r.p50Ratio}×`,
      `${r.p99Ratio}×`,
      `${r.requests.mean} (${r.requests.max})`,
      `${r.sequentialRoundTrips.mean} (${r.sequentialRoundTrips.max})`,
    ]),
  );
  printTable(
    `Where one fan-out post's HBase time goes (${fanout.followers} followers, ${Math.round(fanout.requestsPerPost * 10) / 10} requests per post)`,
    ['request kind', 'requests/post', 'ms/post'],
    fanout.requestKinds.map((k) => [
      k.kind,
      Math.round((k.requests / fanout.reps) * 10) / 10,
      Math.round((k.totalMs / fanout.reps) * 10) / 10,
    ]),
  );
  printTable(
    `Where the hot post's likes spend HBase time (${hotPost.likers} likes, ${hotPost.concurrency} in flight; first round / repeat)`,
    ['request kind', 'requests/like', 'ms/like', 'repeat requests/like', 'repeat ms/like'],
    [...new Set([...hotPost.first.requestKinds, ...hotPost.repeat.requestKinds].map((k) => k.kind))].map((kind) => {
      const first = hotPost.first.requestKinds.find((k) => k.kind === kind);
      const again = hotPost.repeat.requestKinds.find((k) => k.kind === kind);
      const per = (x: number) => Math.round((x / hotPost.likers) * 10) / 10;
      return [
        kind,
        per(first?.requests ?? 0),
        per(first?.totalMs ?? 0),
        per(again?.requests ?? 0),
        per(again?.totalMs ?? 0),
      ];
    }),
  );
  console.log(`\nwall time ${wallSeconds} s · JSON ${outPath(s, 'json')} · chart ${outPath(s, 'svg')}`);
} catch (err) {
  process.stderr.write(`\nfeed bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
  await hb.close();
}
// Pooled keep-alive connections (the worker's composition, the SQS clients) would hold the
// process open for their idle timeout.
process.exit(process.exitCode ?? 0);
