// infra/local/run-local.ts — `npm start`: the whole system on this machine, on real parts.
// Starts what is not running (HBase + REST gateway, ElasticMQ, the s3rver object store), applies the schema and the
// pending migrations, creates the
// fan-out queues, runs the API, the WebSocket API and the workers under serverless-offline (stage `local`) and the
// local SQS poller that feeds the worker, builds and serves the web client (web/), prints where
// everything is, and stays up until
// Ctrl-C / SIGTERM; then stops the poller, the offline process group and only the stack
// components it started itself.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { buildWeb } from '../../web/build.js';
import { serveWeb } from '../../web/serve.js';
import { migrate } from '../../shared/schema/migrations.js';
import { applySchema } from '../schema/apply-schema.js';
import { RAN_OUT_OF_TIME, apiLogFile, lineSplitter, timeoutIn, type LogTimeouts } from './api-log.js';
import { localMediaBaseUrl } from './object-store.js';
import { ensureQueues, namespaceQueueName, startMediaPoller, startPoller, type Poller } from './sqs-poller.js';
import { warmHttpFunctions, warmLiveFunctions, warmWorkers } from './warm-up.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STACK = `${ROOT}infra/local/stack.sh`;
const STAGE = 'local';
const API_PORT = process.env.API_PORT ?? '13000';
const LAMBDA_PORT = process.env.OFFLINE_LAMBDA_PORT ?? '13002';
const WEB_PORT = Number(process.env.WEB_PORT ?? '13001');
// The WebSocket API (infra/functions/live.yml) and, on the same port, its management API (the pushes).
const WEBSOCKET_PORT = process.env.WEBSOCKET_PORT ?? '13003';
const API_URL = `http://127.0.0.1:${API_PORT}`;
const LIVE_URL = `ws://127.0.0.1:${WEBSOCKET_PORT}`;
const WEB_URL = `http://127.0.0.1:${WEB_PORT}`;
const LAMBDA_URL = `http://127.0.0.1:${LAMBDA_PORT}`;
const NAMESPACE = process.env.HBASE_NAMESPACE ?? 'weibo';
const SECRET_FILE = `${ROOT}.local/dev-jwt-secret`;
const STACK_DIR = process.env.WEIBO_LOCAL_DIR ?? `${ROOT}.local`;

type Component = 'hbase' | 'queue' | 's3';

const say = (line: string) => console.log(`[run-local] ${line}`);

// --- the API's log: the terminal, and a file `npm run load` reads (api-log.ts) ----------------------
const API_LOG = apiLogFile(STACK_DIR, API_PORT);
let apiLog: WriteStream | undefined;
/** Invocations that ran out of time so far, by what the log says (printed at shutdown). */
const timeouts: LogTimeouts = { ranOutOfTime: 0, workerTimeouts: 0 };
const countLine = (line: string) => {
  const kind = timeoutIn(line);
  if (kind) timeouts[kind]++;
};

/** Shows a chunk of serverless-offline's output on `to` and keeps it in the API log. */
function logged(to: NodeJS.WriteStream): (chunk: Buffer) => void {
  const lines = lineSplitter(countLine);
  return (chunk) => {
    to.write(chunk);
    apiLog?.write(chunk);
    lines(chunk);
  };
}

/** A line of ours (the pollers') for the terminal and the API log. */
function logLine(line: string): void {
  console.log(line);
  apiLog?.write(`${line}\n`);
  countLine(line);
}

// --- what we started, so shutdown ends exactly that ---------------------------------------------
const started: Component[] = [];
let stackChild: ChildProcess | undefined;
let offline: ChildProcess | undefined;
let poller: Poller | undefined;
let mediaPoller: Poller | undefined;
let web: Server | undefined;
let stopping: Promise<void> | undefined;

