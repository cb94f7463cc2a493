// test/bench/live/offline.ts — the API, the WebSocket API and the fan-out worker for the live
// bench, started as `npm start` starts them (infra/local/run-local.ts): serverless-offline in a
// process group of its own on this checkout's ports (API_PORT, OFFLINE_LAMBDA_PORT,
// WEBSOCKET_PORT), on the run's own namespace and queues, and the local SQS poller feeding the
// worker with several invocations at once. stop() ends exactly what start() began, whatever
// state it reached. Also: the resident memory of that process group and of the HBase JVMs, read
// from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { lineSplitter, timeoutIn } from '../../../infra/local/api-log.js';
import { warmWorkers } from '../../../infra/local/warm-up.js';
import { startPoller, type Poller } from '../../../infra/local/sqs-poller.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface OfflineOptions {
  namespace: string;
  jwtSecret: string;
  hbaseRestUrl: string;
  sqsEndpoint: string;
  fanoutQueueUrl: string;
  mediaQueueUrl: string;
  s3Endpoint: string;
  mediaBucket: string;
  mediaBaseUrl: string;
  apiPort: string;
  lambdaPort: string;
  wsPort: string;
  workerConcurrency: number;
  /** The offline server's and the poller's output. */
  logFile: string;
  /** Where its bundles are built (removed at stop). */
  buildFolder: string;
}

export interface Offline {
  apiUrl: string;
  liveUrl: string;
  pid: number;
  /** What the server's log said since the last take(). */
  log: ServerLog;
  /** Loads the worker, then starts the poller. */
  startWorker(): Promise<void>;
  stop(): Promise<void>;
}

/** What the server log says happened over a stretch of the run. */
export interface ServerLogStretch {
  /** Invocations per function, and their durations as serverless-offline reports them (ms). */
  durations: Record<string, { n: number; p50Ms: number; p99Ms: number; maxMs: number }>;
  /** "Invocation ran out of time" lines, per function and cause. */
  ranOutOfTime: Record<string, number>;
  /** Worker invocations that ended in serverless-offline's Lambda timeout. */
  workerLambdaTimeouts: number;
  /** Queue messages the worker reported failed (they come back after the visibility timeout). */
  failedMessages: number;
  /** ERROR lines and lines naming a failed push or invocation (the first few). */
  errors: string[];
  errorCount: number;
}

export class ServerLog {
  private durations = new Map<string, number[]>();
  private ranOut = new Map<string, number>();
  private lambdaTimeouts = 0;
  private failed = 0;
  private errors: string[] = [];
  private errorCount = 0;

  line(line: string): void {
    const done = /^\(λ: (\S+)\) RequestId: \S+\s+Duration: ([\d.]+) ms/.exec(line);
    if (done) {
      const list = this.durations.get(done[1]!) ?? [];
      list.push(Number(done[2]));
      this.durations.set(done[1]!, list);
      return;
    }
    if (line.includes('"_aws"')) return; // metrics
    const kind = timeoutIn(line);
    if (kind === 'ranOutOfTime') {
      const m = /"function":"weibo-local-([^"]+)".*"cause":"([^"]+)"/.exec(line);
      const key = m ? `${m[1]} (${m[2]})` : 'unknown';
      this.ranOut.set(key, (this.ranOut.get(key) ?? 0) + 1);
      return;
    }
    if (kind === 'workerTimeouts') this.lambdaTimeouts++;
    const failed = /(\d+) of \d+ message\(s\) failed/.exec(line);
    if (failed) this.failed += Number(failed[1]);
    if (kind || failed || /"level":"ERROR"|Unhandled|ECONNRESET|EMFILE|Error:/.test(line)) {
      this.errorCount++;
      if (this.errors.length < 10) this.errors.push(line.slice(0, 500));
    }
  }

  /** Invocations of `fn` that ended since the last take(). */
  ended(fn: string): number {
    return this.durations.get(fn)?.length ?? 0;
  }

