// test/drill/region-server.ts — `npm run drill`: a RegionServer lost in the middle of a big
// fan-out, on the local multi-RegionServer cluster (docs/operations.md, "A RegionServer lost").
//
//  1. the cluster the regions bench uses (.local-rs, REST 28080, ZooKeeper 22818), started
//     through stack.sh: two RegionServers in the standalone JVM and one more in a JVM of its own
//     (`stack.sh start regionserver`: the one a signal can kill), plus ElasticMQ and s3rver;
//  2. the schema in a fresh namespace, pre-split over the RegionServers (as the bench does);
//  3. an author with DRILL_FOLLOWERS (100,000) followers, bulk-written in the product's row layout
//     (test/bench/feed/graph.ts), while an `npm start` of this checkout (infra/local/run-local.ts:
//     API, fan-out worker, SQS poller) comes up on that namespace — with the celebrity threshold
//     above the follower count, so the post is fanned out rather than merged at read time;
//  4. readers hammer GET routes (sampled followers' home timelines, the post, the author's
//     profile) while the author publishes through the API; once the fan-out is under way, the
//     RegionServer of its own JVM (it holds inbox regions) gets SIGKILL;
//  5. waits until every region it held is open elsewhere, then for the queue to drain;
//  6. checks: every follower's inbox holds the post exactly once (read through the product's
//     inbox store), the DLQ is empty, every answer was 2xx or a 503 with Retry-After (no 500,
//     no other 5xx, no request left unanswered), and no 200 timeline page held a post twice or
//     lacked the post once that reader was known to have it.
// Prints how long the regions took to move, the fan-out's duration and the answers by status;
// exits 1 on any failure. Hard timeouts on every wait; the API, the namespace, the queues and
// the stack components it started are stopped or dropped in every case.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DeleteQueueCommand } from '@aws-sdk/client-sqs';
import { StackSession } from '../../infra/local/stack-control.js';
import { localQueueUrl, localSqsClient, namespaceQueueName } from '../../infra/local/sqs-poller.js';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { localPreSplitter, localStackHBase } from '../../infra/schema/local-pre-split.js';
import { HBaseInboxStore } from '../../shared/adapters/hbase/hbase-inbox-store.js';
import { issueToken } from '../../shared/auth/tokens.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { bulkPut, inPool } from '../bench/feed/bulk.js';
import { edgeRows, userRow } from '../bench/feed/graph.js';
import { liveNodes, nodeSnapshot, settledNodeSnapshot, type NodeSnapshot } from '../bench/regions/node-requests.js';
import { dropNamespace } from '../support/namespace.js';
import { queueCounts } from '../support/queue.js';
import { envInt } from '../support/env-int.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const env = process.env;
const int = (name: string, fallback: number, min = 1) => envInt(name, fallback, min, env);

const settings = {
  followers: int('DRILL_FOLLOWERS', 100_000, 1_000),
  /** Followers whose home timelines the readers ask for. */
  readers: int('DRILL_READERS', 200, 1),
  /** GET requests in flight at once. */
  readConcurrency: int('DRILL_READ_CONCURRENCY', 6),
  /** Regions per table; default 2 per RegionServer. */
  regions: int('DRILL_REGIONS', 6, 1),
  /** The whole drill, seconds: past it, it fails (and still cleans up). */
  timeoutSeconds: int('DRILL_TIMEOUT_SECONDS', 2_400, 60),
};

