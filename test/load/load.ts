// test/load/load.ts — `npm run load`: the sustained-load run (workload.ts) against a running
// `npm start`, with CPU per process sampled from /proc meanwhile (cpu-sampler.ts); prints the
// rate achieved, errors, mismatches after the drain, p50/p99 per route class and where the CPU
// went; exits 1 unless errors and mismatches are both 0. In test/ and not infra/: it is built
// on the model test's reference model and the e2e client (test/support), which infra/ must not
// import.
//
//   npm run load -- [--url http://127.0.0.1:13000] [--rate 20] [--duration 60] [--concurrency 16]
//                   [--max-requests N] [--users 20] [--burst 100] [--seed N] [--json file]
//                   [--pressure | --chaos] [--api-log file]
//
// --pressure: during the run phase, a CPU burner per core and the stack's REST gateway paused
// now and then on the seed's schedule (test/support/pressure.ts; docs/testing.md, "Pressure").
// The summary counts the invocations that ran out of time: 503 `timeout` answers and
// serverless-offline's 504s from the answers; the workers' Lambda timeouts and the
// 'Invocation ran out of time' lines from the API's log that `npm start` writes
// (infra/local/api-log.ts; --api-log names another), over the run and the drain.
//
// --chaos: during the run phase, on the seed's schedule, the stack's REST gateway is restarted a
// few times and fan-out worker invocations are killed part-way (chaos.ts; docs/operations.md,
// "Chaos load"). A 503 with Retry-After is then the API's due answer, counted apart (the driver
// sends writes again past it, their ids making that safe); any other 5xx is an error. The summary
// adds each fault — when, what, and how long it cost — the totals, and the DLQ's messages; it
// exits 1 unless errors, lost items, mismatches and new DLQ messages are all 0.
//
// The queue it waits on is the one `npm start` made for HBASE_NAMESPACE (default weibo) on
// SQS_ENDPOINT; --queue-url names another. LOAD_API_URL may stand for --url.
import { closeSync, existsSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { apiLogFile, countLogTimeouts, type LogTimeouts } from '../../infra/local/api-log.js';
import { localQueueUrl, localSqsClient, namespaceQueueName, queueSettings } from '../../infra/local/sqs-poller.js';
import { resendFor } from '../support/model/http.js';
import { findGateway, stackDir, startPressure, type Pressure } from '../support/pressure.js';
import { queueCounts } from '../support/queue.js';
import { describeTimeouts } from '../support/timeouts.js';
import { checkKillable, describeChaos, isLoss, startChaos, type Chaos, type FaultFigures } from './chaos.js';
import { startCpuSampler, type CpuSample } from './cpu-sampler.js';
import { runLoad, type LoadReport } from './workload.js';

const STAGE = 'local';

const { values: flags } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.LOAD_API_URL ?? 'http://127.0.0.1:13000' },
    rate: { type: 'string', default: '20' },
    duration: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '16' },
    'max-requests': { type: 'string' },
    users: { type: 'string', default: '20' },
    burst: { type: 'string', default: '100' },
    seed: { type: 'string' },
    'queue-url': { type: 'string' },
    json: { type: 'string' },
    pressure: { type: 'boolean', default: false },
    // `npm run load --chaos` (no `--`) hands the flag to npm, which passes it on as npm_config_chaos.
    chaos: { type: 'boolean', default: process.env.npm_config_chaos === 'true' },
    'api-log': { type: 'string' },
  },
});