  /** Everything since the last take(), and starts again. */
  take(): ServerLogStretch {
    const durations: ServerLogStretch['durations'] = {};
    for (const [fn, list] of this.durations) {
      const sorted = [...list].sort((a, b) => a - b);
      const at = (p: number) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
      durations[fn] = { n: sorted.length, p50Ms: at(50), p99Ms: at(99), maxMs: sorted.at(-1)! };
    }
    const out = {
      durations,
      ranOutOfTime: Object.fromEntries(this.ranOut),
      workerLambdaTimeouts: this.lambdaTimeouts,
      failedMessages: this.failed,
      errors: this.errors,
      errorCount: this.errorCount,
    };
    this.durations = new Map();
    this.ranOut = new Map();
    this.lambdaTimeouts = 0;
    this.failed = 0;
    this.errors = [];
    this.errorCount = 0;
    return out;
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startOffline(o: OfflineOptions, timeoutMs = 300_000): Promise<Offline> {
  const log = createWriteStream(o.logFile, { flags: 'w' });
  const serverLog = new ServerLog();
  const lines = lineSplitter((line) => serverLog.line(line));
  let tail = '';
  const capture = (d: Buffer | string) => {
    log.write(d);
    tail = (tail + String(d)).slice(-6000);
    lines(d);
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [`${ROOT}node_modules/serverless/bin/serverless.js`, 'offline', 'start', '--stage', 'local'],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        HBASE_REST_URL: o.hbaseRestUrl,
        HBASE_NAMESPACE: o.namespace,
        JWT_SECRET: o.jwtSecret,
        API_PORT: o.apiPort,
        OFFLINE_LAMBDA_PORT: o.lambdaPort,
        WEBSOCKET_PORT: o.wsPort,
        SQS_ENDPOINT: o.sqsEndpoint,
        FANOUT_QUEUE_URL: o.fanoutQueueUrl,
        MEDIA_QUEUE_URL: o.mediaQueueUrl,
        S3_ENDPOINT: o.s3Endpoint,
        MEDIA_BUCKET: o.mediaBucket,
        MEDIA_BASE_URL: o.mediaBaseUrl,
        // As npm start: views settle 20 s after a follow (every request's operation budget follows).
        SETTLE_SECONDS: process.env.SETTLE_SECONDS ?? '20',
        PASSWORD_SCRYPT_LOG2N: '12',
        WEIBO_SCHEDULES_ENABLED: 'false',
        // One line per connect at INFO would be 1,000 lines a storm; warnings and errors stay.
        POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
        POWERTOOLS_METRICS_DISABLED: 'true',
        ESBUILD_WORK_FOLDER: o.buildFolder,
      },
    },
  );
  const pid = child.pid!;
  child.stdout!.on('data', capture);
  child.stderr!.on('data', capture);
  const apiUrl = `http://127.0.0.1:${o.apiPort}`;
  const lambdaUrl = `http://127.0.0.1:${o.lambdaPort}`;
  let poller: Poller | undefined;
  let stopped = false;

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await poller?.stop().catch(() => {});
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-pid, sig);
      } catch {
        /* already gone */
      }
    };
    if (groupAlive(pid)) signal('SIGTERM');
    for (let i = 0; i < 40 && groupAlive(pid); i++) await sleep(250);
    if (groupAlive(pid)) signal('SIGKILL');
    for (let i = 0; i < 20 && groupAlive(pid); i++) await sleep(100);
    log.end();
    rmSync(`${ROOT}${o.buildFolder}`, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`serverless-offline exited (${child.exitCode ?? child.signalCode}):\n${tail.slice(-3000)}`);
      if (Date.now() > deadline)
        throw new Error(
          `serverless-offline did not answer ${apiUrl} within ${timeoutMs / 1000} s:\n${tail.slice(-3000)}`,
        );
      try {
        await fetch(`${apiUrl}/users/probe`, { signal: AbortSignal.timeout(2_000) });
        break;
      } catch {
        await sleep(500);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    apiUrl,
    liveUrl: `ws://127.0.0.1:${o.wsPort}`,
    pid,
    log: serverLog,
    async startWorker() {
      await warmWorkers(lambdaUrl, ['weibo-local-fanout']);
      poller = startPoller({
        sqsEndpoint: o.sqsEndpoint,
        queueUrl: o.fanoutQueueUrl,
        lambdaEndpoint: lambdaUrl,
        functionName: 'weibo-local-fanout',
        batchSize: 10,
        concurrency: o.workerConcurrency,
        waitSeconds: 1,
        log: (line) => capture(`[sqs-poller] ${line}\n`),
      });
    },
    stop,
  };
}

// ------------------------------------------------------------------------------------- memory

function status(pid: number): { rssKB: number; threads: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(text);
    const threads = /Threads:\s+(\d+)/.exec(text);
    return { rssKB: rss ? Number(rss[1]) : 0, threads: threads ? Number(threads[1]) : 0 };
  } catch {
    return null;
  }
}

/** The pids of process group `pgid` (field 5 of /proc/<pid>/stat). */
function groupPids(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

export interface MemorySample {
  /** serverless-offline's process group: every process in it (the Lambda emulation runs worker threads inside it). */
  offlineMB: number;
  offlineProcesses: number;
  offlineThreads: number;
  /** The HBase master (standalone: master and RegionServer in one JVM) and the REST gateway. */
  hbaseMasterMB: number | null;
  hbaseRestMB: number | null;
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;

/** The JVM pids stack.sh wrote for this checkout's state directory (WEIBO_LOCAL_DIR). */
export function hbasePids(): { master: number | null; rest: number | null } {
  const dir = process.env.WEIBO_LOCAL_DIR ?? '.local';
  const base = dir.startsWith('/') ? dir : `${ROOT}${dir}`;
  const read = (f: string) => {
    const path = `${base}/hbase/${f}`;
    if (!existsSync(path)) return null;
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && status(pid) ? pid : null;
  };
  return { master: read('master.pid'), rest: read('rest.pid') };
}

export function sampleMemory(offlinePid: number, jvms: { master: number | null; rest: number | null }): MemorySample {
  let rss = 0;
  let threads = 0;
  const pids = groupPids(offlinePid);
  for (const pid of pids) {
    const s = status(pid);
    if (!s) continue;
    rss += s.rssKB;
    threads += s.threads;
  }
  const jvm = (pid: number | null) => {
    const s = pid === null ? null : status(pid);
    return s ? mb(s.rssKB) : null;
  };
  return {
    offlineMB: mb(rss),
    offlineProcesses: pids.length,
    offlineThreads: threads,
    hbaseMasterMB: jvm(jvms.master),
    hbaseRestMB: jvm(jvms.rest),
  };
}

/** Samples every `everyMs` until stopped; `peak` holds the largest offline RSS seen. */
export function memoryWatch(offlinePid: number, jvms: { master: number | null; rest: number | null }, everyMs = 500) {
  let peak: MemorySample | undefined;
  const timer = setInterval(() => {
    const s = sampleMemory(offlinePid, jvms);
    if (!peak || s.offlineMB > peak.offlineMB) peak = s;
  }, everyMs);
  timer.unref();
  return {
    /** The peak since the last reset, and starts again from now. */
    take(): MemorySample | undefined {
      const p = peak;
      peak = undefined;
      return p;
    },
    stop: () => clearInterval(timer),
  };
}