// The multi-RegionServer cluster of `npm run bench:regions`: its own state dir, REST and ZooKeeper
// ports (never the main stack's), its own queue and object store ports and API ports unless told.
const REST_PORT = '28080';
const restUrl = `http://127.0.0.1:${REST_PORT}`;
const stackEnv: NodeJS.ProcessEnv = {
  ...env,
  WEIBO_LOCAL_DIR: resolve(env.WEIBO_LOCAL_DIR || '.local-rs'),
  HBASE_REST_PORT: REST_PORT,
  HBASE_ZK_PORT: env.HBASE_ZK_PORT || '22818',
  // Two in the standalone JVM, the third in a JVM of its own (the one the drill kills).
  HBASE_REGIONSERVERS: '2',
  ELASTICMQ_PORT: env.ELASTICMQ_PORT || '29324',
  S3_PORT: env.S3_PORT || '29000',
};
const localDir = stackEnv.WEIBO_LOCAL_DIR!;
const sqsEndpoint = `http://127.0.0.1:${stackEnv.ELASTICMQ_PORT}`;
const apiPort = env.API_PORT || '23000';
const apiUrl = `http://127.0.0.1:${apiPort}`;
const apiEnv = {
  API_PORT: apiPort,
  OFFLINE_LAMBDA_PORT: env.OFFLINE_LAMBDA_PORT || '23002',
  WEBSOCKET_PORT: env.WEBSOCKET_PORT || '23003',
  WEB_PORT: env.WEB_PORT || '23001',
};

const say = (line: string) => process.stderr.write(`[drill] ${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const started = performance.now();
const since = () => seconds(performance.now() - started);

// --- what must be undone, in every case ------------------------------------------------------
const stack = new StackSession(stackEnv);
const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const ns = `drill_${runId}`;
const hb = new HBaseRestClient({ baseUrl: restUrl, timeoutMs: 60_000 });
let api: ChildProcess | undefined;
let namespaceMade = false;
let readersRunning = false;
/** Set when the API process ended on its own (a crash of the emulator or the poller): every wait then fails. */
let apiGone: string | undefined;

async function stopApi(): Promise<void> {
  const child = api;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  // run-local stops its poller and the serverless-offline process group on SIGTERM.
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  if (await Promise.race([gone.then(() => true), sleep(60_000).then(() => false)])) return;
  say('the API did not stop within 60 s of SIGTERM: SIGKILL');
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* gone meanwhile */
  }
}

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    readersRunning = false;
    await stopApi().catch((err: unknown) => say(`stopping the API: ${String(err)}`));
    if (namespaceMade) {
      const sqs = localSqsClient(sqsEndpoint);
      for (const queue of ['fanout', 'media'] as const) {
        const url = localQueueUrl(sqsEndpoint, namespaceQueueName('local', ns, queue)!);
        for (const u of [url, `${url}-dlq`]) await sqs.send(new DeleteQueueCommand({ QueueUrl: u })).catch(() => {});
      }
      sqs.destroy();
      await Promise.race([dropNamespace(hb, ns), sleep(120_000)]).catch(() => {});
    }
    await hb.close();
  })();
  return cleaning;
}

// A Ctrl-C or SIGTERM: the API and the namespace go, then the stack (stack-control.ts).
stack.stopOnSignals(() => cleanup());
process.once('exit', () => stack.stop());
const watchdog = setTimeout(() => {
  say(`FAILED: the drill did not finish within ${settings.timeoutSeconds} s`);
  void cleanup().finally(() => {
    stack.stop();
    process.exit(1);
  });
}, settings.timeoutSeconds * 1000);

/** Polls `check` every `everyMs` until it returns a value; throws past `timeoutMs`. */
async function waitFor<T>(what: string, timeoutMs: number, everyMs: number, check: () => Promise<T | undefined>) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (apiGone) throw new Error(`${what}: ${apiGone}`);
    const v = await check().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds(timeoutMs)}`);
    await sleep(everyMs);
  }
}

// --- the API answers, tallied ----------------------------------------------------------------
type RouteName = 'timeline' | 'post' | 'profile' | 'publish';
const tally = new Map<string, number>();
const failures: string[] = [];
const fail = (line: string) => {
  if (failures.length < 50) failures.push(line);
  else if (failures.length === 50) failures.push('… (more failures not listed)');
};
const count = (route: RouteName, status: number | 'no answer') => {
  const k = `${route} ${status}`;
  tally.set(k, (tally.get(k) ?? 0) + 1);
};

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the drill reads a few fields of each answer
  json: any;
}

/**
 * One request, its answer checked for the drill's rule on statuses: 2xx, or 503 with
 * Retry-After; anything else (a 500, another 5xx, a 4xx to a valid request, no answer) fails.
 */
