// shared/composition.ts — the composition root: builds the HBase client and the adapters from
// configuration once per Lambda container (warm invocations reuse the keep-alive connections).
import { HBaseCommentStore } from './adapters/hbase/hbase-comment-store.js';
import { HBaseReactionStore } from './adapters/hbase/hbase-reaction-store.js';
import { HBaseWriteQuota } from './adapters/hbase/hbase-write-quota.js';
import { HBaseBlockStore } from './adapters/hbase/hbase-block-store.js';
import { HBaseNotificationStore } from './adapters/hbase/hbase-notification-store.js';
import { HBaseTopicStore } from './adapters/hbase/hbase-topic-store.js';
import { HBaseCounterStore } from './adapters/hbase/hbase-counter-store.js';
import { HBaseInboxStore } from './adapters/hbase/hbase-inbox-store.js';
import { HBaseCelebrityRegistry, HBaseOutboxStore } from './adapters/hbase/hbase-outbox-store.js';
import { HBaseIdempotencyStore, HBasePostStore } from './adapters/hbase/hbase-post-store.js';
import { HBaseRelationStore } from './adapters/hbase/hbase-relation-store.js';
import { HBasePeopleIndex } from './adapters/hbase/hbase-people-index.js';
import { HBaseAccountRemains } from './adapters/hbase/hbase-account-remains.js';
import type { ErasureDeps } from './use-cases/erase-account.js';
import { HBaseLoginThrottle, HBaseUserStore } from './adapters/hbase/hbase-user-store.js';
import { CachingFaces } from './adapters/memory/caching-faces.js';
import { HBaseSessionStore } from './adapters/hbase/hbase-session-store.js';
import { HBaseMaintenanceStore } from './adapters/hbase/hbase-maintenance-store.js';
import { HBasePostCountStore } from './adapters/hbase/hbase-post-count-store.js';
import { LambdaJobContinuation } from './adapters/lambda/lambda-job-continuation.js';
import { SqsDeadLetterQueue } from './adapters/sqs/sqs-dead-letter-queue.js';
import { SqsFanoutQueue, SqsMediaQueue } from './adapters/sqs/sqs-queues.js';
import { S3MediaObjects } from './adapters/s3/s3-media-objects.js';
import { HBaseMediaStore } from './adapters/hbase/hbase-media-store.js';
import type { MediaDeps } from './use-cases/media/media-deps.js';
import type { Pictures } from './use-cases/media/attach.js';
import { config, feedLimits, type Config } from './config/config.js';
import { RuntimeSecrets } from './config/secrets.js';
import { tokenKeysFrom, type TokenKeys, type TokenSettings } from './auth/tokens.js';
import { currentDeadline } from './runtime/deadline.js';
import { deferToInvocation } from './runtime/invocation-scope.js';
import { HBaseRestClient } from './hbase/index.js';
import { recordHBaseRequest } from './observability/hbase-requests.js';
import type { DeadLetterQueue } from './ports/dead-letter-queue.js';
import type { FanoutQueue } from './ports/fanout-queue.js';
import type { MediaQueue } from './ports/media-queue.js';
import type { FeedDeps } from './use-cases/feed-deps.js';
import type { PeopleDeps } from './use-cases/people.js';

/** The token keys from the secrets as read (config/ reads them; auth/ says what a usable key is). */
export async function tokenKeysOf(secrets: Pick<RuntimeSecrets, 'signingSecrets'>): Promise<TokenKeys> {
  const { current, previous } = await secrets.signingSecrets();
  return tokenKeysFrom(current, previous);
}