function runStack(args: string[], quiet = false): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [STACK, ...args], {
      cwd: ROOT,
      stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
      // `start` in a session of its own: the JVMs it leaves running must not get the terminal's
      // Ctrl-C; shutdown stops them in order (REST gateway, then master) through stack.sh.
      detached: args[0] === 'start',
    });
    stackChild = child;
    let stdout = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += String(d)));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (stackChild === child) stackChild = undefined;
      resolve({ code: code ?? (signal ? 128 : 1), stdout });
    });
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return Promise.race([new Promise<boolean>((r) => child.once('exit', () => r(true))), sleep(ms).then(() => false)]);
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** serverless-offline runs in a process group of its own: end the whole group, forcefully if needed. */
async function stopOffline(): Promise<void> {
  const child = offline;
  if (!child?.pid) return;
  const pid = child.pid;
  const signalGroup = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      /* already gone */
    }
  };
  if (groupAlive(pid)) {
    say(`stopping serverless-offline (process group ${pid})`);
    signalGroup('SIGTERM');
  }
  await exited(child, 10_000);
  for (let i = 0; i < 20 && groupAlive(pid); i++) await sleep(250);
  if (groupAlive(pid)) {
    say('serverless-offline still running after SIGTERM; SIGKILL');
    signalGroup('SIGKILL');
  }
}

function shutdown(exitCode: number): void {
  stopping ??= (async () => {
    try {
      web?.close();
      await Promise.all([poller?.stop(), mediaPoller?.stop()]);
      await stopOffline();
      if (stackChild) {
        // Interrupted while a component was starting: let that start end, then stop it.
        stackChild.kill('SIGTERM');
        await exited(stackChild, 30_000);
      }
      for (const c of [...started].reverse()) await runStack(['stop', c]);
    } catch (err) {
      console.error(`[run-local] error while stopping: ${err instanceof Error ? err.message : String(err)}`);
      exitCode ||= 1;
    }
    if (apiLog) {
      say(
        `invocations that ran out of time while up: ${timeouts.ranOutOfTime} '${RAN_OUT_OF_TIME}' log line(s), ${timeouts.workerTimeouts} worker Lambda timeout(s); log ${API_LOG}`,
      );
      apiLog.end();
    }
    say(started.length ? `stopped; also stopped the stack components started here: ${started.join(', ')}` : 'stopped');
    process.exit(exitCode);
  })();
}

/**
 * `kill <npm pid>` ends npm and its `sh -c`, but not tsx and this process (npm forwards the
 * signal to its direct child only). When the leader of our process group — what the user
 * launched — is gone, stop as if signalled. Linux only (/proc); elsewhere signals still work.
 */
function watchLauncher(): void {
  let leader: number;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    leader = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return;
  }
  if (!Number.isInteger(leader) || leader <= 1 || leader === process.pid) return;
  const timer = setInterval(() => {
    try {
      process.kill(leader, 0);
    } catch {
      clearInterval(timer);
      if (stopping) return;
      say(`the launcher (pid ${leader}) exited: stopping`);
      shutdown(143);
    }
  }, 1_000);
  timer.unref();
}
watchLauncher();

for (const [sig, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.on(sig, () => {
    if (stopping) return say(`${sig}: already stopping`);
    say(`${sig}: stopping`);
    shutdown(code);
  });
}

// --- steps -----------------------------------------------------------------------------------------

async function ensureComponent(c: Component): Promise<void> {
  if ((await runStack(['status', c], true)).code === 0) {
    say(`${c}: already running; it will be left running`);
    return;
  }
  checkpoint();
  started.push(c); // before starting: an interrupted start is still stopped by its pid files
  const { code } = await runStack(['start', c]);
  if (code !== 0) throw new Error(`stack.sh start ${c} failed (exit ${code})`);
}

async function stackEnv(): Promise<{
  HBASE_REST_URL: string;
  SQS_ENDPOINT: string;
  S3_ENDPOINT: string;
  MEDIA_BUCKET: string;
}> {
  const { code, stdout } = await runStack(['env'], true);
  if (code !== 0) throw new Error('stack.sh env failed');
  const vars = Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );
  return {
    HBASE_REST_URL: vars.HBASE_REST_URL!,
    SQS_ENDPOINT: vars.SQS_ENDPOINT!,
    S3_ENDPOINT: vars.S3_ENDPOINT!,
    MEDIA_BUCKET: vars.MEDIA_BUCKET!,
  };
}

/** A signing secret for local tokens, generated once and kept out of git (.local/). */
function devJwtSecret(): string {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  if (!existsSync(SECRET_FILE)) {
    mkdirSync(`${ROOT}.local`, { recursive: true });
    writeFileSync(SECRET_FILE, randomBytes(32).toString('base64url'), { mode: 0o600 });
    say(`generated a local JWT secret in ${SECRET_FILE}`);
  }
  return readFileSync(SECRET_FILE, 'utf8').trim();
}