async function call(
  route: RouteName,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer | undefined> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${apiUrl}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(30_000),
    });
    text = await res.text();
  } catch (err) {
    count(route, 'no answer');
    fail(`${method} ${path}: no answer (${(err as Error).message})`);
    return undefined;
  }
  count(route, res.status);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.status === 503) {
    if (!res.headers.get('retry-after')) fail(`${method} ${path}: 503 without Retry-After`);
  } else if (res.status < 200 || res.status > 299) {
    fail(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  } else if ((json as { errorType?: unknown } | undefined)?.errorType) {
    // serverless-offline's answer when the Lambda itself timed out: not one of ours.
    fail(`${method} ${path}: ${res.status} with a Lambda error ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, json };
}

// --- the drill -----------------------------------------------------------------------------------
const author = 'drillstar';
const width = String(settings.followers - 1).length;
const followerHandle = (i: number) => `d${String(i).padStart(width, '0')}`;

async function startStack(): Promise<string> {
  say(`starting the cluster — REST ${restUrl}, ZooKeeper ${stackEnv.HBASE_ZK_PORT}, state ${localDir}`);
  try {
    stack.start('hbase');
    stack.start('regionserver');
    stack.start('queue');
    stack.start('s3');
  } catch {
    throw new Error("the stack did not come up (stack.sh printed its logs' tail above)");
  }
  // The separate JVM's server name, as the master lists it ("Serving as localhost,port,startcode").
  const log = readFileSync(join(localDir, 'hbase/logs/regionserver.log'), 'utf8');
  const m = /Serving as ([^,\s]+),(\d+),\d+/.exec(log);
  if (!m) throw new Error('the separate RegionServer did not say which server it is');
  const node = `${m[1]}:${m[2]}`;
  const nodes = await waitFor('3 live RegionServers', 120_000, 1_000, async () => {
    const live = await liveNodes(restUrl);
    return live.length >= 3 && live.includes(node) ? live : undefined;
  });
  say(`cluster up after ${since()}: RegionServers ${nodes.join(', ')}; ${node} runs in a JVM of its own`);
  return node;
}

/** Every region of the namespace's tables, and the system tables, with where it is open. */
const regionsOf = (snap: NodeSnapshot) =>
  [...snap].filter(([, r]) => r.table.startsWith(`${ns}:`) || r.table.startsWith('hbase:'));

function startApi(jwtSecret: string): Promise<void> {
  const logFile = join(localDir, 'logs', `drill-api-${ns}.log`);
  mkdirSync(join(localDir, 'logs'), { recursive: true });
  const out = createWriteStream(logFile);
  say(`starting the API (npm start of this checkout on namespace ${ns}) — log ${logFile}`);
  // tsx directly, in a process group of its own: run-local stops what it started on SIGTERM.
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['infra/local/run-local.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...stackEnv,
      ...apiEnv,
      HBASE_NAMESPACE: ns,
      JWT_SECRET: jwtSecret,
      // Above the follower count: the author's post is fanned out, not merged at read time.
      CELEBRITY_FOLLOWERS: String(settings.followers * 10),
      // The deployed worker timeout (30 s; visibility 180 s, infra/queue-settings.cjs) rather than
      // the local 3 s tuned for the e2e tests' small fan-outs: on this shared 2-core machine a
      // message of 5 × 1,000 inbox rows can take longer than 3 s, and would reach the DLQ with
      // no RegionServer lost.
      LOCAL_FANOUT_TIMEOUT_SECONDS: env.LOCAL_FANOUT_TIMEOUT_SECONDS || '30',
      FORCE_COLOR: '0',
    },
  });
  api = child;
  return new Promise<void>((resolvePromise, reject) => {
    let tail = '';
    const onData = (d: Buffer) => {
      out.write(d);
      tail = (tail + String(d)).slice(-4_000);
      if (tail.includes('is running locally')) resolvePromise();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      out.end();
      if (cleaning) return;
      apiGone = `the API exited (${code ?? signal}) — see ${logFile}:\n${tail.slice(-1_500)}`;
      fail(apiGone);
      reject(new Error(apiGone));
    });
    setTimeout(() => reject(new Error(`the API was not up within 6 minutes — see ${logFile}`)), 360_000).unref();
  });
}

async function seed(): Promise<void> {
  const t0 = performance.now();
  const now = Date.now();
  const users = qualifiedTableName(ns, 'users');
  const relations = qualifiedTableName(ns, 'relations');
  const handles = Array.from({ length: settings.followers }, (_, i) => followerHandle(i));
  await bulkPut(
    hb,
    users,
    (function* () {
      yield userRow(author, now - 86_400_000, { followers: settings.followers, following: 0, posts: 0 });
      for (const h of handles) yield userRow(h, now - 86_400_000, { following: 1, followers: 0, posts: 0 });
    })(),
    { concurrency: 4 },
  );
  const edgeSince = String(now - 3_600_000);
  await bulkPut(
    hb,
    relations,
    (function* () {
      for (const h of handles) yield* edgeRows(h, author, edgeSince);
    })(),
    { concurrency: 4 },
  );
  say(
    `seeded ${settings.followers.toLocaleString('en-US')} followers of ${author} in ${seconds(performance.now() - t0)}`,
  );
}

interface ReaderState {
  handle: string;
  token: string;
  /** When a 200 page first showed the post (ms, performance clock): later pages must too. */
  knownAt?: number;
}

/** Readers on GET routes until stopped: timelines, the post, the author's profile. */
function startReaders(readers: ReaderState[], postId: () => string | undefined): Promise<void> {
  readersRunning = true;
  let turn = 0;
  const one = async () => {
    const k = turn++;
    const id = postId();
    if (k % 5 === 3 && id) {
      const r = await call('post', 'GET', `/posts/${id}`);
      if (r?.status === 200 && r.json?.id !== id) fail(`GET /posts/${id}: 200 with post ${r.json?.id}`);
      return;
    }
    if (k % 5 === 4) {
      const r = await call('profile', 'GET', `/users/${author}`);
      if (r?.status === 200 && r.json?.handle !== author) fail(`GET /users/${author}: 200 for ${r.json?.handle}`);
      return;
    }
    const reader = readers[k % readers.length]!;
    const asked = performance.now();
    const r = await call('timeline', 'GET', `/users/${reader.handle}/timeline?limit=20`, { token: reader.token });
    if (!r || (r.status !== 200 && r.status !== 206)) return;
    const ids: string[] = (r.json?.posts ?? []).map((p: { id: string }) => p.id);
    if (new Set(ids).size !== ids.length) fail(`timeline of ${reader.handle}: a post twice (${ids.join(', ')})`);
    const holds = id !== undefined && ids.includes(id);
    if (holds) reader.knownAt ??= performance.now();
    else if (r.status === 200 && reader.knownAt !== undefined && asked > reader.knownAt)
      fail(`timeline of ${reader.handle}: a 200 page without the post, after a page with it`);
  };
  const loop = async () => {
    while (readersRunning) await one();
  };
  return Promise.all(Array.from({ length: settings.readConcurrency }, loop)).then(() => {});
}

async function main(): Promise<number> {
  const killNode = await startStack();
  const sqs = localSqsClient(sqsEndpoint);

  // 2. The schema, pre-split over the RegionServers.
  const t0 = performance.now();
  namespaceMade = true;
  const schema = await applySchema(hb, ns, {
    regionsPerTable: settings.regions,
    preSplit: localPreSplitter(localStackHBase(stackEnv)),
  });
  say(
    `schema in ${ns}: ${schema.createdTables.length} tables, ${settings.regions} regions each, in ${seconds(performance.now() - t0)}`,
  );
  // The master lists regions as the RegionServers report them (every 3 s): a settled view, where
  // the tables PreSplit.java re-created no longer show their first region.
  const before = await settledNodeSnapshot(restUrl, 7_000);
  const inboxTable = qualifiedTableName(ns, 'inbox');
  const inboxOnKilled = [...before.values()].filter((r) => r.table === inboxTable && r.node === killNode).length;
  const metaOnKilled = [...before.values()].some((r) => r.table === 'hbase:meta' && r.node === killNode);
  if (inboxOnKilled === 0) throw new Error(`${killNode} holds no region of ${inboxTable}: nothing to drill`);
  say(
    `${killNode} holds ${inboxOnKilled} of ${settings.regions} inbox regions${metaOnKilled ? ' and hbase:meta' : ''}`,
  );

  // 3. The API and the followers, side by side.
  const jwtSecret = randomBytes(32).toString('base64url');
  await Promise.all([startApi(jwtSecret), seed()]);
  say(`API up at ${apiUrl} after ${since()}`);
  const tokens = { secret: jwtSecret, ttlSeconds: 6 * 3600 };
  const step = Math.max(1, Math.floor(settings.followers / settings.readers));
  const readers: ReaderState[] = await Promise.all(
    Array.from({ length: Math.min(settings.readers, settings.followers) }, async (_, i) => {
      const handle = followerHandle(i * step);
      return { handle, token: (await issueToken(handle, tokens)).token };
    }),
  );
  const authorToken = (await issueToken(author, tokens)).token;

  // 4. Readers, the post, and the kill once the fan-out is under way.
  let postId: string | undefined;
  const reading = startReaders(readers, () => postId);
  await sleep(3_000);
  const idempotencyKey = `drill-${runId}`;
  let publishedAt = 0;
  for (let attempt = 1; attempt <= 5 && !postId; attempt++) {
    const r = await call('publish', 'POST', '/posts', {
      token: authorToken,
      body: { body: `RegionServer drill ${runId}` },
      headers: { 'idempotency-key': idempotencyKey },
    });
    if (r && (r.status === 201 || r.status === 200)) postId = r.json.id;
    else await sleep(2_000);
  }
  if (!postId) throw new Error('could not publish the post');
  publishedAt = performance.now();
  say(`published ${postId} at ${since()}`);

  const holding = () => readers.filter((r) => r.knownAt !== undefined).length;
  await waitFor('the first sampled reader holding the post', 120_000, 200, async () =>
    holding() > 0 ? true : undefined,
  );
  // Where every region is open just before the kill: what must be open again after it.
  const moving = regionsOf(await nodeSnapshot(restUrl));
  const atKill = await queueCounts(sqs, localQueueUrl(sqsEndpoint, namespaceQueueName('local', ns)!));
  const heldAtKill = holding();
  const pid = Number(readFileSync(join(localDir, 'hbase/regionserver.pid'), 'utf8'));
  process.kill(pid, 'SIGKILL');
  const killedAt = performance.now();
  say(
    `SIGKILL to ${killNode} (pid ${pid}) ${seconds(killedAt - publishedAt)} after the publish; ${heldAtKill} of ${readers.length} sampled readers had the post, queue ${JSON.stringify(atKill)}`,
  );
  if (atKill.ApproximateNumberOfMessages + atKill.ApproximateNumberOfMessagesNotVisible === 0)
    fail('the fan-out had no message left when the RegionServer was killed: the kill was not mid-fan-out');

  // 5. Regions moved, queue drained.
  let noticedAt: number | undefined;
  const movedAt = await waitFor('every region open again', 900_000, 1_000, async () => {
    const now = await nodeSnapshot(restUrl);
    const live = new Set([...now.values()].map((r) => r.node));
    if (noticedAt === undefined && !(await liveNodes(restUrl)).includes(killNode)) {
      noticedAt = performance.now();
      say(`the master listed ${killNode} as gone ${seconds(noticedAt - killedAt)} after the kill`);
    }
    if (noticedAt === undefined) return undefined;
    const open = moving.every(([name]) => {
      const r = now.get(name);
      return r !== undefined && r.node !== killNode && live.has(r.node);
    });
    return open ? performance.now() : undefined;
  });
  const movedRegions = moving.filter(([, r]) => r.node === killNode).length;
  say(`every region open again ${seconds(movedAt - killedAt)} after the kill (${movedRegions} moved)`);
  const queueUrl = localQueueUrl(sqsEndpoint, namespaceQueueName('local', ns)!);
  // Empty (visible, in flight, delayed) twice in a row, as test/support/queue.ts queueDrained
  // reads it — here with the API's own exit as a failure too.
  let quiet = 0;
  await waitFor('the fan-out queue drained', 900_000, 1_000, async () => {
    const counts = await queueCounts(sqs, queueUrl);
    quiet = Object.values(counts).every((n) => n === 0) ? quiet + 1 : 0;
    return quiet >= 2 ? true : undefined;
  });
  const drainedAt = performance.now();
  say(`queue drained ${seconds(drainedAt - publishedAt)} after the publish`);
  const dlq = await queueCounts(sqs, `${queueUrl}-dlq`);
  const dead = Object.values(dlq).reduce((a, b) => a + b, 0);
  if (dead > 0) fail(`the fan-out DLQ holds ${dead} message(s): ${JSON.stringify(dlq)}`);

  // The readers stop; one more page each, now that every inbox must hold the post.
  readersRunning = false;
  await reading;
  for (const r of readers) r.knownAt ??= 0;
  readersRunning = true;
  await inPool(readers, settings.readConcurrency, async (reader) => {
    const r = await call('timeline', 'GET', `/users/${reader.handle}/timeline?limit=20`, { token: reader.token });
    const ids: string[] = (r?.json?.posts ?? []).map((p: { id: string }) => p.id);
    if (r?.status === 200 && ids.filter((x) => x === postId).length !== 1)
      fail(`timeline of ${reader.handle} after the drain: the post ${ids.filter((x) => x === postId).length} times`);
  });
  readersRunning = false;

  // 6. Every inbox, through the product's inbox store.
  const t6 = performance.now();
  const inbox = new HBaseInboxStore(hb, ns);
  const handles = Array.from({ length: settings.followers }, (_, i) => followerHandle(i));
  let missing = 0;
  let doubled = 0;
  let other = 0;
  await inPool(handles, 16, async (h) => {
    const view = await inbox.read(h, { limit: 20 });
    const n = view.entries.filter((e) => e === postId).length;
    if (n === 0) missing++;
    if (n > 1) doubled++;
    if (view.entries.length !== n) other++;
  });
  say(`read ${handles.length.toLocaleString('en-US')} inboxes in ${seconds(performance.now() - t6)}`);
  if (missing) fail(`${missing} inbox(es) lack the post`);
  if (doubled) fail(`${doubled} inbox(es) hold the post more than once`);
  if (other) fail(`${other} inbox(es) hold something else`);
  sqs.destroy();

  // Report.
  const statuses = [...tally].sort(([a], [b]) => a.localeCompare(b));
  const total = statuses.reduce((n, [, c]) => n + c, 0);
  const of = (pred: (s: string) => boolean) =>
    statuses.filter(([k]) => pred(k.split(' ')[1]!)).reduce((n, [, c]) => n + c, 0);
  console.log(`
RegionServer drill — ${settings.followers.toLocaleString('en-US')} followers, 3 RegionServers, ${settings.regions} regions per table
  killed                  : ${killNode} (${inboxOnKilled} inbox regions${metaOnKilled ? ', hbase:meta' : ''}; ${movedRegions} regions in all), ${seconds(killedAt - publishedAt)} after the publish, ${heldAtKill}/${readers.length} sampled readers holding the post
  master saw it gone      : ${seconds((noticedAt ?? movedAt) - killedAt)} after the kill
  every region open again : ${seconds(movedAt - killedAt)} after the kill
  fan-out                 : ${seconds(drainedAt - publishedAt)} from the publish to the drained queue
  inboxes                 : ${(settings.followers - missing).toLocaleString('en-US')} of ${settings.followers.toLocaleString('en-US')} hold the post, ${missing} missing, ${doubled} doubled; DLQ ${dead}
  answers                 : ${total} — ${statuses.map(([k, c]) => `${k}: ${c}`).join(', ')}
  5xx                     : ${of((s) => s === '503')} × 503 (each with Retry-After unless listed below), ${of((s) => s.startsWith('5') && s !== '503')} other 5xx, ${of((s) => s === 'no')} unanswered
  wall time               : ${since()} (the stack's start, schema, seeding and the API's start included)
  result                  : ${failures.length ? `FAILED (${failures.length})` : 'passed'}
${failures.map((f) => `    - ${f}`).join('\n')}`);
  return failures.length ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  say(`FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  if (failures.length) say(`failures so far:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
} finally {
  clearTimeout(watchdog);
  await cleanup();
  stack.stop();
}
process.exit(code);
