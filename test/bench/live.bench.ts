// test/bench/live.bench.ts — `npm run bench:live` (`-- --smoke` for 50 sockets, `-- --sockets N`
// to choose): the live channel's figures, measured in ONE run on the local stack, through the
// same servers `npm start` runs (serverless-offline: the HTTP API, the WebSocket API and the
// fan-out worker fed by the local SQS poller, 4 invocations at once; test/bench/live/offline.ts):
//   1. N sockets (1,000 by default), one reader each, all following one author: each connects
//      (connect time p50/p99: the upgrade, which runs $connect, and the first `resume`'s answer),
//      then the author publishes posts one at a time over HTTP: publish → the event frame
//      received by the LAST of the N sockets, p50 and p99 over the posts, and the spread over
//      the sockets for one post. Every socket must apply every post exactly once.
//   2. A reconnect storm: every socket drops at once; the author publishes K posts; every socket
//      reconnects at once and resumes from its last applied position. Each must end holding
//      exactly the K missed posts, once each, at the next K positions: lost and doubled are
//      counted, and the time until the last socket has all K is the storm's settle time.
//   3. Private messages: P pairs of people (50 by default), each side with a socket of its own,
//      registered and set to take messages from everyone through the use cases; after one
//      untimed warm-up message, each pair exchanges M messages (4), the sides in turn, one at a
//      time, all pairs at once, over
//      POST /users/{h}/conversations/{peer}/messages: the send's start → the `conversation`
//      event (change 'message', that seq) on the OTHER side's socket, p50 and p99 over every
//      message; each must arrive exactly once (lost and doubled counted).
//   4. Memory: RSS of serverless-offline's process group (the Lambda emulation's worker threads
//      live inside it; their count is printed too) and of the HBase JVMs (master with its
//      RegionServer, REST gateway), before any socket, with the N sockets open, at the storm's
//      peak, and after every socket closed.
// Readers are registered and follow the author through the use cases on the real adapters (not
// over HTTP: N scrypt hashes over HTTP would dominate the run); their access tokens are signed
// with this run's JWT secret as the API signs them (shared/auth/tokens.ts), valid 2 hours so a
// long run never meets an expired session. The author registers, logs in and publishes over HTTP.
// Everything lives in a throwaway namespace and throwaway queues, all removed at the end, also on
// failure, on Ctrl-C and when the run passes its time limit (LIVE_BENCH_RUN_TIMEOUT_MS).
// Output: progress on stderr, a table on stdout, docs/bench/live-bench.json (smoke:
// bench-results/live-bench-smoke.json), and docs/benchmarks.md rewritten from docs/bench.
// Knobs: test/bench/live/settings.ts. The stack must already run: `bash infra/local/stack.sh start`.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DeleteQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { refreshBenchmarksPage } from '../../infra/docs/benchmarks-document.js';
import { localMediaBaseUrl, localMediaBucket, localObjectStoreEndpoint } from '../../infra/local/object-store.js';
import { ensureQueues, localSqsClient } from '../../infra/local/sqs-poller.js';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { issueToken } from '../../shared/auth/tokens.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { forEachLimit } from '../../shared/runtime/concurrency.js';
import { TABLES, qualifiedTableName, type TableName } from '../../shared/schema/tables.js';
import { Progress } from './feed/progress.js';
import {
  hbasePids,
  memoryWatch,
  sampleMemory,
  startOffline,
  type MemorySample,
  type Offline,
  type ServerLogStretch,
} from './live/offline.js';
import { BenchReader, messageKey } from './live/reader.js';
import { liveBenchSettings, liveOutPath } from './live/settings.js';
import { percentile, printTable, summarize } from './stats.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const started = performance.now();
const s = liveBenchSettings();
const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const ns = `lbench_${runId}`;
const jwtSecret = randomBytes(32).toString('base64url');
const sqsEndpoint = process.env.SQS_ENDPOINT || `http://127.0.0.1:${process.env.ELASTICMQ_PORT || '19324'}`;
const restUrl = process.env.HBASE_REST_URL || `http://127.0.0.1:${process.env.HBASE_REST_PORT || '18080'}`;
const s3Endpoint = localObjectStoreEndpoint();
const bucket = localMediaBucket();
const TOKEN_TTL_SECONDS = 2 * 3600;

// The in-process composition (seeding through the use cases) reads its configuration on first
// use: point it at this run before anything imports it.
Object.assign(process.env, {
  HBASE_REST_URL: restUrl,
  HBASE_NAMESPACE: ns,
  SQS_ENDPOINT: sqsEndpoint,
  S3_ENDPOINT: s3Endpoint,
  MEDIA_BUCKET: bucket,
  MEDIA_BASE_URL: localMediaBaseUrl(s3Endpoint, bucket),
  JWT_SECRET: jwtSecret,
  SETTLE_SECONDS: process.env.SETTLE_SECONDS ?? '20',
  PASSWORD_SCRYPT_LOG2N: '12',
  POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
  POWERTOOLS_METRICS_DISABLED: 'true',
  // The fan-out worker's timeout, for the queues made here and the offline server's function
  // (infra/queue-settings.cjs); the queue's visibility timeout follows it.
  LOCAL_FANOUT_TIMEOUT_SECONDS: String(s.workerTimeoutSeconds),
});

