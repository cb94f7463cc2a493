// test/bench/media/settings.ts — the pictures benchmark's knobs: a profile (default or smoke)
// gives every value, and any MEDIA_BENCH_* variable overrides one. Printed into the JSON so a
// result always says what it measured.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

export type MediaProfile = 'default' | 'smoke';

export interface MediaBenchSettings {
  profile: MediaProfile;
  /** Timed upload → ready samples of the 12 MP photo (each also times the floor on the same file). */
  samples: number;
  /** Untimed samples first: the worker's composition, sharp's first load, the connections. */
  warmup: number;
  /** Photos queued at once and worked off by ONE sequential worker: images per second. */
  throughputImages: number;
  /** Images the 40 MP memory child processes, one after another, as a warm container. */
  memoryRepeat: number;
  /** The timeline graphs (one with nine pictures a post, one without, otherwise identical). */
  timelineUsers: number;
  timelineMedianFollowing: number;
  timelinePostsPerUser: number;
  timelineReaders: number;
  /** Posts written through the real post store at once while seeding the graphs. */
  seedConcurrency: number;
  outDir: string;
  outName: string;
}

const PROFILES: Record<MediaProfile, Omit<MediaBenchSettings, 'profile' | 'outDir' | 'outName'>> = {
  default: {
    samples: 20,
    warmup: 2,
    throughputImages: 10,
    memoryRepeat: 3,
    timelineUsers: 400,
    timelineMedianFollowing: 25,
    timelinePostsPerUser: 10,
    timelineReaders: 200,
    seedConcurrency: 8,
  },
  smoke: {
    samples: 3,
    warmup: 1,
    throughputImages: 3,
    memoryRepeat: 1,
    timelineUsers: 60,
    timelineMedianFollowing: 10,
    timelinePostsPerUser: 4,
    timelineReaders: 20,
    seedConcurrency: 8,
  },
};

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(v) || v < min)
    throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return v;
}

export function mediaBenchSettings(
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv.slice(2),
): MediaBenchSettings {
  if (env.BENCH_PROFILE && !['smoke', 'default'].includes(env.BENCH_PROFILE))
    throw new Error('BENCH_PROFILE must be default or smoke');
  const profile: MediaProfile = argv.includes('--smoke') || env.BENCH_PROFILE === 'smoke' ? 'smoke' : 'default';
  const p = PROFILES[profile];
  return {
    profile,
    samples: int(env, 'MEDIA_BENCH_SAMPLES', p.samples, 1),
    warmup: int(env, 'MEDIA_BENCH_WARMUP', p.warmup, 0),
    throughputImages: int(env, 'MEDIA_BENCH_THROUGHPUT_IMAGES', p.throughputImages, 1),
    memoryRepeat: int(env, 'MEDIA_BENCH_MEMORY_REPEAT', p.memoryRepeat, 1),
    timelineUsers: int(env, 'MEDIA_BENCH_TIMELINE_USERS', p.timelineUsers, 20),
    timelineMedianFollowing: int(env, 'MEDIA_BENCH_TIMELINE_MEDIAN_FOLLOWING', p.timelineMedianFollowing, 3),
    timelinePostsPerUser: int(env, 'MEDIA_BENCH_TIMELINE_POSTS_PER_USER', p.timelinePostsPerUser, 2),
    timelineReaders: int(env, 'MEDIA_BENCH_TIMELINE_READERS', p.timelineReaders, 10),
    seedConcurrency: int(env, 'MEDIA_BENCH_SEED_CONCURRENCY', p.seedConcurrency, 1),
    outDir: env.BENCH_OUT_DIR || (profile === 'smoke' ? 'bench-results' : 'docs/bench'),
    outName: env.BENCH_OUT_NAME || (profile === 'smoke' ? 'media-bench-smoke' : 'media-bench'),
  };
}

export const mediaOutPath = (s: MediaBenchSettings, ext: 'json' | 'svg') => join(s.outDir, `${s.outName}.${ext}`);

const ROOT = new URL('../../../', import.meta.url);

/**
 * processMedia's settings as serverless.yml deploys them: its memory (the peak RSS figure's
 * denominator) and its environment (MALLOC_ARENA_MAX, given to the memory child). serverless.yml
 * lists its functions as `${file(…)}` includes, followed here; `root` is the repository.
 */
export function workerFunctionSettings(root: URL = ROOT): {
  memorySizeMB: number;
  environment: Record<string, string>;
  from: string;
} {
  const sls = yaml.load(readFileSync(new URL('serverless.yml', root), 'utf8')) as {
    functions?: (string | Record<string, unknown>)[] | Record<string, unknown>;
  };
  const entries = Array.isArray(sls.functions) ? sls.functions : [sls.functions ?? {}];
  for (const entry of entries) {
    const file = typeof entry === 'string' ? /^\$\{file\(([^)]+)\)\}$/.exec(entry)?.[1] : undefined;
    const fns = file
      ? (yaml.load(readFileSync(new URL(file, root), 'utf8')) as Record<string, unknown>)
      : (entry as Record<string, unknown>);
    const fn = fns.processMedia as { memorySize?: unknown; environment?: Record<string, string> } | undefined;
    if (!fn) continue;
    const memorySizeMB = Number(fn.memorySize);
    if (!Number.isInteger(memorySizeMB) || memorySizeMB < 128)
      throw new Error(
        `processMedia.memorySize in ${file ?? 'serverless.yml'} is not a memory setting: ${String(fn.memorySize)}`,
      );
    return { memorySizeMB, environment: fn.environment ?? {}, from: file ?? 'serverless.yml' };
  }
  throw new Error('serverless.yml: no processMedia function');
}