async function waitForApi(child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`serverless-offline exited (${child.exitCode ?? child.signalCode})`);
    try {
      await fetch(`${API_URL}/users/probe`, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await sleep(500);
    }
  }
  throw new Error(`the API did not answer on ${API_URL} within ${timeoutMs / 1000} s`);
}

/** Called between steps: once a shutdown began, nothing new may start (it would outlive us). */
function checkpoint(): void {
  if (stopping) throw new Error('stopping');
}

async function main(): Promise<void> {
  for (const c of ['hbase', 'queue', 's3'] as const) {
    checkpoint();
    await ensureComponent(c);
  }
  const { HBASE_REST_URL, SQS_ENDPOINT, S3_ENDPOINT, MEDIA_BUCKET } = await stackEnv();
  const MEDIA_BASE_URL = localMediaBaseUrl(S3_ENDPOINT, MEDIA_BUCKET);

  const hbase = new HBaseRestClient({ baseUrl: HBASE_REST_URL, timeoutMs: 60_000 });
  try {
    // Locally the schema is ours to keep current: drifted families (e.g. a namespace made before
    // NEW_VERSION_BEHAVIOR was set) are altered in place; nothing is ever dropped.
    const report = await applySchema(hbase, NAMESPACE, { fixDrift: true, log: (l) => say(`schema: ${l}`) });
    if (report.fixedFamilies.length) say(`schema: re-applied attributes of ${report.fixedFamilies.join(', ')}`);
    // Data of an older layout (a namespace an older checkout made) is moved, as npm run migrate does.
    const moved = await migrate(hbase, NAMESPACE, { log: (l) => say(`migrate: ${l}`) });
    if (moved.from !== moved.to) say(`migrate: layout version ${moved.from} → ${moved.to}`);
  } finally {
    await hbase.close();
  }

  const queueName = (queue: 'fanout' | 'media') => namespaceQueueName(STAGE, NAMESPACE, queue);
  const queues = await ensureQueues({ sqsEndpoint: SQS_ENDPOINT, stage: STAGE, queueName: queueName('fanout') });
  const mediaQueues = await ensureQueues({
    sqsEndpoint: SQS_ENDPOINT,
    stage: STAGE,
    queue: 'media',
    queueName: queueName('media'),
  });
  checkpoint();

  // The API's log, started afresh each run: its output passes through here on its way to the terminal.
  mkdirSync(`${STACK_DIR}/logs`, { recursive: true });
  apiLog = createWriteStream(API_LOG, { flags: 'w' });
  // `node …/serverless.js` directly, in its own process group: killing `npm run` or `npx` would
  // leave the offline server (and the workers it forks) behind.
  const child = spawn(
    process.execPath,
    [`${ROOT}node_modules/serverless/bin/serverless.js`, 'offline', 'start', '--stage', STAGE],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        // Colours as when it wrote to the terminal itself.
        ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
        ...process.env,
        JWT_SECRET: devJwtSecret(),
        HBASE_REST_URL,
        HBASE_NAMESPACE: NAMESPACE,
        SQS_ENDPOINT,
        FANOUT_QUEUE_URL: queues.queueUrl,
        MEDIA_QUEUE_URL: mediaQueues.queueUrl,
        // The local object store; the browser reads media path-style under MEDIA_BASE_URL.
        S3_ENDPOINT,
        MEDIA_BUCKET,
        MEDIA_BASE_URL,
        API_PORT,
        OFFLINE_LAMBDA_PORT: LAMBDA_PORT,
        WEBSOCKET_PORT,
        // Views settle 20 s after a follow/unfollow instead of the deployed 60 s; it gives every
        // request an operation budget of 8.25 s (shared/runtime/deadline.ts). Overridable.
        SETTLE_SECONDS: process.env.SETTLE_SECONDS ?? '20',
        // Where `npm run load -- --chaos` asks the emulator to kill a worker invocation (infra/plugins/offline-chaos.cjs).
        LOCAL_CHAOS_DIR: resolve(STACK_DIR, 'chaos'),
      },
    },
  );
  offline = child;
  child.stdout!.on('data', logged(process.stdout));
  child.stderr!.on('data', logged(process.stderr));
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[run-local] serverless-offline exited unexpectedly (${code ?? signal}); stopping`);
    shutdown(1);
  });
  await waitForApi(child, 180_000);
  // Every function loaded before the URLs are printed: the first click is as fast as the next.
  // WARM_UP=0 skips it (a test's own `npm start`: each function then loads at its first call).
  if (process.env.WARM_UP !== '0') {
    const warmStarted = Date.now();
    checkpoint();
    const warmed = await warmHttpFunctions(API_URL);
    await warmWorkers(LAMBDA_URL, [`weibo-${STAGE}-fanout`, `weibo-${STAGE}-processMedia`]);
    const live = await warmLiveFunctions(LAMBDA_URL, STAGE);
    say(
      `${warmed.functions} HTTP functions, 2 workers and ${live} WebSocket routes loaded in ${((Date.now() - warmStarted) / 1000).toFixed(1)} s`,
    );
  }
  checkpoint();

  poller = startPoller({
    sqsEndpoint: SQS_ENDPOINT,
    queueUrl: queues.queueUrl,
    lambdaEndpoint: LAMBDA_URL,
    functionName: `weibo-${STAGE}-fanout`,
    batchSize: queues.settings.batchSize,
    // As the SQS event source runs several copies of the worker (serverless.yml workerMaxConcurrency).
    concurrency: Number(process.env.FANOUT_CONCURRENCY ?? '4'),
    waitSeconds: 1,
    // POLLER_TRACE=1: every worker invocation in the API log (docs/testing.md, "Pressure").
    trace: process.env.POLLER_TRACE === '1',
    log: (line) => logLine(`[sqs-poller] ${line}`),
  });
  // The media worker's own queue: one picture per invocation (infra/queue-settings.cjs media).
  mediaPoller = startMediaPoller({
    sqsEndpoint: SQS_ENDPOINT,
    queues: mediaQueues,
    lambdaEndpoint: LAMBDA_URL,
    functionName: `weibo-${STAGE}-processMedia`,
    log: (line) => logLine(`[media-poller] ${line}`),
  });

  // The web client, built for this run and served as the deployed stack serves it: static
  // files, with the API under /api and the WebSocket API at /api/live on the same origin.
  const build = await buildWeb({ apiUrl: '/api', outDir: `${STACK_DIR}/web` });
  web = await serveWeb({
    dir: build.outDir,
    apiUrl: API_URL,
    liveTarget: LIVE_URL,
    port: WEB_PORT,
    objectStoreUrl: S3_ENDPOINT,
  });
  checkpoint();

  console.log(`