const say = (line: string) => process.stderr.write(`[live bench] ${line}\n`);

async function stackProblem(): Promise<string | null> {
  const problems: string[] = [];
  const answers = async (what: string, url: string, headers: Record<string, string> = {}) => {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000), headers });
      if (res.status !== 200) problems.push(`${what} ${url} answered ${res.status}`);
    } catch (err) {
      problems.push(`${what} ${url} does not answer (${(err as Error).message})`);
    }
  };
  await answers('HBase REST gateway', `${restUrl}/version/cluster`, { Accept: 'application/json' });
  await answers('ElasticMQ', `${sqsEndpoint}/health`);
  return problems.length ? problems.join('; ') : null;
}

const problem = await stackProblem();
if (problem) {
  process.stderr.write(
    `live bench: the local stack is not running — ${problem}.\nStart it first with:  bash infra/local/stack.sh start   (or npm run stack:start), then run the bench again.\n`,
  );
  process.exit(2);
}

const hb = new HBaseRestClient({ baseUrl: restUrl, timeoutMs: 120_000 });
const sqs = localSqsClient(sqsEndpoint);
const progress = new Progress([
  { id: 'setup', label: 'schema, queues, serverless-offline (bundles every function)', weight: 15 },
  { id: 'seed', label: `readers registered and following the author`, weight: 15 },
  { id: 'connect', label: 'sockets connecting and resuming', weight: 20 },
  { id: 'posts', label: 'posts published, each received by every socket', weight: 15 },
  { id: 'storm', label: 'reconnect storm', weight: 25 },
  { id: 'messages', label: 'private messages between pairs, each side with a socket', weight: 10 },
  { id: 'close', label: 'closing, stopping, dropping', weight: 10 },
]);

let offline: Offline | undefined;
let readers: BenchReader[] = [];
/** The messages phase's sockets: two a pair. */
let talkers: BenchReader[] = [];
let queueUrls: string[] = [];
let cleaned: Promise<void> | undefined;
const localDir = process.env.WEIBO_LOCAL_DIR ?? '.local';
const logDir = `${localDir.startsWith('/') ? '' : ROOT}${localDir}/logs`;
const logFile = `${logDir}/live-bench-${runId}.log`;

async function dropNamespace(): Promise<void> {
  const tables = (Object.keys(TABLES) as TableName[]).map((t) => qualifiedTableName(ns, t));
  await forEachLimit(tables, 6, async (table) => void (await hb.deleteTable(table).catch(() => false)));
  for (let attempt = 0; attempt < 10; attempt++) {
    await hb.deleteNamespace(ns).catch(() => {});
    if (!(await hb.namespaceExists(ns).catch(() => true))) return;
    await sleep(500);
  }
  say(`could not drop namespace ${ns}; drop it by hand`);
}

function cleanup(): Promise<void> {
  cleaned ??= (async () => {
    const step = async (what: string, fn: () => Promise<unknown>, ms: number) => {
      try {
        await Promise.race([
          fn(),
          sleep(ms).then(() => {
            throw new Error(`did not finish within ${ms / 1000} s`);
          }),
        ]);
      } catch (err) {
        say(`cleanup: ${what}: ${(err as Error).message}`);
      }
    };
    await step('closing sockets', () => Promise.all([...readers, ...talkers].map((r) => r.close(3_000))), 10_000);
    await step('stopping serverless-offline', async () => offline?.stop(), 30_000);
    await step(
      'deleting the queues',
      () => Promise.all(queueUrls.map((QueueUrl) => sqs.send(new DeleteQueueCommand({ QueueUrl })).catch(() => {}))),
      15_000,
    );
    await step('dropping the namespace', dropNamespace, 120_000);
  })();
  return cleaned;
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    say(`${sig}: stopping what the bench started…`);
    void cleanup().finally(() => process.exit(130));
  });
}
const watchdog = setTimeout(() => {
  say(`the run passed its limit of ${s.runTimeoutMs / 60_000} min: stopping what it started`);
  void cleanup().finally(() => process.exit(1));
}, s.runTimeoutMs);
watchdog.unref();

/**
 * Messages in the fan-out queue: visible and in flight (a failed one waits out its visibility
 * timeout in flight), and with `delayed` those not yet due (each post's and follow's delayed
 * notify and settle).
 */
