// test/support/offline-setup.ts — end-to-end tests go through HTTP exactly as clients do: the
// API runs under serverless-offline (API Gateway HTTP API + Lambda emulation of our real
// handlers) against the real HBase. Runs after global-setup.ts (the stack is up), creates a
// fan-out queue + DLQ of its own in ElasticMQ and starts serverless-offline, then returns: in the
// background it applies the schema to a fresh namespace of its own, waits for every function to
// load and starts the local SQS poller (infra/local/sqs-poller.ts) that feeds the worker through
// the offline Lambda endpoint, and writes the ready file the e2e files wait on
// (./e2e-ready.ts). After the run it stops both and drops the namespace and the queues.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DeleteQueueCommand } from '@aws-sdk/client-sqs';
import type { TestProject } from 'vitest/node';
import { localMediaBaseUrl } from '../../infra/local/object-store.js';
import { warmHttpFunctions, warmLiveFunctions } from '../../infra/local/warm-up.js';
import { apiLogFile } from '../../infra/local/api-log.js';
import {
  ensureQueues,
  localQueueUrl,
  localSqsClient,
  namespaceQueueName,
  queueSettings,
  startMediaPoller,
  startPoller,
  type Poller,
} from '../../infra/local/sqs-poller.js';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { E2E_CELEBRITY_FOLLOWERS, E2E_SETTLE_SECONDS } from './e2e-settings.js';
import { dropNamespace } from './namespace.js';
import { stackDir } from './pressure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`serverless-offline exited (${child.exitCode}):\n${output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`serverless-offline did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
}

/** What the started stack gives the tests (project.provide; `inject` reads it). */
interface OfflineProvided {
  apiUrl: string;
  /** The WebSocket API (the live channel, infra/functions/live.yml). */
  liveUrl: string;
  e2eNamespace: string;
  jwtSecret: string;
  offlineLogFile: string;
  fanoutQueueUrl: string;
  fanoutDlqUrl: string;
  lambdaEndpoint: string;
  /** Written once the API answers with every function loaded, or with why it never will (e2e-ready.ts waits on it). */
  e2eReadyFile: string;
}

/** The started stack's values, and how to take it down. */
interface OfflineStack {
  provided: OfflineProvided;
  teardown: () => Promise<void>;
}

/**
 * One serverless-offline for the whole run: the parallel `e2e` and `browser` projects and the
 * serial `e2e-serial` one (vitest.config.ts) all list this setup, and vitest runs a project's
 * global setup once per project, in the same process. The first call starts the stack (its warm-up
 * of every function goes on in the background); the others share it; the last teardown stops it.
 */
const SHARED = Symbol.for('weibo.e2e.offline');
type Shared = { stack: Promise<OfflineStack>; users: number };
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

export default async function setup(project: TestProject) {
  const shared = registry[SHARED] ?? {
    stack: process.env.E2E_EXTERNAL_API_PORT ? runningApi(process.env.E2E_EXTERNAL_API_PORT) : startOffline(),
    users: 0,
  };
  registry[SHARED] = shared;
  shared.users++;
  let stack: OfflineStack;
  try {
    stack = await shared.stack;
  } catch (err) {
    registry[SHARED] = undefined;
    throw err;
  }
  for (const [key, value] of Object.entries(stack.provided))
    project.provide(key as keyof OfflineStack['provided'], value);
  return async () => {
    if (--shared.users > 0) return;
    registry[SHARED] = undefined;
    await stack.teardown();
  };
}

/**
 * E2E_EXTERNAL_API_PORT=<port>: the API an `npm start` of this checkout serves on that port (its
 * namespace HBASE_NAMESPACE, default weibo), not one started here — to run the model check
 * against exactly what `npm start` runs (docs/testing.md, "Pressure"). Its queues are the ones
 * npm start made for the namespace, its log the one it writes (infra/local/api-log.ts), its
 * signing secret .local/dev-jwt-secret (or JWT_SECRET). Nothing is made or removed here.
 */
async function runningApi(apiPort: string): Promise<OfflineStack> {
  const sqsEndpoint = process.env.SQS_ENDPOINT!;
  const namespace = process.env.HBASE_NAMESPACE ?? 'weibo';
  const queueName = namespaceQueueName('local', namespace) ?? queueSettings('local').queueName;
  const queueUrl = localQueueUrl(sqsEndpoint, queueName);
  const secretFile = `${ROOT}/.local/dev-jwt-secret`;
  const readyFile = `${ROOT}/.local/logs/external-${apiPort}.ready.json`;
  mkdirSync(`${ROOT}/.local/logs`, { recursive: true });
  writeReadyFile(readyFile, { ready: true });
  console.log(
    `[e2e] API ${`http://127.0.0.1:${apiPort}`} (an npm start of namespace ${namespace}); fan-out queue ${queueUrl}`,
  );
  return {
    provided: {
      apiUrl: `http://127.0.0.1:${apiPort}`,
      liveUrl: `ws://127.0.0.1:${process.env.WEBSOCKET_PORT ?? '13003'}`,
      e2eNamespace: namespace,
      jwtSecret: process.env.JWT_SECRET ?? (existsSync(secretFile) ? readFileSync(secretFile, 'utf8').trim() : ''),
      offlineLogFile: apiLogFile(stackDir(), apiPort),
      fanoutQueueUrl: queueUrl,
      fanoutDlqUrl: `${queueUrl}-dlq`,
      lambdaEndpoint: `http://127.0.0.1:${process.env.OFFLINE_LAMBDA_PORT ?? '13002'}`,
      e2eReadyFile: readyFile,
    },
    teardown: async () => rmSync(readyFile, { force: true }),
  };
}