weibo-serverless is running locally (stage ${STAGE})
  web client         : ${WEB_URL}/   (JS + CSS ${(build.total / 1024).toFixed(1)} KB gzipped)
  API reference      : ${WEB_URL}/api-docs/   (OpenAPI document: ${API_URL}/openapi.json)
  API                : ${API_URL}   (also ${WEB_URL}/api/ for the web client)
  WebSocket API      : ${LIVE_URL}   (also ${WEB_URL.replace(/^http/, 'ws')}/api/live; pushes at http://127.0.0.1:${WEBSOCKET_PORT}/@connections/<id>)
  Lambda invoke      : ${LAMBDA_URL}   (workers weibo-${STAGE}-fanout, weibo-${STAGE}-processMedia)
  HBase REST gateway : ${HBASE_REST_URL}   (namespace ${NAMESPACE})
  SQS (ElasticMQ)    : ${SQS_ENDPOINT}
  S3 (s3rver)        : ${S3_ENDPOINT}   (bucket ${MEDIA_BUCKET}, media at ${MEDIA_BASE_URL}/…, data ${STACK_DIR}/s3/data)
  fan-out queue      : ${queues.queueUrl}   (visibility ${queues.settings.visibilityTimeoutSeconds} s, DLQ after ${queues.settings.maxReceiveCount} receives)
  fan-out DLQ        : ${queues.deadLetterQueueUrl}
  media queue        : ${mediaQueues.queueUrl}   (one picture per invocation, DLQ after ${mediaQueues.settings.maxReceiveCount} receives)
  API log            : ${API_LOG}   (what this terminal shows of the API and the pollers)
  stack logs         : ${STACK_DIR}/*/logs/
Press Ctrl-C to stop${started.length ? ` (stops: serverless-offline, ${started.join(', ')})` : ' (stops serverless-offline; the stack was already running and is left running)'}.
`);
}

main().catch((err: unknown) => {
  if (stopping) return;
  console.error(`[run-local] ${err instanceof Error ? err.message : String(err)}`);
  shutdown(1);
});
