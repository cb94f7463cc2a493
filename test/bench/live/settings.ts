// test/bench/live/settings.ts — the live benchmark's knobs: a profile (default or smoke) gives
// every value; `--sockets N` and any LIVE_BENCH_* variable override one. Printed into the JSON so
// a result always says what it measured.
import { join } from 'node:path';

export type LiveProfile = 'default' | 'smoke';

export interface LiveBenchSettings {
  profile: LiveProfile;
  /** Sockets held open, one reader each, all following the one author. */
  sockets: number;
  /** Timed posts, published one at a time once every socket is open (after one untimed warm-up post). */
  posts: number;
  /** Posts the author publishes while every socket is down, before the reconnect storm. */
  missedPosts: number;
  /** Connects in flight at once while the sockets are first opened (the connect figures). */
  connectConcurrency: number;
  /**
   * The reconnect storm: every socket reconnects within this many ms of the others (0: all at
   * the same instant; the web client spreads its reconnects with jitter).
   */
  stormJitterMs: number;
  /** The messages phase: pairs of people, each side with a socket of its own (0: no such phase). */
  messagePairs: number;
  /** Messages each pair exchanges, the two sides in turn, one at a time. */
  messagesPerPair: number;
  /** Readers registered and following the author at once while seeding. */
  seedConcurrency: number;
  /** serverless-offline's fan-out worker invocations at once (npm start runs 4). */
  workerConcurrency: number;
  /**
   * The fan-out worker's timeout (s). Default 30, as deployed; 3 is what `npm start` gives it (the
   * local stage's, tuned for quick redelivery in tests), which leaves it 2 s of HBase work.
   */
  workerTimeoutSeconds: number;
  /** How long one post may take to reach every socket, and the storm to settle, before the run fails. */
  deliveryTimeoutMs: number;
  /** The whole run's limit: past it, everything started is stopped and the run fails. */
  runTimeoutMs: number;
  outDir: string;
  outName: string;
}

const PROFILES: Record<LiveProfile, Omit<LiveBenchSettings, 'profile' | 'outDir' | 'outName'>> = {
  default: {
    sockets: 1000,
    posts: 5,
    missedPosts: 5,
    connectConcurrency: 16,
    stormJitterMs: 0,
    messagePairs: 50,
    messagesPerPair: 4,
    seedConcurrency: 16,
    workerConcurrency: 4,
    workerTimeoutSeconds: 30,
    deliveryTimeoutMs: 120_000,
    runTimeoutMs: 45 * 60_000,
  },
  smoke: {
    sockets: 50,
    posts: 3,
    missedPosts: 3,
    connectConcurrency: 16,
    stormJitterMs: 0,
    messagePairs: 5,
    messagesPerPair: 2,
    seedConcurrency: 16,
    workerConcurrency: 4,
    workerTimeoutSeconds: 30,
    deliveryTimeoutMs: 60_000,
    runTimeoutMs: 15 * 60_000,
  },
};

function int(raw: string | undefined, name: string, fallback: number, min: number): number {
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(v) || v < min)
    throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return v;
}

/** The value after `--flag` (or in `--flag=value`), if given. */
function flag(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const arg = argv[i]!;
  if (arg.includes('=')) return arg.slice(name.length + 1);
  const next = argv[i + 1];
  if (next === undefined || next.startsWith('--')) throw new Error(`${name} needs a value`);
  return next;
}

export function liveBenchSettings(
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv.slice(2),
): LiveBenchSettings {
  if (env.BENCH_PROFILE && !['smoke', 'default'].includes(env.BENCH_PROFILE))
    throw new Error('BENCH_PROFILE must be default or smoke');
  const known = ['--smoke', '--sockets', '--worker-timeout'];
  const unknown = argv.filter((a) => a.startsWith('--') && !known.some((k) => a === k || a.startsWith(`${k}=`)));
  if (unknown.length)
    throw new Error(`unknown option(s) ${unknown.join(' ')}; known: --smoke, --sockets N, --worker-timeout S`);
  const profile: LiveProfile = argv.includes('--smoke') || env.BENCH_PROFILE === 'smoke' ? 'smoke' : 'default';
  const p = PROFILES[profile];
  return {
    profile,
    sockets: int(flag(argv, '--sockets') ?? env.LIVE_BENCH_SOCKETS, '--sockets', p.sockets, 1),
    posts: int(env.LIVE_BENCH_POSTS, 'LIVE_BENCH_POSTS', p.posts, 1),
    missedPosts: int(env.LIVE_BENCH_MISSED_POSTS, 'LIVE_BENCH_MISSED_POSTS', p.missedPosts, 1),
    connectConcurrency: int(
      env.LIVE_BENCH_CONNECT_CONCURRENCY,
      'LIVE_BENCH_CONNECT_CONCURRENCY',
      p.connectConcurrency,
      1,
    ),
    stormJitterMs: int(env.LIVE_BENCH_STORM_JITTER_MS, 'LIVE_BENCH_STORM_JITTER_MS', p.stormJitterMs, 0),
    messagePairs: int(env.LIVE_BENCH_MESSAGE_PAIRS, 'LIVE_BENCH_MESSAGE_PAIRS', p.messagePairs, 0),
    messagesPerPair: int(env.LIVE_BENCH_MESSAGES_PER_PAIR, 'LIVE_BENCH_MESSAGES_PER_PAIR', p.messagesPerPair, 1),
    seedConcurrency: int(env.LIVE_BENCH_SEED_CONCURRENCY, 'LIVE_BENCH_SEED_CONCURRENCY', p.seedConcurrency, 1),
    workerConcurrency: int(env.LIVE_BENCH_WORKER_CONCURRENCY, 'LIVE_BENCH_WORKER_CONCURRENCY', p.workerConcurrency, 1),
    workerTimeoutSeconds: int(
      flag(argv, '--worker-timeout') ?? env.LIVE_BENCH_WORKER_TIMEOUT_SECONDS,
      '--worker-timeout',
      p.workerTimeoutSeconds,
      1,
    ),
    deliveryTimeoutMs: int(
      env.LIVE_BENCH_DELIVERY_TIMEOUT_MS,
      'LIVE_BENCH_DELIVERY_TIMEOUT_MS',
      p.deliveryTimeoutMs,
      1000,
    ),
    runTimeoutMs: int(env.LIVE_BENCH_RUN_TIMEOUT_MS, 'LIVE_BENCH_RUN_TIMEOUT_MS', p.runTimeoutMs, 60_000),
    outDir: env.BENCH_OUT_DIR || (profile === 'smoke' ? 'bench-results' : 'docs/bench'),
    outName: env.BENCH_OUT_NAME || (profile === 'smoke' ? 'live-bench-smoke' : 'live-bench'),
  };
}

export const liveOutPath = (s: LiveBenchSettings) => join(s.outDir, `${s.outName}.json`);