export function createDependencies(cfg: Config = config()) {
  const secrets = new RuntimeSecrets(cfg);
  const tokenKeys = () => tokenKeysOf(secrets);
  const hbase = new HBaseRestClient({
    baseUrl: cfg.HBASE_REST_URL,
    timeoutMs: cfg.HBASE_TIMEOUT_MS,
    authorization: () => secrets.hbaseAuthorization(),
    deadline: currentDeadline,
    // Charges each request to the invocation that sent it (Server-Timing, HBase metrics).
    onRequest: recordHBaseRequest,
    // A scanner's delete runs beside the use case's next stage; the invocation awaits it.
    handOff: deferToInvocation,
  });
  return {
    hbase,
    users: new HBaseUserStore(hbase, cfg.HBASE_NAMESPACE),
    people: new HBasePeopleIndex(hbase, cfg.HBASE_NAMESPACE),
    throttle: new HBaseLoginThrottle(hbase, cfg.HBASE_NAMESPACE),
    sessions: new HBaseSessionStore(hbase, cfg.HBASE_NAMESPACE),
    /** The keys access tokens are verified with (read at run time). */
    tokenKeys,
    /** Signing and verifying keys and the access tokens' lifetime. */
    tokens: async (): Promise<TokenSettings> => ({ ...(await tokenKeys()), ttlSeconds: cfg.TOKEN_TTL_SECONDS }),
    refreshTtlSeconds: cfg.REFRESH_TOKEN_TTL_SECONDS,
    /** The refresh cookie's Path (shared/http/session-cookie.ts). */
    sessionCookiePath: cfg.SESSION_COOKIE_PATH,
    loginPolicy: {
      maxFailures: cfg.LOGIN_MAX_FAILURES,
      lockSeconds: cfg.LOGIN_LOCK_SECONDS,
      globalMaxFailures: cfg.LOGIN_GLOBAL_MAX_FAILURES,
      globalWindowSeconds: cfg.LOGIN_GLOBAL_WINDOW_SECONDS,
    },
  };
}

export type Dependencies = ReturnType<typeof createDependencies>;

let cached: Dependencies | undefined;
export function dependencies(): Dependencies {
  cached ??= createDependencies();
  return cached;
}

/** Every HBase-backed port of the feed, for one client and namespace. */
/** `settleMs`: the stage's settle window W (SETTLE_SECONDS), which the packed audience waits out (invariant N). */
export function hbaseFeedStores(hbase: HBaseRestClient, ns: string, opts: { settleMs?: number } = {}) {
  return {
    users: new HBaseUserStore(hbase, ns),
    posts: new HBasePostStore(hbase, ns),
    idempotency: new HBaseIdempotencyStore(hbase, ns),
    relations: new HBaseRelationStore(hbase, ns, opts),
    inbox: new HBaseInboxStore(hbase, ns),
    counters: new HBaseCounterStore(hbase, ns),
    outbox: new HBaseOutboxStore(hbase, ns),
    celebrities: new HBaseCelebrityRegistry(hbase, ns),
    reactions: new HBaseReactionStore(hbase, ns),
    comments: new HBaseCommentStore(hbase, ns),
    quota: new HBaseWriteQuota(hbase, ns),
    blocks: new HBaseBlockStore(hbase, ns),
    notifications: new HBaseNotificationStore(hbase, ns),
    topics: new HBaseTopicStore(hbase, ns),
    feedFaces: new CachingFaces(new HBaseUserStore(hbase, ns), FEED_FACES_TTL_MS),
  };
}

/** How old a name or avatar a feed may show (adapters/memory/caching-faces.ts). */
const FEED_FACES_TTL_MS = 60_000;

