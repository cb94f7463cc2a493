// test/bench/search/settings.ts — the search benchmark's knobs: a profile (default or smoke) gives
// every value; a flag overrides one (--posts 200000, --smoke). Printed into the JSON so a result
// always says what it measured.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type SearchProfile = 'default' | 'smoke';

export interface SearchBenchSettings {
  profile: SearchProfile;
  seed: number;
  /** The small corpus the query figures are first measured on. */
  smallPosts: number;
  /** The big corpus (the small one plus more): query time should not grow with it. */
  posts: number;
  /** Post length in code points, uniform in [minChars, maxChars]. */
  minChars: number;
  maxChars: number;
  /** One post in rareEvery holds the rare word. */
  rareEvery: number;
  /** Authors the posts are spread over. */
  authors: number;
  /** Timed searches per query and corpus (after `warmup` untimed). */
  queryReps: number;
  warmup: number;
  /** Posts published and searched for, one after another, for the publish → searchable lag. */
  lagPosts: number;
  /** The hot job's day: engagements filed over the last 24 hours, on the corpus's newest posts. */
  hotEngagements: number;
  hotPosts: number;
  /** Timed runs of the hot job. */
  hotReps: number;
  /** Posts generated and written per chunk, and batched puts in flight at once. */
  chunkPosts: number;
  writeConcurrency: number;
  /** The HBase jars (the table flush runs on them), ZooKeeper, and the data dir (store files). */
  hbaseLib: string;
  hbaseData: string;
  zkHost: string;
  zkPort: number;
  outDir: string;
  outName: string;
}

const REPO_DIR = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

const PROFILES: Record<
  SearchProfile,
  Omit<SearchBenchSettings, 'profile' | 'hbaseLib' | 'hbaseData' | 'zkHost' | 'zkPort' | 'outDir' | 'outName'>
> = {
  default: {
    seed: 20261128,
    smallPosts: 10_000,
    posts: 1_000_000,
    // 20–40 characters (about 35 index entries a post) keeps a million posts within the bench's
    // 15 minutes on 2 cores; 20–60 writes a third more entries.
    minChars: 20,
    maxChars: 40,
    rareEvery: 5_000,
    authors: 1_000,
    queryReps: 200,
    warmup: 20,
    lagPosts: 100,
    hotEngagements: 300_000,
    hotPosts: 50_000,
    hotReps: 5,
    chunkPosts: 2_000,
    writeConcurrency: 4,
  },
  smoke: {
    seed: 20261128,
    smallPosts: 300,
    posts: 1_500,
    minChars: 20,
    maxChars: 40,
    rareEvery: 250,
    authors: 20,
    queryReps: 10,
    warmup: 2,
    lagPosts: 5,
    hotEngagements: 2_000,
    hotPosts: 40,
    hotReps: 2,
    chunkPosts: 500,
    writeConcurrency: 4,
  },
};

function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const a = argv[i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
}

function count(argv: readonly string[], name: string, fallback: number, min: number): number {
  const raw = flag(argv, name);
  if (raw === undefined) return fallback;
  const v = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer ≥ ${min}, not ${raw}`);
  return v;
}

export function searchBenchSettings(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv.slice(2),
): SearchBenchSettings {
  const profile: SearchProfile = argv.includes('--smoke') || env.BENCH_PROFILE === 'smoke' ? 'smoke' : 'default';
  const p = PROFILES[profile];
  const posts = count(argv, '--posts', p.posts, 1);
  const smallPosts = Math.min(posts, count(argv, '--small-posts', p.smallPosts, 1));
  const local = resolve(REPO_DIR, env.WEIBO_LOCAL_DIR || '.local');
  return {
    profile,
    ...p,
    posts,
    smallPosts,
    queryReps: count(argv, '--reps', p.queryReps, 1),
    lagPosts: count(argv, '--lag-posts', p.lagPosts, 1),
    hbaseLib: env.BENCH_HBASE_LIB || join(local, 'hbase', 'lib'),
    hbaseData: env.BENCH_HBASE_DATA || join(local, 'hbase', 'data', 'root', 'data'),
    zkHost: env.BENCH_ZK_HOST || '127.0.0.1',
    zkPort: Number(env.HBASE_ZK_PORT || 21818),
    outDir: env.BENCH_OUT_DIR || (profile === 'smoke' ? 'bench-results' : 'docs/bench'),
    outName: env.BENCH_OUT_NAME || (profile === 'smoke' ? 'search-bench-smoke' : 'search-bench'),
  };
}
