// test/bench/feed/settings.ts — the feed benchmark's knobs: a profile (default or smoke) gives
// every value, and any BENCH_* variable overrides one. Printed into the JSON so a result always
// says what it measured.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Profile = 'default' | 'smoke';

export interface BenchSettings {
  profile: Profile;
  /** PRNG seed: the same seed builds the same graph. */
  seed: number;
  /** Users of the synthetic social graph. */
  users: number;
  /** Zipf exponent of followee popularity (1 = classic power law). */
  zipf: number;
  /** Median number of users each graph user follows (log-normal spread). */
  medianFollowing: number;
  /** Posts per graph user (uniform in [postsPerUser/2, postsPerUser*3/2]). */
  postsPerUser: number;
  /** Timed raw-floor repetitions (row get, multi-get 20). */
  floorReps: number;
  /** Distinct readers whose first timeline page is timed (each also times the raw floor: inbox get + 2 parallel multi-gets). */
  timelineReaders: number;
  /** Share of each sampled reader's first-page posts the reader has liked (through likePost) before the timing. */
  timelineLikedShare: number;
  /** Distinct users who like ONE post at once in the hot-post phase (each twice: a second, idempotent round). */
  hotLikers: number;
  /** Likes in flight at once in the hot-post phase. */
  hotConcurrency: number;
  /** Timed calls per route class in the per-route table (routes.ts). */
  routeSamples: number;
  /** Followers of the fan-out / lag author. */
  lagFollowers: number;
  /** Posts fanned out in-process for the throughput ratio (each against a raw-put run). */
  fanoutReps: number;
  /** Ordinary groups holding the fan-out author, one per follower: one fan-out case each (ascending). */
  groupCounts: number[];
  /** Followers keeping the fan-out author in 特别关注: one fan-out case each (ascending). */
  specialCounts: number[];
  /** Posts fanned out per group case (each against a raw-put run): their ratios sit in a narrower band than fanoutReps'. */
  groupReps: number;
  /** Posts by the large author (memLarge followers) published through the real queue for the publish → visible lag. */
  lagReps: number;
  /** Worker invocations in flight at once in the lag phase (the SQS event source's maximumConcurrency). */
  workerConcurrency: number;
  lagTimeoutMs: number;
  /** Posts in the seed-style content table (and the same posts in ours) for the backfill comparison. */
  seedPosts: number;
  /** Posts of the followee in the backfill comparison (written first). */
  seedFolloweePosts: number;
  /** Fan-out worker memory: followers of the small and the large author. */
  memSmall: number;
  memLarge: number;
  /** Parallel batch puts while loading data. */
  writeConcurrency: number;
  /** Versions per followee column the seed's read path asks for (seed 000 getAttendsContens: setMaxVersions(5)). */
  seedReadVersions: number;
  /**
   * Rows a scan EXAMINED (returned + filter-rejected) come from the master's region metrics via
   * a Java client on the local stack's jars (cluster-status.ts ExaminedProbe); off, or where it
   * cannot run, the seed scan's rows examined fall back to the table's known size, labelled so.
   */
  examinedProbe: boolean;
  /** The HBase jars the probe runs on (default: the local stack's `$WEIBO_LOCAL_DIR/hbase/lib`). */
  hbaseLib: string;
  /** ZooKeeper of the HBase behind the gateway (default 127.0.0.1:$HBASE_ZK_PORT, 21818). */
  zkHost: string;
  zkPort: number;
  /** Wait for the region server's load report (hbase.regionserver.msginterval, 3 s) before reading counters. */
  statusWaitMs: number;
  outDir: string;
  outName: string;
}

const PROFILES: Record<
  Profile,
  Omit<BenchSettings, 'profile' | 'outDir' | 'outName' | 'examinedProbe' | 'hbaseLib' | 'zkHost' | 'zkPort'>
> = {
  default: {
    seed: 20261121,
    users: 2000,
    zipf: 1.0,
    medianFollowing: 40,
    postsPerUser: 30,
    floorReps: 300,
    timelineReaders: 600,
    timelineLikedShare: 0.3,
    hotLikers: 1000,
    hotConcurrency: 64,
    routeSamples: 100,
    lagFollowers: 10_000,
    // Each rep pairs a fan-out with raw puts of the same cells; a run's gateway is noisy enough
    // that fewer reps move the ratio by ±10 %.
    fanoutReps: 6,
    groupCounts: [100, 1_000],
    specialCounts: [10, 100],
    groupReps: 12,
    lagReps: 5,
    workerConcurrency: 4,
    lagTimeoutMs: 60_000,
    seedPosts: 1_000_000,
    seedFolloweePosts: 500,
    memSmall: 1_000,
    memLarge: 100_000,
    writeConcurrency: 3,
    statusWaitMs: 4_000,
    seedReadVersions: 5,
  },
  smoke: {
    seed: 20261121,
    users: 200,
    zipf: 1.0,
    medianFollowing: 25,
    postsPerUser: 20,
    floorReps: 40,
    timelineReaders: 60,
    timelineLikedShare: 0.3,
    hotLikers: 100,
    hotConcurrency: 64,
    routeSamples: 20,
    lagFollowers: 2_000,
    fanoutReps: 2,
    groupCounts: [10, 40],
    specialCounts: [3, 10],
    groupReps: 2,
    lagReps: 1,
    workerConcurrency: 2,
    lagTimeoutMs: 30_000,
    seedPosts: 20_000,
    seedFolloweePosts: 300,
    memSmall: 1_000,
    memLarge: 10_000,
    writeConcurrency: 3,
    statusWaitMs: 4_000,
    seedReadVersions: 5,
  },
};

