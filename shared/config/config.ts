// shared/config/config.ts — the one place process.env is read. Parsed once with zod; a missing
// or malformed variable fails fast with a message naming it, instead of failing later in HBase.
import { z } from 'zod';
import type { WriteAction } from '../ports/reaction-store.js';

const EnvSchema = z.object({
  HBASE_REST_URL: z.url().default('http://127.0.0.1:18080'),
  HBASE_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/, 'HBase namespace: letters, digits, underscore')
    .default('weibo'),
  HBASE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // For a gateway fronted by a proxy that wants credentials (e.g. "Basic …"); from SSM when deployed.
  HBASE_AUTHORIZATION: z.string().optional(),
  // Token signing secret: an SSM SecureString when deployed, an env var locally. Optional here
  // so tools that never sign tokens (the schema command) run without it; tokenSettings() insists.
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  // Login throttling: after this many consecutive failures the handle is locked, doubling each time.
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(60),
  // Feed bounds (product.md "Everything bounded").
  FANOUT_CHUNK_SIZE: z.coerce.number().int().min(1).max(5000).default(1000),
  FANOUT_CHUNKS_PER_MESSAGE: z.coerce.number().int().min(1).max(100).default(5),
  BACKFILL_LIMIT: z.coerce.number().int().min(0).max(1000).default(200),
  INBOX_CAP: z.coerce.number().int().min(10).default(800),
  MAX_FOLLOWING: z.coerce.number().int().min(1).default(5000),
  // Celebrity hybrid: authors with at least this many followers are merged at read time.
  CELEBRITY_FOLLOWERS: z.coerce.number().int().min(1).default(10_000),
  // Readers who have not read their timeline for this long get no fan-out; their inbox is rebuilt on return.
  INACTIVE_AFTER_SECONDS: z.coerce.number().int().min(60).default(30 * 24 * 3600),
  // The settle window: longer than any one operation's steps can take (the function timeouts),
  // so work that read an edge before a follow/unfollow has landed when that edge's settle
  // message runs. Every reader's view converges within it (shared/schema/consistency.md).
  SETTLE_SECONDS: z.coerce.number().int().min(1).max(900).default(60),
  // Per-user write limits, per fixed one-minute window (429 + Retry-After past them). Likes count
  // likes and unlikes together: toggling is a write too.
  COMMENTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  LIKES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  REPOSTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  // The fan-out queue (infra/queue-settings.cjs sets both per stage). SQS_ENDPOINT is set only
  // locally (ElasticMQ); empty when deployed, where the SDK's regional endpoint is right.
  FANOUT_QUEUE_URL: z.url().optional(),
  SQS_ENDPOINT: z.string().optional(),
  // Scheduled jobs (functions/schedule, shared/use-cases/jobs). Rows one invocation handles
  // before it hands the rest to a fresh invocation of itself; a run stops after JOB_MAX_STEPS.
  OUTBOX_CAP: z.coerce.number().int().min(10).default(200),
  JOB_ROWS_PER_STEP: z.coerce.number().int().min(1).max(5000).default(500),
  JOB_MAX_STEPS: z.coerce.number().int().min(1).default(10_000),
  REGEN_STUCK_SECONDS: z.coerce.number().int().min(1).default(600),
  // serverless-offline's Lambda port, set only locally (infra/queue-settings.cjs); empty when
  // deployed, where the SDK's regional endpoint is right. The DLQ the report job reads.
  LAMBDA_ENDPOINT: z.string().optional(),
  FANOUT_DLQ_URL: z.url().optional(),
});

export type Config = z.infer<typeof EnvSchema>;

let cached: Config | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

/** The process-wide configuration, parsed on first use. */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

export function tokenSettings(cfg: Config = config()): { secret: string; ttlSeconds: number } {
  if (!cfg.JWT_SECRET) throw new Error('Invalid configuration: JWT_SECRET is required to issue or verify tokens');
  return { secret: cfg.JWT_SECRET, ttlSeconds: cfg.TOKEN_TTL_SECONDS };
}

export interface FeedLimits {
  fanoutChunkSize: number;
  fanoutChunksPerMessage: number;
  backfillLimit: number;
  inboxCap: number;
  maxFollowing: number;
  celebrityFollowers: number;
  inactiveAfterMs: number;
  /** Delay of the settle message every follow/unfollow sends (see SETTLE_SECONDS). */
  settleSeconds: number;
  /** Writes per user per one-minute window. */
  writesPerMinute: Record<WriteAction, number>;
}

export function feedLimits(cfg: Config = config()): FeedLimits {
  return {
    fanoutChunkSize: cfg.FANOUT_CHUNK_SIZE,
    fanoutChunksPerMessage: cfg.FANOUT_CHUNKS_PER_MESSAGE,
    backfillLimit: cfg.BACKFILL_LIMIT,
    inboxCap: cfg.INBOX_CAP,
    maxFollowing: cfg.MAX_FOLLOWING,
    celebrityFollowers: cfg.CELEBRITY_FOLLOWERS,
    inactiveAfterMs: cfg.INACTIVE_AFTER_SECONDS * 1000,
    settleSeconds: cfg.SETTLE_SECONDS,
    writesPerMinute: { comment: cfg.COMMENTS_PER_MINUTE, like: cfg.LIKES_PER_MINUTE, repost: cfg.REPOSTS_PER_MINUTE },
  };
}