let feed: FeedDeps | undefined;
/** The feed use cases' ports, on the same HBase client as dependencies(). */
export function feedDependencies(): FeedDeps {
  if (feed) return feed;
  const cfg = config();
  const { hbase, users } = dependencies();
  const ns = cfg.HBASE_NAMESPACE;
  if (!cfg.FANOUT_QUEUE_URL) throw new Error('Invalid configuration: FANOUT_QUEUE_URL is required for the feed');
  feed = {
    ...hbaseFeedStores(hbase, ns, { settleMs: cfg.SETTLE_SECONDS * 1000 }),
    users,
    // Pictures in posts, where the stage has a media bucket (every deployed stage and npm start do).
    ...picturesIfConfigured(cfg),
    // Data exports are kept in the media bucket (under exports/) where there is one.
    ...(cfg.MEDIA_BUCKET && cfg.MEDIA_BASE_URL ? { exports: mediaObjects(cfg) } : {}),
    queue: new SqsFanoutQueue({ queueUrl: cfg.FANOUT_QUEUE_URL, ...(cfg.SQS_ENDPOINT ? { endpoint: cfg.SQS_ENDPOINT } : {}) }),
    limits: feedLimits(cfg),
  };
  return feed;
}

/**
 * What the scheduled jobs (functions/schedule) are built from, on the same HBase client as
 * dependencies(). The queues are built on first use: each job needs at most one of them.
 */
export interface JobDependencies {
  store: HBaseMaintenanceStore;
  postCounts: HBasePostCountStore;
  /** The media records and the posts and users that claim them (the media-cleanup job). */
  media: HBaseMediaStore;
  posts: HBasePostStore;
  users: HBaseUserStore;
  continuation: LambdaJobContinuation;
  queue(): FanoutQueue;
  mediaQueue(): MediaQueue;
  deadLetters(): DeadLetterQueue;
  limits: { rowsPerStep: number; maxSteps: number; inboxCap: number; outboxCap: number; regenStuckMs: number; settleMs: number; inactiveAfterMs: number };
}

/** What the erasure job (use-cases/jobs/erase-accounts.ts) is built from: every feed port, the people index, and the account's remains. */
export function erasureDependencies(): ErasureDeps {
  const { hbase, people } = dependencies();
  return { ...feedDependencies(), people, remains: new HBaseAccountRemains(hbase, config().HBASE_NAMESPACE) };
}

let jobs: JobDependencies | undefined;
export function jobDependencies(cfg: Config = config()): JobDependencies {
  if (jobs) return jobs;
  const { hbase } = dependencies();
  const sqsEndpoint = cfg.SQS_ENDPOINT ? { endpoint: cfg.SQS_ENDPOINT } : {};
  let fanoutQueue: FanoutQueue | undefined;
  let deadLetters: DeadLetterQueue | undefined;
  jobs = {
    store: new HBaseMaintenanceStore(hbase, cfg.HBASE_NAMESPACE),
    postCounts: new HBasePostCountStore(hbase, cfg.HBASE_NAMESPACE),
    media: new HBaseMediaStore(hbase, cfg.HBASE_NAMESPACE),
    posts: new HBasePostStore(hbase, cfg.HBASE_NAMESPACE),
    users: dependencies().users,
    continuation: new LambdaJobContinuation(cfg.LAMBDA_ENDPOINT ? { endpoint: cfg.LAMBDA_ENDPOINT } : {}),
    queue(): FanoutQueue {
      if (!cfg.FANOUT_QUEUE_URL) throw new Error('Invalid configuration: FANOUT_QUEUE_URL is required by the worker and the jobs that queue messages (sweeps, repair-relations)');
      return (fanoutQueue ??= new SqsFanoutQueue({ queueUrl: cfg.FANOUT_QUEUE_URL, ...sqsEndpoint }));
    },
    mediaQueue: () => mediaQueue(cfg),
    deadLetters(): DeadLetterQueue {
      if (!cfg.FANOUT_DLQ_URL) throw new Error('Invalid configuration: FANOUT_DLQ_URL is required for the dead-letter report');
      return (deadLetters ??= new SqsDeadLetterQueue({ queueUrl: cfg.FANOUT_DLQ_URL, ...sqsEndpoint }));
    },
    limits: {
      rowsPerStep: cfg.JOB_ROWS_PER_STEP,
      maxSteps: cfg.JOB_MAX_STEPS,
      inboxCap: cfg.INBOX_CAP,
      outboxCap: cfg.OUTBOX_CAP,
      regenStuckMs: cfg.REGEN_STUCK_SECONDS * 1000,
      settleMs: cfg.SETTLE_SECONDS * 1000,
      inactiveAfterMs: cfg.INACTIVE_AFTER_SECONDS * 1000,
    },
  };
  return jobs;
}