const num = (name: string, value: string | undefined, min: number) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min} (got ${value})`);
  return n;
};

async function main(): Promise<void> {
  const sqsEndpoint = process.env.SQS_ENDPOINT ?? `http://127.0.0.1:${process.env.ELASTICMQ_PORT ?? '19324'}`;
  const namespace = process.env.HBASE_NAMESPACE ?? 'weibo';
  const queueName = namespaceQueueName(STAGE, namespace) ?? queueSettings(STAGE).queueName;
  const queueUrl = flags['queue-url'] ?? localQueueUrl(sqsEndpoint, queueName);
  const restUrl = process.env.HBASE_REST_URL ?? `http://127.0.0.1:${process.env.HBASE_REST_PORT ?? '18080'}`;
  const seed = flags.seed ? num('seed', flags.seed, 0) : Math.floor(Math.random() * 1_000_000);
  const opts = {
    apiUrl: flags.url.replace(/\/+$/, ''),
    sqsEndpoint,
    queueUrl,
    rate: num('rate', flags.rate, 0.1),
    durationSeconds: num('duration', flags.duration, 1),
    concurrency: num('concurrency', flags.concurrency, 1),
    ...(flags['max-requests'] ? { maxRequests: num('max-requests', flags['max-requests'], 1) } : {}),
    users: num('users', flags.users, 4),
    burst: num('burst', flags.burst, 0),
    seed,
    log: (line: string) => console.log(`[load] ${line}`),
  };
  try {
    const res = await fetch(`${opts.apiUrl}/openapi.json`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`status ${res.status}`);
  } catch (err) {
    throw new Error(
      `no API answers on ${opts.apiUrl} (${err instanceof Error ? err.message : String(err)}): start it with npm start, or pass --url`,
    );
  }
  console.log(
    `[load] ${opts.apiUrl}: ${opts.rate}/s for ${opts.durationSeconds} s, at most ${opts.concurrency} in flight, ${opts.users} users + a crowd of ${opts.burst}, seed ${seed}; queue ${queueUrl}`,
  );
  let cpu: CpuSample | undefined;
  const sampler = startCpuSampler({
    restPort: new URL(restUrl).port || '80',
    apiPort: new URL(opts.apiUrl).port || '80',
  });
  const apiLog = flags['api-log'] ?? apiLogFile(stackDir(), new URL(opts.apiUrl).port || '80');
  let logFrom = 0;
  let logTimeouts: LogTimeouts | undefined;
  let pressure: Pressure | undefined;
  if (flags.pressure && flags.chaos) throw new Error('--pressure and --chaos: one at a time');
  const gateway =
    flags.pressure || flags.chaos ? gatewayOf(restUrl, flags.chaos ? '--chaos' : '--pressure') : undefined;
  const apiPort = new URL(opts.apiUrl).port || '80';
  const chaosDir = `${stackDir()}/chaos`;
  let chaos: Chaos | undefined;
  const sqs = localSqsClient(sqsEndpoint);
  const dlqUrl = `${queueUrl}-dlq`;
  let deadBefore = 0;
  if (flags.chaos) {
    const why = checkKillable(chaosDir, apiPort);
    if (why) throw new Error(`--chaos: cannot kill worker invocations (${why})`);
    deadBefore = await dlqDepth(sqs, dlqUrl);
    // A write with no answer is sent again for up to 2 minutes: past any restart of the gateway.
    resendFor(120_000);
  }
  let report: LoadReport;
  try {
    report = await runLoad({
      ...opts,
      retryLaterIsAnswer: flags.chaos,
      log: (line) => {
        // The run's own CPU ends where the drain starts: the compare's reads are not the workload.
        if (line.startsWith('run: ')) cpu = sampler.stop();
        // The log's stretch ends once the queue has drained: the workers' part of the run is in it.
        if (line.startsWith('queue drained')) logTimeouts = readLogTimeouts(apiLog, logFrom);
        opts.log(line);
      },
      onRunStart: (handles) => {
        logFrom = logSize(apiLog);
        if (flags.chaos)
          chaos = startChaos({
            seed,
            durationMs: opts.durationSeconds * 1000,
            apiUrl: opts.apiUrl,
            probePath: `/users/${handles[0]}`,
            sqs,
            queueUrl,
            chaosDir,
            apiPort,
            functionName: `weibo-${STAGE}-fanout`,
            log: (l) => console.log(`[load] ${l}`),
          });
        // PRESSURE_BURNERS=<n>: that many CPU burners instead of one per core (a heavier machine).
        const burners = Number(process.env.PRESSURE_BURNERS);
        if (flags.pressure && gateway !== undefined) {
          pressure = startPressure({
            seed,
            gatewayPid: gateway,
            ...(Number.isInteger(burners) && burners > 0 ? { burners } : {}),
            log: (l) => console.log(`[load] pressure: ${l}`),
          });
        }
      },
      onRunEnd: async () => {
        await pressure?.stop();
        pressure = undefined;
        await chaos?.stopFaults();
      },
    });
  } finally {
    await pressure?.stop();
    // Past the drain: a killed batch's messages are done again by now, or they never will be.
    if (chaos) chaosFigures = await chaos.finish(30_000);
  }
  print(report, cpu, logTimeouts, apiLog);
  let chaosOk = true;
  if (flags.chaos) {
    const dead = (await dlqDepth(sqs, dlqUrl)) - deadBefore;
    const { lines, ok } = describeChaos(
      chaosFigures.faults,
      chaosFigures.startedAt,
      { byPhase: report.retryLater, at: report.retryLaterAt },
      dead,
    );
    const lost = report.mismatches.filter(isLoss).length;
    lines.push(
      `lost: ${lost}; mismatches: ${report.mismatches.length}; errors (5xx but a 503 with Retry-After, 429, no answer): ${report.errors} — seed ${seed}`,
    );
    console.log(lines.join('\n'));
    chaosOk = ok && lost === 0;
  }
  sqs.destroy();
  summarized = true;
  if (flags.json)
    writeFileSync(
      flags.json,
      `${JSON.stringify({ report, cpu, logTimeouts: logTimeouts ?? null, ...(flags.chaos ? { chaos: chaosFigures } : {}) }, null, 2)}\n`,
    );
  process.exitCode = report.errors === 0 && report.mismatches.length === 0 && chaosOk ? 0 : 1;
}