async function startOffline(): Promise<OfflineStack> {
  const hbaseRestUrl = process.env.HBASE_REST_URL!;
  const sqsEndpoint = process.env.SQS_ENDPOINT!;
  const s3Endpoint = process.env.S3_ENDPOINT!;
  const mediaBucket = process.env.MEDIA_BUCKET!;
  const namespace = `e2e_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const jwtSecret = randomBytes(32).toString('base64url');
  const apiPort = process.env.E2E_API_PORT ?? '13100';
  const lambdaPort = process.env.E2E_LAMBDA_PORT ?? '13102';
  const wsPort = process.env.E2E_WS_PORT ?? '13103';
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const lambdaEndpoint = `http://127.0.0.1:${lambdaPort}`;

  const hbase = new HBaseRestClient({ baseUrl: hbaseRestUrl, timeoutMs: 60_000 });
  // A queue pair per run (local stage numbers), so runs never see each other's messages.
  const queues = await ensureQueues({ sqsEndpoint, stage: 'local', queueName: `weibo-local-fanout-${namespace}` });
  const mediaQueues = await ensureQueues({
    sqsEndpoint,
    stage: 'local',
    queue: 'media',
    queueName: `weibo-local-media-${namespace}`,
  });
  const dropQueues = async () => {
    const sqs = localSqsClient(sqsEndpoint);
    for (const url of [
      queues.queueUrl,
      queues.deadLetterQueueUrl,
      mediaQueues.queueUrl,
      mediaQueues.deadLetterQueueUrl,
    ]) {
      await sqs.send(new DeleteQueueCommand({ QueueUrl: url })).catch(() => {});
    }
    sqs.destroy();
  };

  const buildFolder = `.esbuild/e2e-${namespace}`;
  let log = '';
  // The handlers' log output is kept in a file: tests read it to prove no secret appears there.
  mkdirSync(`${ROOT}/.local/logs`, { recursive: true });
  const logFile = `${ROOT}/.local/logs/offline-${namespace}.log`;
  writeFileSync(logFile, '');
  // Its own process group, so teardown can end the offline server and every worker it forks.
  const child = spawn(
    process.execPath,
    [`${ROOT}/node_modules/serverless/bin/serverless.js`, 'offline', 'start', '--stage', 'local'],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        HBASE_NAMESPACE: namespace,
        JWT_SECRET: jwtSecret,
        API_PORT: apiPort,
        OFFLINE_LAMBDA_PORT: lambdaPort,
        WEBSOCKET_PORT: wsPort,
        SQS_ENDPOINT: sqsEndpoint,
        FANOUT_QUEUE_URL: queues.queueUrl,
        MEDIA_QUEUE_URL: mediaQueues.queueUrl,
        // The object store global-setup.ts made sure of (infra/queue-settings.cjs hands these to
        // the local stage's functions); objects are read back path-style from <endpoint>/<bucket>.
        S3_ENDPOINT: s3Endpoint,
        MEDIA_BUCKET: mediaBucket,
        MEDIA_BASE_URL: localMediaBaseUrl(s3Endpoint, mediaBucket),
        // A tiny celebrity threshold so e2e tests can cross it both ways (scale.test.ts).
        CELEBRITY_FOLLOWERS: String(E2E_CELEBRITY_FOLLOWERS),
        // The settle window, and with it every request's operation budget (e2e-settings.ts).
        SETTLE_SECONDS: String(E2E_SETTLE_SECONDS),
        // The hot feed's ranking is reused 1 s, not 60 s: a test that ranks reads the new ranking at once.
        HOT_CACHE_SECONDS: '1',
        // Throwaway users' passwords hashed at N=2^12 (17 ms of CPU, not 140 ms at the local
        // stage's 2^15): the suite registers and signs in hundreds of them (shared/config/config.ts).
        PASSWORD_SCRYPT_LOG2N: '12',
        // The jobs run when a test invokes them, never because the clock struck the hour mid-test.
        WEIBO_SCHEDULES_ENABLED: 'false',
        // Scheduled jobs (test/e2e/serial/jobs.test.ts): a tiny step, so a job must continue through
        // asynchronous invocations of itself on the offline Lambda port; the run's own DLQ.
        JOB_ROWS_PER_STEP: '5',
        LAMBDA_ENDPOINT: lambdaEndpoint,
        FANOUT_DLQ_URL: queues.deadLetterQueueUrl,
        // Logs from the handlers become test evidence (no secrets may appear in them).
        POWERTOOLS_LOG_LEVEL: 'INFO',
        // Bundles of its own (removed at teardown): an `npm start` of the same checkout keeps its
        // .esbuild/offline (infra/plugins/build-folders.cjs), and no rebuild here touches it.
        ESBUILD_WORK_FOLDER: buildFolder,
      },
    },
  );
  const capture = (d: Buffer) => {
    log = (log + String(d)).slice(-20_000);
    appendFileSync(logFile, d);
  };
  child.stdout!.on('data', capture);
  child.stderr!.on('data', capture);
  const stop = () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
  };

  // Not awaited here: bundling every function (serverless-esbuild) takes a minute or two of this
  // 2-core machine, and the unit and integration files need none of it. They run meanwhile; the
  // first e2e file waits for this file (test/support/e2e-ready.ts).
  const readyFile = `${ROOT}/.local/logs/offline-${namespace}.ready.json`;
  rmSync(readyFile, { force: true });
  const ready = (async (): Promise<Poller[]> => {
    const started = Date.now();
    const [, warmed] = await Promise.all([
      applySchema(hbase, namespace),
      waitForHttp(`${apiUrl}/users/probe`, child, () => log.slice(-4000), 300_000).then(() =>
        warmHttpFunctions(apiUrl),
      ),
    ]);
    // After the schema: a frame and a $disconnect read the live table.
    await warmLiveFunctions(lambdaEndpoint, 'local');
    const pollers = [
      startPoller({
        sqsEndpoint,
        queueUrl: queues.queueUrl,
        lambdaEndpoint,
        functionName: 'weibo-local-fanout',
        batchSize: queues.settings.batchSize,
        // Worker invocations at once: one unless E2E_FANOUT_CONCURRENCY asks for more (npm start
        // runs 4, as the SQS event source runs several; a pressure run may want the same).
        concurrency: Number(process.env.E2E_FANOUT_CONCURRENCY ?? '1'),
        waitSeconds: 1,
        // POLLER_TRACE=1: every worker invocation in the log, for reading a failed run afterwards.
        trace: process.env.POLLER_TRACE === '1',
        log: (line) => capture(Buffer.from(`[sqs-poller] ${line}\n`)),
      }),
      // The media worker's own queue, one picture per invocation (infra/queue-settings.cjs media).
      startMediaPoller({
        sqsEndpoint,
        queues: mediaQueues,
        lambdaEndpoint,
        functionName: 'weibo-local-processMedia',
        log: (line) => capture(Buffer.from(`[media-poller] ${line}\n`)),
      }),
    ];
    console.log(
      `[e2e] API ${apiUrl} (serverless-offline) on HBase namespace ${namespace}, ready after ${((Date.now() - started) / 1000).toFixed(0)} s ` +
        `(${warmed.functions} HTTP functions loaded in ${warmed.ms} ms); fan-out queue ${queues.queueUrl}`,
    );
    return pollers;
  })();
  ready.then(
    () => writeReadyFile(readyFile, { ready: true }),
    (err: unknown) => {
      stop();
      writeReadyFile(readyFile, { ready: false, error: err instanceof Error ? err.message : String(err) });
    },
  );

  return {
    provided: {
      apiUrl,
      liveUrl: `ws://127.0.0.1:${wsPort}`,
      e2eNamespace: namespace,
      jwtSecret,
      offlineLogFile: logFile,
      fanoutQueueUrl: queues.queueUrl,
      fanoutDlqUrl: queues.deadLetterQueueUrl,
      lambdaEndpoint,
      e2eReadyFile: readyFile,
    },
    teardown: async () => {
      // The pollers first: they must not invoke a worker that is going away.
      const pollers = await ready.catch(() => [] as Poller[]);
      await Promise.all(pollers.map((p) => p.stop()));
      stop();
      rmSync(readyFile, { force: true });
      rmSync(`${ROOT}/${buildFolder}`, { recursive: true, force: true });
      await dropQueues();
      // E2E_KEEP_NAMESPACE=1 keeps the run's rows for a look after it (a failed model check's
      // stored state, docs/testing.md); the log file stays in any case.
      if (process.env.E2E_KEEP_NAMESPACE === '1')
        console.log(`[e2e] kept namespace ${namespace} (E2E_KEEP_NAMESPACE=1); its API log is ${logFile}`);
      else await dropNamespace(hbase, namespace);
      await hbase.close();
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext extends OfflineProvided {}
}

/**
 * The ready file, whole or not at all (written aside, then renamed): the e2e files poll for it
 * (test/support/e2e-ready.ts) and must never read it half-written.
 */
function writeReadyFile(file: string, state: { ready: boolean; error?: string }): void {
  writeFileSync(`${file}.part`, JSON.stringify(state));
  renameSync(`${file}.part`, file);
}