/** The picture use cases' ports (API side), on the same HBase client as dependencies(). */
let media: MediaDeps | undefined;
export function mediaDependencies(cfg: Config = config()): MediaDeps {
  if (media) return media;
  const { hbase } = dependencies();
  media = {
    media: new HBaseMediaStore(hbase, cfg.HBASE_NAMESPACE),
    objects: mediaObjects(cfg),
    queue: mediaQueue(cfg),
    quota: new HBaseWriteQuota(hbase, cfg.HBASE_NAMESPACE),
    idempotency: new HBaseIdempotencyStore(hbase, cfg.HBASE_NAMESPACE),
    limits: { writesPerMinute: { upload: cfg.UPLOADS_PER_MINUTE }, uploadUrlSeconds: cfg.UPLOAD_URL_SECONDS },
  };
  return media;
}

/** Where the bytes of pictures live (S3 deployed; the local object store locally): one client per container. */
let mediaObjectsClient: S3MediaObjects | undefined;
export function mediaObjects(cfg: Config = config()): S3MediaObjects {
  if (mediaObjectsClient) return mediaObjectsClient;
  if (!cfg.MEDIA_BUCKET || !cfg.MEDIA_BASE_URL) throw new Error('Invalid configuration: MEDIA_BUCKET and MEDIA_BASE_URL are required for pictures');
  return (mediaObjectsClient = new S3MediaObjects({ bucket: cfg.MEDIA_BUCKET, publicBaseUrl: cfg.MEDIA_BASE_URL, ...(cfg.S3_ENDPOINT ? { endpoint: cfg.S3_ENDPOINT } : {}) }));
}

/** The media records, where variants are served and the media queue, for the feed's and the profile's use cases. */
let pictures: Pictures | undefined;
function picturesIfConfigured(cfg: Config): { pictures?: Pictures } {
  // Every deployed stage and npm start have a media bucket; a bare test configuration may not.
  if (!cfg.MEDIA_BUCKET || !cfg.MEDIA_BASE_URL) return {};
  const objects = mediaObjects(cfg);
  pictures ??= {
    media: new HBaseMediaStore(dependencies().hbase, cfg.HBASE_NAMESPACE),
    variantUrl: (id, name) => objects.variantUrl(id, name),
    // Built on first send: only deletePost sends (a deleted post's pictures), the reads never do.
    queue: { send: (message) => mediaQueue(cfg).send(message) },
  };
  return { pictures };
}

/** The profile routes' ports: the users, and the pictures an avatar is. */
export function profileDependencies(cfg: Config = config()): { users: HBaseUserStore; people: HBasePeopleIndex; pictures?: Pictures } {
  const { users, people } = dependencies();
  return { users, people, ...picturesIfConfigured(cfg) };
}

/** Finding people: the feed's ports (relations, blocks, pictures) and the people index. */
export function peopleDependencies(): PeopleDeps {
  return { ...feedDependencies(), people: dependencies().people };
}

/** The media worker's queue (built on first use: only the media functions, deletePost and the media-cleanup job send to it). */
let mediaQueueClient: SqsMediaQueue | undefined;
function mediaQueue(cfg: Config): SqsMediaQueue {
  if (mediaQueueClient) return mediaQueueClient;
  if (!cfg.MEDIA_QUEUE_URL) throw new Error('Invalid configuration: MEDIA_QUEUE_URL is required for pictures');
  return (mediaQueueClient = new SqsMediaQueue({ queueUrl: cfg.MEDIA_QUEUE_URL, ...(cfg.SQS_ENDPOINT ? { endpoint: cfg.SQS_ENDPOINT } : {}) }));
}