let chaosFigures: { startedAt: number; faults: FaultFigures[] } = { startedAt: 0, faults: [] };

/** Messages in a queue: visible, in flight and delayed. */
async function dlqDepth(sqs: ReturnType<typeof localSqsClient>, url: string): Promise<number> {
  return Object.values(await queueCounts(sqs, url)).reduce((a, b) => a + b, 0);
}

/** The REST gateway --pressure pauses or --chaos restarts: the one stack.sh started for this environment's stack, or none (an error). */
function gatewayOf(restUrl: string, flag: string): number {
  const found = findGateway(stackDir(), new URL(restUrl).port || '80');
  if ('reason' in found)
    throw new Error(
      `${flag}: cannot reach the REST gateway's process (${found.reason}); run against a stack of this checkout (WEIBO_LOCAL_DIR and its ports)`,
    );
  return found.pid;
}

function logSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** What the API's log says ran out of time from `from` bytes on; undefined without a log. */
function readLogTimeouts(file: string, from: number): LogTimeouts | undefined {
  if (!existsSync(file)) return undefined;
  const size = logSize(file);
  if (size <= from) return { ranOutOfTime: 0, workerTimeouts: 0 };
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    return countLogTimeouts(buf.toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

function print(r: LoadReport, cpu: CpuSample | undefined, log: LogTimeouts | undefined, apiLog: string): void {
  const by5xx = Object.entries(r.answers.status5xx).map(([s, n]) => `${s} ×${n}`);
  const lines = [
    '',
    `rate: target ${r.targetRate}/s, achieved ${r.achievedRate}/s (${r.arrivals - r.dropped} arrivals, ${r.dropped} dropped at the concurrency bound); ${r.requestRate} requests/s with the bursts; max ${r.maxInFlight} in flight`,
    `requests: ${Object.entries(r.requests)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ')}`,
    `errors: ${r.errors} (${Object.entries(r.errorsByPhase)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ')})`,
    ...r.errorSamples.slice(0, 15).map((e) => `  - ${e}`),
    `5xx answers of the run and bursts: ${Object.values(r.answers.status5xx).reduce((a, b) => a + b, 0)}${by5xx.length ? ` (${by5xx.join(', ')})` : ''} of ${r.answers.total}`,
    `${describeTimeouts({ api503: r.answers.api503Timeouts, emulator504: r.answers.emulator504Timeouts }, log)}${log ? '' : ` (no ${apiLog}: start the API with npm start from this checkout, or pass --api-log)`}`,
    `mismatches after the drain: ${r.mismatches.length} (drain ${r.drainSeconds} s, compare ${r.compareSeconds} s: ${r.compared.views} post views, ${r.compared.commentLists} comment lists, ${r.compared.likerLists} liker lists, ${r.compared.notifications} notifications, ${r.compared.crowdChecked} crowd members by list and counts)`,
    ...r.mismatches.slice(0, 30).map((m) => `  - ${m}`),
    '',
    'route class         n      p50 ms   p99 ms   max ms',
    ...r.routes.map(
      (x) =>
        `${x.route.padEnd(18)} ${String(x.n).padStart(6)} ${String(x.p50Ms).padStart(9)} ${String(x.p99Ms).padStart(8)} ${String(x.maxMs).padStart(8)}`,
    ),
    '',
    ...r.bursts.map(
      (b) =>
        `burst: ${b.name}: ${b.requests} requests in ${(b.ms / 1000).toFixed(1)} s, p50 ${b.p50Ms} ms, p99 ${b.p99Ms} ms`,
    ),
  ];
  if (cpu) {
    lines.push(
      '',
      `CPU during the run (${cpu.wallSeconds.toFixed(0)} s; 100 % = one core; machine ${cpu.cores} cores, ${cpu.machineBusyPercent} % busy overall):`,
    );
    for (const c of cpu.components)
      lines.push(
        `  ${c.component.padEnd(32)} ${String(c.cpuPercent).padStart(6)} %   RSS ${c.rssMb} MB   (pid ${c.pid})`,
      );
    lines.push(`  ${'everything else on the machine'.padEnd(32)} ${String(cpu.othersPercent).padStart(6)} %`);
  }
  console.log(lines.join('\n'));
}

// An await that never settles, with nothing left to wait on, ends the process quietly with 0:
// a run that did not print its summary must not pass for a good one.
let summarized = false;
process.once('exit', () => {
  if (summarized || process.exitCode) return;
  console.error('[load] the run ended before its summary');
  process.exitCode = 1;
});

main().catch((err: unknown) => {
  console.error(`[load] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
