// shared/config/config.ts — the one place process.env is read. Parsed once with zod; a missing
// or malformed variable fails fast with a message naming it, instead of failing later in HBase.
import * as z from 'zod';
import type { FeedLimits } from '../domain/limits.js';
import { operationBudgetMs } from '../runtime/deadline.js';
import { SESSION_TTL_SECONDS } from '../domain/limits.js';

const EnvSchema = z.object({
  HBASE_REST_URL: z.url().default('http://127.0.0.1:18080'),
  HBASE_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/, 'HBase namespace: letters, digits, underscore')
    .default('weibo'),
  // Per HBase request; never past the invocation's deadline (shared/runtime/deadline.ts has the arithmetic).
  HBASE_TIMEOUT_MS: z.coerce.number().int().positive().default(3_000),
  // Secrets. Deployed stages set only the *_PARAMETER names (SSM SecureStrings, read at run time
  // by shared/config/secrets.ts); the local stage sets the values themselves. JWT_SECRET is
  // optional here so tools that never sign tokens (the schema command) run without one.
  HBASE_AUTHORIZATION: z.string().optional(),
  HBASE_AUTHORIZATION_PARAMETER: z.string().startsWith('/').optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  // The key before the last rotation: still accepted, never used to sign.
  JWT_PREVIOUS_SECRET: z.string().min(32, 'JWT_PREVIOUS_SECRET must be at least 32 characters').optional(),
  JWT_SECRET_PARAMETER: z.string().startsWith('/').optional(),
  JWT_PREVIOUS_SECRET_PARAMETER: z.string().startsWith('/').optional(),
  // How long a warm container keeps a secret it read: a rotated key reaches every container within it.
  SECRETS_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
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
  INACTIVE_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 24 * 3600),
  // The settle window W: every request and fan-out invocation sends its last HBase call within
  // the operation budget derived from it (shared/runtime/deadline.ts), so work that read an edge
  // before a follow/unfollow has landed when that edge's settle
  // message runs. Every reader's view converges within it (docs/consistency.md).
  // At least 5 s: below it the budget, (W − 3.5 s) / 2, leaves a request no time at all.
  SETTLE_SECONDS: z.coerce.number().int().min(5).max(900).default(60),
  /** How long a container reuses the hot feed's ranking (use-cases/hot.ts); the job replaces it every 5 minutes. */
  HOT_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(60),
  // Per-user write limits, per fixed one-minute window (429 + Retry-After past them). Likes count
  // likes and unlikes together: toggling is a write too.
  COMMENTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  LIKES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  REPOSTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  // Private messages a user may send, and conversations a user may begin, per minute.
  MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  CONVERSATIONS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
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
  // Login ceiling per handle across all source addresses (shared/use-cases/log-in.ts): failures
  // per fixed window. Much higher than LOGIN_MAX_FAILURES, which counts per (handle, source).
  LOGIN_GLOBAL_MAX_FAILURES: z.coerce.number().int().min(1).default(100),
  LOGIN_GLOBAL_WINDOW_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  // Refresh tokens (shared/use-cases/sessions.ts): each rotation gives the new token this long;
  // the sessions table's HBase TTL is the hard cap.
  // scrypt cost of NEW password hashes, as log2(N). Unset everywhere but the local stage, which
  // sets 15 (infra/stage-settings.cjs): serverless-offline runs handlers in worker threads, where
  // a 128 MiB scrypt (N=2^17) intermittently stalls the worker past the 10 s Lambda timeout
  // (seen in test/e2e/accounts.test.ts; never in-process, where the integration tests hash at
  // 2^17). The e2e suite's API sets 12 (test/support/offline-setup.ts): it registers and signs
  // in hundreds of throwaway users on two cores, at 0.14 s of CPU per hash at 2^15. Deployed
  // stages always hash at OWASP's parameters (password.ts PASSWORD_PARAMS): the template never
  // carries this variable (test/packaging/serverless-package.test.ts).
  PASSWORD_SCRYPT_LOG2N: z.coerce.number().int().min(12).max(20).optional(),
  // Where a browser sees the session routes: the web client's origin mounts the API under /api
  // (web/serve.ts locally, the /api/* behaviour of infra/resources/web.yml deployed), so the
  // refresh cookie is scoped to /api/sessions (shared/http/session-cookie.ts). Change both together.
  SESSION_COOKIE_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*$/, 'SESSION_COOKIE_PATH: an absolute URL path')
    .default('/api/sessions'),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(SESSION_TTL_SECONDS).default(SESSION_TTL_SECONDS),
  // The live channel: the management endpoint of the WebSocket API (https://<api>.execute-api.
  // <region>.amazonaws.com/<stage> deployed; serverless-offline's WebSocket port locally), where
  // the worker pushes frames to connections. LIVE_LOCAL=1 locally (dummy credentials).
  LIVE_ENDPOINT: z.string().optional(),
  LIVE_LOCAL: z.enum(['0', '1']).default('0'),
  // Pictures (shared/use-cases/media). The bucket of uploads and variants, the media worker's
  // queue, and the public URL variants are served under (`<base>/media/<id>/<name>.webp`: the
  // CloudFront distribution deployed; the local bucket's URL locally). S3_ENDPOINT is set only
  // locally (infra/local/object-store.ts); deployed the SDK's regional endpoint is right.
  MEDIA_BUCKET: z.string().optional(),
  MEDIA_QUEUE_URL: z.url().optional(),
  MEDIA_BASE_URL: z.url().optional(),
  S3_ENDPOINT: z.string().optional(),
  UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  // How long a presigned upload is valid: minutes, enough for 20 MB on a slow phone link.
  UPLOAD_URL_SECONDS: z.coerce.number().int().min(60).max(3600).default(600),
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

/**
 * The operation budget B of this stage's settle window: no HTTP request or fan-out invocation
 * sends an HBase call later than this after it began (shared/runtime/deadline.ts).
 */
export function operationBudget(cfg: Config = config()): number {
  return operationBudgetMs(cfg.SETTLE_SECONDS * 1000);
}

/** The process-wide configuration, parsed on first use. */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

/** The private messages' write limits (per user, per minute). */
export function messageLimits(cfg: Config = config()) {
  return { writesPerMinute: { message: cfg.MESSAGES_PER_MINUTE, conversation: cfg.CONVERSATIONS_PER_MINUTE } };
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