async function queueDepth(url: string, delayed: boolean): Promise<number> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesNotVisible',
        'ApproximateNumberOfMessagesDelayed',
      ],
    }),
  );
  const a = out.Attributes ?? {};
  return (
    Number(a.ApproximateNumberOfMessages ?? 0) +
    Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) +
    (delayed ? Number(a.ApproximateNumberOfMessagesDelayed ?? 0) : 0)
  );
}

async function drained(
  url: string,
  timeoutMs: number,
  opts: { delayed?: boolean; onWait?: (depth: number) => void } = {},
): Promise<number> {
  const t0 = performance.now();
  // Twice empty in a row, a second apart: a message being deleted as the next one is sent.
  let empties = 0;
  while (performance.now() - t0 < timeoutMs) {
    const depth = await queueDepth(url, opts.delayed ?? false);
    opts.onWait?.(depth);
    empties = depth === 0 ? empties + 1 : 0;
    if (empties >= 2) return performance.now() - t0;
    await sleep(1_000);
  }
  throw new Error(`the fan-out queue still held messages after ${timeoutMs / 1000} s`);
}

async function http(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${offline!.apiUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  return { status: res.status, json };
}

/** Runs `fn` over `items`, at most `limit` at once, calling `onDone` as each finishes. */
async function each<T>(items: T[], limit: number, fn: (item: T) => Promise<void>, onDone?: (done: number) => void) {
  let done = 0;
  await forEachLimit(items, limit, async (item) => {
    await fn(item);
    onDone?.(++done);
  });
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** One line of what the server log said over a phase: invocations, their p50/max, timeouts, failures. */
function describeStretch(st: ServerLogStretch): string {
  const fns = Object.entries(st.durations)
    .filter(([fn]) =>
      ['fanout', 'liveConnect', 'liveDisconnect', 'liveMessage', 'publishPost', 'messages'].includes(fn),
    )
    .map(([fn, d]) => `${fn} ×${d.n} p50 ${Math.round(d.p50Ms)} max ${Math.round(d.maxMs)} ms`);
  const outOfTime = Object.entries(st.ranOutOfTime).map(([k, n]) => `${k} ×${n}`);
  return [
    fns.join(', ') || 'no invocations',
    outOfTime.length ? `ran out of time: ${outOfTime.join(', ')}` : '',
    st.failedMessages ? `${st.failedMessages} queue message(s) failed` : '',
    st.workerLambdaTimeouts ? `${st.workerLambdaTimeouts} worker Lambda timeout(s)` : '',
    st.errorCount ? `${st.errorCount} error line(s)` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

interface PostDelivery {
  postId: string;
  publishMs: number;
  /** Sockets the post reached (pushed, or in the answer to a resume a later push's gap sent). */
  reached: number;
  /** Publish (the request's start) → the frame at the last socket; null if some socket never had it. */
  lastMs: number | null;
  /** The same over the sockets it reached. */
  firstMs: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Deciles of the arrival over sockets, 0 % … 100 %. */
  deciles: (number | null)[];
}

try {
  // ------------------------------------------------------------------------------------ setup
  progress.phase('setup', `namespace ${ns}, log ${logFile}`);
  const hbaseVersion = await hb.clusterVersion();
  await applySchema(hb, ns);
  const fanout = await ensureQueues({ sqsEndpoint, stage: 'local', queueName: `weibo-local-${ns}-fanout` });
  const media = await ensureQueues({
    sqsEndpoint,
    stage: 'local',
    queue: 'media',
    queueName: `weibo-local-${ns}-media`,
  });
  queueUrls = [fanout.queueUrl, fanout.deadLetterQueueUrl, media.queueUrl, media.deadLetterQueueUrl];
  process.env.FANOUT_QUEUE_URL = fanout.queueUrl;
  process.env.MEDIA_QUEUE_URL = media.queueUrl;
  mkdirSync(logDir, { recursive: true });
  const setupStarted = performance.now();
  offline = await startOffline({
    namespace: ns,
    jwtSecret,
    hbaseRestUrl: restUrl,
    sqsEndpoint,
    fanoutQueueUrl: fanout.queueUrl,
    mediaQueueUrl: media.queueUrl,
    s3Endpoint,
    mediaBucket: bucket,
    mediaBaseUrl: localMediaBaseUrl(s3Endpoint, bucket),
    apiPort: process.env.API_PORT ?? '13000',
    lambdaPort: process.env.OFFLINE_LAMBDA_PORT ?? '13002',
    wsPort: process.env.WEBSOCKET_PORT ?? '13003',
    workerConcurrency: s.workerConcurrency,
    logFile,
    buildFolder: `.esbuild/lbench-${runId}`,
  });
  await offline.startWorker();
  const offlineReadyMs = performance.now() - setupStarted;
  const jvms = hbasePids();

  // The author, over HTTP as any user.
  const authorHandle = `lba_${runId}`.slice(0, 30);
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const reg = await http('POST', '/users', { handle: authorHandle, displayName: 'Live bench author', password });
  if (reg.status !== 201) throw new Error(`registering the author: HTTP ${reg.status} ${JSON.stringify(reg.json)}`);
  const login = await http('POST', '/sessions', { handle: authorHandle, password });
  if (login.status !== 200 || typeof login.json.token !== 'string')
    throw new Error(`the author's login: HTTP ${login.status}`);
  const authorToken = login.json.token;

  // ------------------------------------------------------------------------------------- seed
  progress.phase('seed', `${s.sockets} readers, ${s.seedConcurrency} at once`);
  const seedStarted = performance.now();
  // Imported only now: the composition reads the environment set above.
  const { accountDependencies } = await import('../../shared/wiring/accounts.js');
  const { feedDependencies } = await import('../../shared/wiring/feed.js');
  const { registerUser } = await import('../../shared/use-cases/register-user.js');
  const { follow } = await import('../../shared/use-cases/relations.js');
  const { hashPassword } = await import('../../shared/auth/password.js');
  const { changeSettings } = await import('../../shared/use-cases/settings.js');
  const accounts = accountDependencies();
  const feed = feedDependencies();
  // Readers never log in: one real hash serves them all (N scrypt runs would be the whole phase).
  const readerHash = await hashPassword(password);
  const handles = Array.from({ length: s.sockets }, (_, i) => `lbr_${runId}_${i}`.slice(0, 30));
  if (new Set(handles).size !== handles.length) throw new Error('reader handles collide: shorten the run id');
  const liveUrl = offline.liveUrl;
  readers = [];
  await each(
    handles,
    s.seedConcurrency,
    async (handle) => {
      await registerUser(
        { users: accounts.users, people: accounts.people, passwords: { hash: async () => readerHash } },
        { handle, displayName: `Reader ${handle.slice(-5)}`, password },
      );
      await follow(feed, handle, authorHandle);
      const { token } = await issueToken(handle, { secret: jwtSecret, ttlSeconds: TOKEN_TTL_SECONDS });
      readers.push(new BenchReader(handle, token, liveUrl));
    },
    (done) => progress.update(done / s.sockets / 2, `${done}/${s.sockets}`),
  );
  const seedMs = performance.now() - seedStarted;
  // The follows' own messages (backfills, the delayed settles, the author's notifications) are
  // worked off first: the measurements below see only the posts' fan-out.
  const seedDrainMs = await drained(fanout.queueUrl, 600_000, {
    delayed: true,
    onWait: (d) => progress.update(0.5, `the follows' queue messages: ${d} left`),
  });

  // Loads the live functions (each first call loads a bundle) and the publish path: one socket
  // opened and closed, one post published, untimed.
  const warm = new BenchReader(authorHandle, authorToken, liveUrl);
  await warm.connect(60_000);
  await warm.close();
  const warmPost = await http('POST', '/posts', { body: 'live bench: warm-up' }, authorToken);
  if (warmPost.status !== 201) throw new Error(`warm-up post: HTTP ${warmPost.status}`);
  await drained(fanout.queueUrl, 120_000);

  const memory: Record<string, MemorySample | undefined> = {};
  memory.before = sampleMemory(offline.pid, jvms);
  const server: Record<string, ServerLogStretch> = {};
  server.setup = offline.log.take();

  // ---------------------------------------------------------------------------------- connect
  progress.phase('connect', `${s.sockets} sockets, ${s.connectConcurrency} connects at once`);
  const watch = memoryWatch(offline.pid, jvms);
  const connectStarted = performance.now();
  const connectOpenMs: number[] = [];
  const connectResumeMs: number[] = [];
  const connectFailures: string[] = [];
  await each(
    readers,
    s.connectConcurrency,
    async (r) => {
      try {
        const t = await r.connect(60_000);
        connectOpenMs.push(t.openMs);
        connectResumeMs.push(t.resumeMs);
      } catch (err) {
        connectFailures.push(`${r.handle}: ${(err as Error).message}`);
      }
    },
    (done) => progress.update(done / s.sockets, `${done}/${s.sockets}`),
  );
  const connectWallMs = performance.now() - connectStarted;
  if (connectFailures.length)
    throw new Error(
      `${connectFailures.length} of ${s.sockets} sockets could not connect; first: ${connectFailures.slice(0, 3).join('; ')}`,
    );
  await sleep(2_000);
  server.connect = offline.log.take();
  memory.connectPeak = watch.take();
  memory.open = sampleMemory(offline.pid, jvms);

  // ------------------------------------------------------------------------------------ posts
  progress.phase('posts', `${s.posts} posts to ${s.sockets} sockets, one at a time`);
  const deliveries: PostDelivery[] = [];
  const lostInPosts: string[] = [];
  for (let i = 0; i < s.posts; i++) {
    const t0 = performance.now();
    const res = await http('POST', '/posts', { body: `live bench: post ${i + 1} of ${s.posts}` }, authorToken);
    const publishMs = performance.now() - t0;
    if (res.status !== 201 || typeof res.json.id !== 'string') throw new Error(`publish: HTTP ${res.status}`);
    const postId = res.json.id;
    const waits = await Promise.allSettled(
      readers.map((r) => r.until(() => r.applied.includes(postId), s.deliveryTimeoutMs, `post ${postId}`)),
    );
    const missing = waits.filter((w) => w.status === 'rejected').length;
    if (missing > 0) {
      lostInPosts.push(
        `${postId}: ${missing} of ${s.sockets} sockets did not apply it within ${s.deliveryTimeoutMs} ms`,
      );
    }
    const arrivals = readers.flatMap((r) => {
      const at = r.arrivedAt.get(postId);
      return at === undefined ? [] : [at - t0];
    });
    const sorted = [...arrivals].sort((a, b) => a - b);
    const at = (p: number) => (sorted.length ? round(percentile(sorted, p)) : null);
    deliveries.push({
      postId,
      publishMs: round(publishMs),
      reached: sorted.length,
      // The last socket's time only when every socket had it.
      lastMs: sorted.length === s.sockets ? round(sorted.at(-1)!) : null,
      firstMs: at(0.0001),
      p50Ms: at(50),
      p99Ms: at(99),
      deciles: Array.from({ length: 11 }, (_, d) => at(Math.max(d * 10, 0.0001))),
    });
    progress.update(
      (i + 1) / s.posts,
      `post ${i + 1}: ${sorted.length}/${s.sockets} sockets, the last after ${Math.round(sorted.at(-1) ?? 0)} ms`,
    );
    await sleep(1_000);
  }
  const postIds = deliveries.map((d) => d.postId);
  const doubledInPosts = readers.reduce((n, r) => n + (r.applied.length - new Set(r.applied).size), 0);
  const appliedAll = readers.filter((r) => postIds.every((id) => r.applied.includes(id))).length;
  // A socket whose pushes were lost is behind until its next event; it resumes now, as its next
  // push would make it, so the storm starts from every socket holding every post.
  const behind = readers.filter((r) => !postIds.every((id) => r.applied.includes(id)));
  await Promise.allSettled(behind.map((r) => r.resume(s.deliveryTimeoutMs)));
  const caughtUpByResume = behind.filter((r) => postIds.every((id) => r.applied.includes(id))).length;
  if (lostInPosts.length) say(`posts not applied everywhere: ${lostInPosts.join('; ')}`);
  memory.afterPosts = sampleMemory(offline.pid, jvms);
  await drained(fanout.queueUrl, 120_000);
  server.posts = offline.log.take();

  // ------------------------------------------------------------------------------------ storm
  progress.phase('storm', `${s.sockets} sockets drop, ${s.missedPosts} posts, all reconnect`);
  const before = new Map(readers.map((r) => [r, { n: r.n, applied: r.applied.length }]));
  const dropStarted = performance.now();
  await Promise.all(readers.map((r) => r.close(10_000)));
  const dropMs = performance.now() - dropStarted;
  // The $disconnect wave (one invocation per socket) ends before the author publishes: the
  // storm measures the catch-up, not a fan-out competing with a thousand disconnects.
  const disconnectsStarted = performance.now();
  while (offline.log.ended('liveDisconnect') < s.sockets && performance.now() - disconnectsStarted < 120_000)
    await sleep(250);
  const disconnectsMs = performance.now() - disconnectsStarted;
  const disconnectsSeen = offline.log.ended('liveDisconnect');
  server.drop = offline.log.take();
  watch.take();
  const missed: string[] = [];
  for (let i = 0; i < s.missedPosts; i++) {
    const res = await http('POST', '/posts', { body: `live bench: missed ${i + 1} of ${s.missedPosts}` }, authorToken);
    if (res.status !== 201 || typeof res.json.id !== 'string') throw new Error(`publish: HTTP ${res.status}`);
    missed.push(res.json.id);
  }
  // Every missed post logged for every reader before anyone comes back: the storm measures the catch-up.
  // A message that fails comes back after the queue's visibility timeout: wait that out once.
  const missedFanoutMs = await drained(
    fanout.queueUrl,
    s.deliveryTimeoutMs + fanout.settings.visibilityTimeoutSeconds * 1000,
  );
  server.down = offline.log.take();
  progress.update(0.3, `${s.missedPosts} posts logged; reconnecting`);
  const stormStarted = performance.now();
  const stormOpenMs: number[] = [];
  const stormFailures: string[] = [];
  const settledAt: number[] = [];
  await Promise.all(
    readers.map(async (r) => {
      if (s.stormJitterMs > 0) await sleep(Math.random() * s.stormJitterMs);
      try {
        const t = await r.connect(s.deliveryTimeoutMs);
        stormOpenMs.push(t.openMs + t.resumeMs);
        await r.until(() => missed.every((id) => r.applied.includes(id)), s.deliveryTimeoutMs, 'the missed posts');
        settledAt.push(performance.now() - stormStarted);
      } catch (err) {
        stormFailures.push(`${r.handle}: ${(err as Error).message}`);
      }
    }),
  );
  const stormSettleMs = settledAt.length ? Math.max(...settledAt) : Number.NaN;
  memory.stormPeak = watch.take();
  await sleep(2_000);
  memory.afterStorm = sampleMemory(offline.pid, jvms);
  server.storm = offline.log.take();
  // Exactly the missed posts, once each, at the next positions, in the order they sit in the log.
  let lost = 0;
  let doubled = 0;
  let extra = 0;
  let notDense = 0;
  for (const r of readers) {
    const b = before.get(r)!;
    const got = r.applied.slice(b.applied);
    lost += missed.filter((id) => !got.includes(id)).length;
    doubled += got.length - new Set(got).size;
    extra += got.filter((id) => !missed.includes(id)).length;
    if (r.n !== b.n + s.missedPosts) notDense++;
  }
  const resets = readers.reduce((n, r) => n + r.resets, 0);
  const frameErrors = readers.flatMap((r) => r.errors);

  // --------------------------------------------------------------------------------- messages
  progress.phase('messages', `${s.messagePairs} pairs, ${s.messagesPerPair} messages each, every side with a socket`);
  const messagesStarted = performance.now();
  const pairs: [BenchReader, BenchReader][] = [];
  const tokens = new Map<BenchReader, string>();
  talkers = [];
  await each(
    Array.from({ length: s.messagePairs * 2 }, (_, i) => `lbm_${runId}_${i}`.slice(0, 30)),
    s.seedConcurrency,
    async (handle) => {
      await registerUser(
        { users: accounts.users, people: accounts.people, passwords: { hash: async () => readerHash } },
        { handle, displayName: `Talker ${handle.slice(-5)}`, password },
      );
      // Everyone may write to them: each pair's first message opens a conversation, not a request.
      await changeSettings(accounts, handle, handle, { messagesFrom: 'everyone' });
      const { token } = await issueToken(handle, { secret: jwtSecret, ttlSeconds: TOKEN_TTL_SECONDS });
      const talker = new BenchReader(handle, token, liveUrl);
      tokens.set(talker, token);
      talkers.push(talker);
    },
  );
  await each(talkers, s.connectConcurrency, async (t) => void (await t.connect(60_000)));
  for (let i = 0; i + 1 < talkers.length; i += 2) pairs.push([talkers[i]!, talkers[i + 1]!]);
  // Loads the messages function (its first call loads a bundle), as the warm-up post does the
  // publish path: one message of the first pair, untimed.
  if (pairs.length > 0) {
    const [from, to] = pairs[0]!;
    const warmed = await http(
      'POST',
      `/users/${from.handle}/conversations/${to.handle}/messages`,
      { text: 'live bench: warm-up', clientId: 'lb-warm' },
      tokens.get(from),
    );
    const seq = (warmed.json.message as { seq?: number } | undefined)?.seq;
    if (warmed.status !== 201 || typeof seq !== 'number') throw new Error(`warm-up message: HTTP ${warmed.status}`);
    await to.until(() => to.messagesApplied.includes(messageKey(from.handle, seq)), 60_000, 'the warm-up message');
  }
  progress.update(0.3, `${talkers.length} sockets open; sending`);
  const messageMs: number[] = [];
  const messagesLost: string[] = [];
  const messageFailures: string[] = [];
  let messagesSent = 0;
  await Promise.all(
    pairs.map(async (pair) => {
      for (let m = 0; m < s.messagesPerPair; m++) {
        const [from, to] = m % 2 === 0 ? pair : [pair[1], pair[0]];
        const t0 = performance.now();
        const res = await http(
          'POST',
          `/users/${from.handle}/conversations/${to.handle}/messages`,
          { text: `live bench: message ${m + 1} of ${s.messagesPerPair}`, clientId: `lb-${m}` },
          tokens.get(from),
        );
        const message = res.json.message as { seq?: number } | undefined;
        if (res.status !== 201 || typeof message?.seq !== 'number') {
          messageFailures.push(
            `${from.handle} → ${to.handle}: HTTP ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`,
          );
          return;
        }
        messagesSent++;
        const key = messageKey(from.handle, message.seq);
        try {
          await to.until(() => to.messagesApplied.includes(key), s.deliveryTimeoutMs, `message ${key}`);
          messageMs.push(to.messageArrivedAt.get(key)! - t0);
        } catch {
          messagesLost.push(`${key} at ${to.handle}`);
        }
        progress.update(
          0.3 + (0.7 * messageMs.length) / (s.messagePairs * s.messagesPerPair),
          `${messageMs.length} delivered`,
        );
      }
    }),
  );
  // A second for an event pushed twice to arrive twice, before the count.
  await sleep(1_000);
  const messagesDoubled = talkers.reduce((n, t) => n + (t.messagesApplied.length - new Set(t.messagesApplied).size), 0);
  const messagesWallMs = performance.now() - messagesStarted;
  await Promise.all(talkers.map((t) => t.close(10_000)));
  server.messages = offline.log.take();
  const messageLatency = messageMs.length ? summarize(messageMs) : undefined;

  // ------------------------------------------------------------------------------------ close
  progress.phase('close');
  watch.stop();
  const closeStarted = performance.now();
  await Promise.all(readers.map((r) => r.close(10_000)));
  await sleep(3_000);
  memory.closed = sampleMemory(offline.pid, jvms);
  const closeMs = performance.now() - closeStarted;
  server.close = offline.log.take();
  await cleanup();
  progress.done();

  // ----------------------------------------------------------------------------------- report
  const wallSeconds = round((performance.now() - started) / 1000);
  // Over the posts that reached every socket (the others are counted in notDelivered).
  const lasts = deliveries.flatMap((d) => (d.lastMs === null ? [] : [d.lastMs]));
  const connect = summarize(connectOpenMs.map((o, i) => o + connectResumeMs[i]!));
  const connectOpen = summarize(connectOpenMs);
  const connectResume = summarize(connectResumeMs);
  const storm = stormOpenMs.length ? summarize(stormOpenMs) : undefined;
  const complete = deliveries.filter((d) => d.lastMs !== null);
  const median = [...complete].sort((a, b) => a.lastMs! - b.lastMs!)[Math.floor((complete.length - 1) / 2)];
  const lastP50 = lasts.length ? percentile(lasts, 50) : Number.NaN;
  const lastP99 = lasts.length ? percentile(lasts, 99) : Number.NaN;
  const mem = (m: MemorySample | undefined) =>
    m
      ? `${m.offlineMB} MB, ${m.offlineThreads} threads; HBase master ${m.hbaseMasterMB ?? '?'} MB, REST ${m.hbaseRestMB ?? '?'} MB`
      : '—';
  const ok =
    lostInPosts.length === 0 &&
    doubledInPosts === 0 &&
    stormFailures.length === 0 &&
    lost === 0 &&
    doubled === 0 &&
    extra === 0 &&
    notDense === 0 &&
    messagesLost.length === 0 &&
    messageFailures.length === 0 &&
    messagesDoubled === 0;

  const result = {
    at: new Date().toISOString(),
    profile: s.profile,
    ok,
    hbaseVersion,
    node: process.version,
    cores: availableParallelism(),
    wallSeconds,
    settings: s,
    servers:
      'serverless-offline (stage local: HTTP API, WebSocket API, Lambda emulation in worker threads) + infra/local/sqs-poller.ts feeding the fan-out worker',
    phasesMs: {
      offlineReady: round(offlineReadyMs),
      seed: round(seedMs),
      seedQueueDrain: round(seedDrainMs),
      connect: round(connectWallMs),
      drop: round(dropMs),
      disconnectWave: round(disconnectsMs + dropMs),
      missedFanout: round(missedFanoutMs),
      stormSettle: round(stormSettleMs),
      messages: round(messagesWallMs),
      close: round(closeMs),
    },
    connect: { total: connect, upgrade: connectOpen, firstResume: connectResume },
    delivery: {
      posts: deliveries,
      lastSocketP50Ms: round(lastP50),
      lastSocketP99Ms: round(lastP99),
      medianPost: median?.postId ?? null,
      postsReachingEverySocket: complete.length,
      everySocketAppliedEveryPost: appliedAll === s.sockets,
      socketsWithEveryPost: appliedAll,
      behindResumed: behind.length,
      caughtUpByResume,
      notDelivered: lostInPosts,
      doubled: doubledInPosts,
      gaps: readers.reduce((n, r) => n + r.gaps, 0),
      staleHints: readers.reduce((n, r) => n + r.staleHints, 0),
    },
    storm: {
      sockets: s.sockets,
      missedPosts: s.missedPosts,
      jitterMs: s.stormJitterMs,
      disconnectsSeen,
      settleMs: round(stormSettleMs),
      reconnect: storm,
      settledSockets: settledAt.length,
      failures: stormFailures.slice(0, 20),
      failureCount: stormFailures.length,
      lost,
      doubled,
      extra,
      notAtNextPositions: notDense,
      resets,
    },
    messages: {
      pairs: s.messagePairs,
      perPair: s.messagesPerPair,
      sent: messagesSent,
      delivered: messageMs.length,
      // Send (the request's start) → the conversation event on the other side's socket.
      deliveryP50Ms: messageLatency ? round(messageLatency.medianMs) : null,
      deliveryP99Ms: messageLatency ? round(messageLatency.p99Ms) : null,
      delivery: messageLatency ?? null,
      lost: messagesLost.length,
      lostMessages: messagesLost.slice(0, 20),
      doubled: messagesDoubled,
      failedSends: messageFailures.length,
      failures: messageFailures.slice(0, 20),
      frameErrors: talkers.flatMap((t) => t.errors).slice(0, 20),
    },
    memory,
    frameErrors: frameErrors.slice(0, 20),
    frameErrorCount: frameErrors.length,
    server,
    // Where this run's server log was, relative to the checkout (not a machine's absolute path).
    log: relative(ROOT, logFile),
  };
  mkdirSync(s.outDir, { recursive: true });
  writeFileSync(liveOutPath(s), `${JSON.stringify(result, null, 2)}\n`);
  if (refreshBenchmarksPage(s.outDir)) console.log('rewrote docs/benchmarks.md');

  printTable(
    `Live channel benchmark (${s.profile}): ${s.sockets} sockets following one author, ${availableParallelism()} cores, fan-out worker timeout ${s.workerTimeoutSeconds} s × ${s.workerConcurrency}`,
    ['figure', 'measured'],
    [
      [
        `connect (upgrade + first resume answer) p50 / p99, ${s.connectConcurrency} at once`,
        `${round(connect.medianMs)} / ${round(connect.p99Ms)} ms`,
      ],
      ['  upgrade ($connect) p50 / p99', `${round(connectOpen.medianMs)} / ${round(connectOpen.p99Ms)} ms`],
      ['  first resume answer p50 / p99', `${round(connectResume.medianMs)} / ${round(connectResume.p99Ms)} ms`],
      [`  all ${s.sockets} connected in`, `${round(connectWallMs / 1000)} s`],
      [
        `publish → event at the LAST socket, p50 / p99 over ${complete.length} of ${s.posts} posts`,
        `${round(lastP50)} / ${round(lastP99)} ms`,
      ],
      [
        '  each post: sockets reached, last socket',
        deliveries
          .map((d) => `${d.reached} ${d.lastMs === null ? 'never all' : `${Math.round(d.lastMs)} ms`}`)
          .join(', '),
      ],
      [
        `  median post over its ${s.sockets} sockets: first / p50 / p99 / last`,
        median ? `${median.firstMs} / ${median.p50Ms} / ${median.p99Ms} / ${median.lastMs} ms` : '—',
      ],
      [
        '  every socket applied every post once',
        `${appliedAll}/${s.sockets}, doubled ${doubledInPosts}${behind.length ? `; ${behind.length} behind, ${caughtUpByResume} caught up by a resume` : ''}`,
      ],
      [
        `reconnect storm: ${s.sockets} reconnect ${s.stormJitterMs ? `within ${s.stormJitterMs} ms` : 'at once'}, ${s.missedPosts} missed posts`,
        `settled in ${round(stormSettleMs / 1000, 2)} s`,
      ],
      [
        '  reconnect + resume p50 / p99 in the storm',
        storm ? `${round(storm.medianMs)} / ${round(storm.p99Ms)} ms` : '—',
      ],
      [
        '  lost / doubled / extra / not at the next positions / failed',
        `${lost} / ${doubled} / ${extra} / ${notDense} / ${stormFailures.length}`,
      ],
      [
        `message → the conversation event on the other socket, p50 / p99 over ${messageMs.length} of ${s.messagePairs * s.messagesPerPair} (${s.messagePairs} pairs)`,
        messageLatency ? `${round(messageLatency.medianMs)} / ${round(messageLatency.p99Ms)} ms` : '—',
      ],
      [
        '  messages lost / doubled / sends failed',
        `${messagesLost.length} / ${messagesDoubled} / ${messageFailures.length}`,
      ],
      ['memory before any socket: offline group', mem(memory.before)],
      [`  with ${s.sockets} sockets open`, mem(memory.open)],
      ['  peak while connecting', mem(memory.connectPeak)],
      ['  peak in the storm', mem(memory.stormPeak)],
      ['  after every socket closed', mem(memory.closed)],
    ],
  );
  console.log(`\nThe server's log (${logFile}), phase by phase:`);
  for (const [phase, st] of Object.entries(server)) console.log(`  ${phase}: ${describeStretch(st)}`);
  console.log(`\nwall time ${wallSeconds} s · JSON ${liveOutPath(s)}${ok ? '' : ' · FAILED: see lost/doubled above'}`);
  if (!ok) process.exitCode = 1;
} catch (err) {
  process.stderr.write(`\nlive bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  if (offline) {
    const st = offline.log.take();
    process.stderr.write(`server log since the last phase: ${describeStretch(st)}\n${st.errors.join('\n')}\n`);
  }
  process.exitCode = 1;
} finally {
  await cleanup();
  await hb.close().catch(() => {});
  sqs.destroy();
}
process.exit(process.exitCode ?? 0);