const REPO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A list of counts, e.g. BENCH_GROUPS=100,1000: ascending, each at least 1. */
function counts(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const list = raw.split(',').map((x) => Number(x.trim().replaceAll('_', '')));
  if (list.some((v, i) => !Number.isInteger(v) || v < 1 || (i > 0 && v <= list[i - 1]!)))
    throw new Error(`${name} must be ascending whole numbers >= 1, comma-separated, got ${JSON.stringify(raw)}`);
  return list;
}

function num(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw.replaceAll('_', ''));
  if (!Number.isFinite(v) || v < min) throw new Error(`${name} must be a number >= ${min}, got ${JSON.stringify(raw)}`);
  return v;
}

export function benchSettings(
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv.slice(2),
): BenchSettings {
  const profile: Profile = argv.includes('--smoke') || env.BENCH_PROFILE === 'smoke' ? 'smoke' : 'default';
  if (env.BENCH_PROFILE && !['smoke', 'default'].includes(env.BENCH_PROFILE))
    throw new Error(`BENCH_PROFILE must be default or smoke`);
  const p = PROFILES[profile];
  const int = (name: string, fallback: number, min = 1) => Math.round(num(env, name, fallback, min));
  const s: BenchSettings = {
    profile,
    seed: int('BENCH_SEED', p.seed, 0),
    users: int('BENCH_USERS', p.users, 20),
    zipf: num(env, 'BENCH_ZIPF', p.zipf, 0),
    medianFollowing: int('BENCH_MEDIAN_FOLLOWING', p.medianFollowing),
    postsPerUser: int('BENCH_POSTS_PER_USER', p.postsPerUser, 2),
    floorReps: int('BENCH_REPS', p.floorReps, 10),
    timelineReaders: int('BENCH_TIMELINE_READERS', p.timelineReaders, 10),
    timelineLikedShare: num(env, 'BENCH_TIMELINE_LIKED_SHARE', p.timelineLikedShare, 0),
    hotLikers: int('BENCH_HOT_LIKERS', p.hotLikers),
    hotConcurrency: int('BENCH_HOT_CONCURRENCY', p.hotConcurrency),
    routeSamples: int('BENCH_ROUTE_SAMPLES', p.routeSamples),
    lagFollowers: int('BENCH_LAG_FOLLOWERS', p.lagFollowers),
    fanoutReps: int('BENCH_FANOUT_REPS', p.fanoutReps),
    groupCounts: counts(env, 'BENCH_GROUPS', p.groupCounts),
    specialCounts: counts(env, 'BENCH_SPECIAL', p.specialCounts),
    groupReps: int('BENCH_GROUP_REPS', p.groupReps),
    lagReps: int('BENCH_LAG_REPS', p.lagReps),
    workerConcurrency: int('BENCH_WORKER_CONCURRENCY', p.workerConcurrency),
    lagTimeoutMs: int('BENCH_LAG_TIMEOUT_MS', p.lagTimeoutMs, 1000),
    seedPosts: int('BENCH_SEED_POSTS', p.seedPosts, 1000),
    seedFolloweePosts: int('BENCH_SEED_FOLLOWEE_POSTS', p.seedFolloweePosts),
    memSmall: int('BENCH_MEM_SMALL', p.memSmall),
    memLarge: int('BENCH_MEM_LARGE', p.memLarge),
    writeConcurrency: int('BENCH_WRITE_CONCURRENCY', p.writeConcurrency),
    statusWaitMs: int('BENCH_STATUS_WAIT_MS', p.statusWaitMs, 0),
    seedReadVersions: int('BENCH_SEED_READ_VERSIONS', p.seedReadVersions),
    examinedProbe: env.BENCH_EXAMINED_PROBE !== 'off',
    hbaseLib: env.BENCH_HBASE_LIB || join(env.WEIBO_LOCAL_DIR || join(REPO_DIR, '.local'), 'hbase', 'lib'),
    zkHost: env.BENCH_ZK_HOST || '127.0.0.1',
    zkPort: int('HBASE_ZK_PORT', 21818),
    outDir: env.BENCH_OUT_DIR || (profile === 'smoke' ? 'bench-results' : 'docs/bench'),
    outName: env.BENCH_OUT_NAME || (profile === 'smoke' ? 'feed-bench-smoke' : 'feed-bench'),
  };
  if (env.BENCH_EXAMINED_PROBE && !['on', 'off'].includes(env.BENCH_EXAMINED_PROBE))
    throw new Error('BENCH_EXAMINED_PROBE must be on or off');
  if (s.timelineLikedShare > 1) throw new Error('BENCH_TIMELINE_LIKED_SHARE must be between 0 and 1');
  if (s.seedFolloweePosts >= s.seedPosts) throw new Error('BENCH_SEED_FOLLOWEE_POSTS must be below BENCH_SEED_POSTS');
  return s;
}

export const outPath = (s: BenchSettings, ext: 'json' | 'svg') => join(s.outDir, `${s.outName}.${ext}`);
