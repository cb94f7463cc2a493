// test/bench/cold-start.bench.ts — `npm run bench:cold`: what a cold start costs per function,
// BEFORE (the packaging of commit BEFORE_COMMIT, built in a temp clone) → AFTER (this checkout).
// For every function's zip, as `serverless package --stage dev` builds it: its size, its
// bundle's size, the bundle's require-to-ready time (a fresh `node` requiring the extracted
// handler file) and its first invocation (the same fresh process invoking the handler once with a
// minimal event: an HTTP function's unauthenticated or invalid request — its 4xx path — or a
// public read of an empty namespace; a worker's batch of one invalid record; a job's step over an
// empty namespace), medians of --runs processes. The AWS SDK clients the runtime provides resolve
// from node_modules (NODE_PATH), as from /var/runtime in Lambda. Writes docs/bench/cold-start.json
// and docs/bench/cold-start.md (every function), then rewrites docs/benchmarks.md from docs/bench.
//
//   npm run bench:cold [-- --runs 5] [--before-dir <package dir>] [--after-dir <package dir>] [--only like,login]
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { DeleteQueueCommand } from '@aws-sdk/client-sqs';
import { ensureQueues, localSqsClient } from '../../infra/local/sqs-poller.js';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { zipEntries } from '../packaging/zip.js';
import { dropNamespace } from '../support/namespace.js';
import { refreshBenchmarksPage } from '../../infra/docs/benchmarks-document.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The packaging before per-capability wiring: every function reached one composition root. */
const BEFORE_COMMIT = 'f5228fb';
const run = promisify(execFile);

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'before-dir': { type: 'string' },
    'after-dir': { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'docs/bench') },
  },
});
const RUNS = Number(args.runs);

interface Fn {
  name: string;
  handler: string;
  zip: string;
  event: 'http' | 'sqs' | 'schedule';
  method?: string;
  path?: string;
}
interface Measured {
  zipBytes: number;
  bundleBytes: number;
  requireMs: number;
  /** CPU time of the require (all threads): steadier than wall time on a shared machine. */
  requireCpuMs: number;
  firstInvokeMs: number;
  /** The HTTP status, or the outcome of a worker or job: what the first invocation answered. */
  answer: string;
}

const say = (line: string) => console.log(`[bench:cold] ${line}`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** `serverless package --stage dev` of `dir` into a fresh folder (its own esbuild work folder). */
async function packageOf(dir: string): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'weibo-cold-pkg-'));
  await run(
    process.execPath,
    [
      join(dir, 'node_modules/serverless/bin/serverless.js'),
      'package',
      '--stage',
      'dev',
      '--package',
      out,
      '--param=hbaseRestUrl=https://hbase-rest.bench.internal:8443',
    ],
    {
      cwd: dir,
      env: {
        ...process.env,
        AWS_EC2_METADATA_DISABLED: 'true',
        ESBUILD_WORK_FOLDER: `.esbuild/bench-cold-${process.pid}`,
      },
      timeout: 600_000,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return out;
}

/** The commit before this change, cloned beside, sharing this checkout's node_modules. */
async function packageBefore(): Promise<string> {
  const clone = mkdtempSync(join(tmpdir(), 'weibo-cold-before-'));
  try {
    await run('git', ['clone', '--quiet', '--shared', '--no-checkout', ROOT, clone]);
    await run('git', ['-C', clone, 'checkout', '--quiet', BEFORE_COMMIT]);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    return await packageOf(clone);
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}

/** The properties of the template's resources read here (each resource type has some of them). */
interface TemplateProperties {
  IntegrationUri?: unknown;
  Target?: unknown;
  RouteKey?: string;
  FunctionName?: { 'Fn::GetAtt': string[] };
  Code?: { S3Key: string };
  Handler?: string;
}

/** The functions of a package: handler, zip and trigger, from the template it wrote. */
function functionsOf(packageDir: string): Fn[] {
  const template = JSON.parse(readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties: TemplateProperties }>;
  };
  const resources = Object.entries(template.Resources);
  const routeOf = (logicalId: string) => {
    const integration = resources.find(
      ([, r]) =>
        r.Type === 'AWS::ApiGatewayV2::Integration' &&
        JSON.stringify(r.Properties.IntegrationUri).includes(`"${logicalId}"`),
    )?.[0];
    const route = resources.find(
      ([, r]) =>
        r.Type === 'AWS::ApiGatewayV2::Route' &&
        integration &&
        JSON.stringify(r.Properties.Target).includes(integration),
    );
    return route?.[1].Properties.RouteKey;
  };
  const queueFed = new Set(
    resources
      .filter(([, r]) => r.Type === 'AWS::Lambda::EventSourceMapping')
      .map(([, r]) => r.Properties.FunctionName!['Fn::GetAtt'][0]),
  );
  return resources
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([id, r]) => {
      const zip = join(packageDir, r.Properties.Code!.S3Key.split('/').pop()!);
      const name = zip
        .split('/')
        .pop()!
        .replace(/\.zip$/, '');
      const routeKey = routeOf(id);
      if (routeKey) {
        const [method, path] = routeKey === '$default' ? ['GET', '/no/such/route'] : routeKey.split(' ');
        return { name, handler: r.Properties.Handler as string, zip, event: 'http' as const, method, path };
      }
      return {
        name,
        handler: r.Properties.Handler as string,
        zip,
        event: queueFed.has(id) ? ('sqs' as const) : ('schedule' as const),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A minimal event of the function's trigger (see the header). */
function eventFor(fn: Fn): unknown {
  if (fn.event === 'sqs') {
    return {
      Records: [
        {
          messageId: 'bench-1',
          receiptHandle: 'r',
          body: '{}',
          attributes: { ApproximateReceiveCount: '1' },
          messageAttributes: {},
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:bench',
        },
      ],
    };
  }
  if (fn.event === 'schedule')
    return {
      version: '0',
      id: 'bench',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      time: new Date().toISOString(),
      resources: [],
      detail: {},
    };
  const params: Record<string, string> = {};
  const path = fn.path!.replace(
    /\{(\w+)\}/g,
    (_, name: string) =>
      (params[name] = name === 'postId' ? 'not-a-post-id' : name === 'handle' ? 'bench_nobody' : 'bench'),
  );
  const writes = fn.method !== 'GET' && fn.method !== 'DELETE';
  return {
    version: '2.0',
    routeKey: `${fn.method} ${fn.path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', host: 'bench.local' },
    pathParameters: params,
    requestContext: {
      http: { method: fn.method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench',
      routeKey: `${fn.method} ${fn.path}`,
      stage: '$default',
      timeEpoch: Date.now(),
    },
    ...(writes ? { body: '{}' } : {}),
    isBase64Encoded: false,
  };
}

/** Run in a fresh process per measurement: require the bundle, then invoke it once. */
const PROBE = `
const [file, exportName, eventJson, name] = process.argv.slice(1);
const c0 = process.cpuUsage();
const t0 = performance.now();
const mod = require(file);
const t1 = performance.now();
const cpu = process.cpuUsage(c0);
const context = { functionName: name, awsRequestId: 'bench-' + process.pid, invokedFunctionArn: 'arn:aws:lambda:eu-west-1:000000000000:function:' + name,
  memoryLimitInMB: '512', functionVersion: '$LATEST', logGroupName: 'bench', logStreamName: 'bench', callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 10000 };
Promise.resolve(mod[exportName](JSON.parse(eventJson), context)).then(
  (r) => { const t2 = performance.now(); process.stdout.write(JSON.stringify({ require: t1 - t0, requireCpu: (cpu.user + cpu.system) / 1000, invoke: t2 - t1, answer: r && r.statusCode ? String(r.statusCode) : r && r.batchItemFailures ? 'failures:' + r.batchItemFailures.length : r && r.status ? String(r.status) : typeof r })); process.exit(0); },
  (e) => { const t2 = performance.now(); process.stdout.write(JSON.stringify({ require: t1 - t0, requireCpu: (cpu.user + cpu.system) / 1000, invoke: t2 - t1, answer: 'threw ' + (e && e.name) })); process.exit(0); });
`;

function probe(
  file: string,
  exportName: string,
  event: unknown,
  name: string,
  env: NodeJS.ProcessEnv,
): Promise<{ require: number; requireCpu: number; invoke: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', PROBE, file, exportName, JSON.stringify(event), name], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`probe of ${name} failed: ${err.slice(-2000)}`));
      }
    });
  });
}

/** Extracts a zip into `dir` (the bundle, its map, the media worker's node_modules). */
function extract(zip: string, dir: string): void {
  for (const [name, read] of zipEntries(zip)) {
    if (name.endsWith('/')) continue;
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), read());
  }
}

async function measure(
  label: string,
  packageDir: string,
  env: NodeJS.ProcessEnv,
  only: Set<string> | null,
): Promise<Map<string, Measured>> {
  const fns = functionsOf(packageDir).filter((f) => !only || only.has(f.name));
  const work = mkdtempSync(join(tmpdir(), `weibo-cold-${label}-`));
  const results = new Map<string, Measured>();
  try {
    for (const fn of fns) {
      const dir = join(work, fn.name);
      extract(fn.zip, dir);
      const dot = fn.handler.lastIndexOf('.');
      const file = join(dir, `${fn.handler.slice(0, dot)}.cjs`);
      const samples = [];
      for (let i = 0; i < RUNS; i++)
        samples.push(await probe(file, fn.handler.slice(dot + 1), eventFor(fn), `weibo-dev-${fn.name}`, env));
      const m: Measured = {
        zipBytes: statSync(fn.zip).size,
        bundleBytes: statSync(file).size,
        requireMs: Math.round(median(samples.map((s) => s.require)) * 10) / 10,
        requireCpuMs: Math.round(median(samples.map((s) => s.requireCpu)) * 10) / 10,
        firstInvokeMs: Math.round(median(samples.map((s) => s.invoke)) * 10) / 10,
        answer: samples[0]!.answer,
      };
      results.set(fn.name, m);
      say(
        `${label.padEnd(6)} ${fn.name.padEnd(24)} zip ${(m.zipBytes / 1024).toFixed(0).padStart(5)} KB  require ${m.requireMs.toFixed(0).padStart(4)} ms (cpu ${m.requireCpuMs.toFixed(0).padStart(4)} ms)  first invocation ${m.firstInvokeMs.toFixed(0).padStart(5)} ms  (${m.answer})`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return results;
}

async function main(): Promise<void> {
  const head = gitHead(); // the commit AFTER is packaged from
  const only = args.only ? new Set(args.only.split(',')) : null;
  const hbaseUrl = process.env.HBASE_REST_URL ?? 'http://127.0.0.1:18080';
  const sqsEndpoint = process.env.SQS_ENDPOINT ?? 'http://127.0.0.1:19324';
  const s3Endpoint = process.env.S3_ENDPOINT ?? 'http://127.0.0.1:19000';
  const namespace = `cold_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const hbase = new HBaseRestClient({ baseUrl: hbaseUrl, timeoutMs: 60_000 });

  say(
    `packaging AFTER (this checkout)${args['after-dir'] ? ': given' : ''} and BEFORE (${BEFORE_COMMIT})${args['before-dir'] ? ': given' : ''}`,
  );
  const afterDir = args['after-dir'] ?? (await packageOf(ROOT));
  const beforeDir = args['before-dir'] ?? (await packageBefore());

  await applySchema(hbase, namespace);
  const queues = await ensureQueues({ sqsEndpoint, stage: 'local', queueName: `weibo-local-fanout-${namespace}` });
  const mediaQueues = await ensureQueues({
    sqsEndpoint,
    stage: 'local',
    queue: 'media',
    queueName: `weibo-local-media-${namespace}`,
  });
  // The local stage's function environment (infra/stage-settings.cjs), on an empty namespace.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_PATH: join(ROOT, 'node_modules'), // the runtime's AWS SDK, as /var/runtime/node_modules in Lambda
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_EC2_METADATA_DISABLED: 'true',
    POWERTOOLS_SERVICE_NAME: 'weibo',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
    HBASE_REST_URL: hbaseUrl,
    HBASE_NAMESPACE: namespace,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    PASSWORD_SCRYPT_LOG2N: '15',
    SQS_ENDPOINT: sqsEndpoint,
    FANOUT_QUEUE_URL: queues.queueUrl,
    FANOUT_DLQ_URL: queues.deadLetterQueueUrl,
    MEDIA_QUEUE_URL: mediaQueues.queueUrl,
    S3_ENDPOINT: s3Endpoint,
    MEDIA_BUCKET: process.env.MEDIA_BUCKET ?? 'weibo-local-media',
    MEDIA_BASE_URL: `${s3Endpoint}/${process.env.MEDIA_BUCKET ?? 'weibo-local-media'}`,
    // A job never hands a step on (an empty namespace ends in one), but never toward AWS either.
    LAMBDA_ENDPOINT: 'http://127.0.0.1:9',
  };
  try {
    const before = await measure('before', beforeDir, env, only);
    const after = await measure('after', afterDir, env, only);
    write(before, after, head);
  } finally {
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
    await dropNamespace(hbase, namespace);
    await hbase.close();
    if (!args['after-dir']) rmSync(afterDir, { recursive: true, force: true });
    if (!args['before-dir']) rmSync(beforeDir, { recursive: true, force: true });
  }
}

function write(before: Map<string, Measured>, after: Map<string, Measured>, head: string): void {
  const names = [...after.keys()].filter((n) => before.has(n));
  const rows = names.map((name) => ({ name, before: before.get(name)!, after: after.get(name)! }));
  const sum = (m: Map<string, Measured>, k: 'zipBytes' | 'bundleBytes') => names.reduce((s, n) => s + m.get(n)![k], 0);
  const med = (m: Map<string, Measured>, k: 'requireMs' | 'requireCpuMs' | 'firstInvokeMs') =>
    Math.round(median(names.map((n) => m.get(n)![k])));
  const summary = {
    functions: names.length,
    totalZipBytes: { before: sum(before, 'zipBytes'), after: sum(after, 'zipBytes') },
    totalBundleBytes: { before: sum(before, 'bundleBytes'), after: sum(after, 'bundleBytes') },
    medianRequireMs: { before: med(before, 'requireMs'), after: med(after, 'requireMs') },
    medianRequireCpuMs: { before: med(before, 'requireCpuMs'), after: med(after, 'requireCpuMs') },
    medianFirstInvokeMs: { before: med(before, 'firstInvokeMs'), after: med(after, 'firstInvokeMs') },
  };
  mkdirSync(args.out!, { recursive: true });
  const doc = {
    measuredAt: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    runsPerFunction: RUNS,
    before: { commit: BEFORE_COMMIT },
    after: { commit: head },
    method:
      'zip as `serverless package --stage dev` builds it; a fresh node process per sample requires the extracted handler file (require) and invokes it once with a minimal event (first invocation); medians',
    summary,
    functions: rows,
  };
  writeFileSync(join(args.out!, 'cold-start.json'), `${JSON.stringify(doc, null, 2)}\n`);
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const md = [
    `<!-- docs/bench/cold-start.md — written by npm run bench:cold (test/bench/cold-start.bench.ts); do not edit. -->`,
    `Cold start per function, BEFORE (${BEFORE_COMMIT}) → AFTER (${doc.after.commit}); ${doc.machine.cpus} × ${doc.machine.model}, node ${doc.machine.node}, median of ${RUNS} fresh processes, ${doc.measuredAt.slice(0, 10)}.`,
    '',
    `All ${names.length} functions: zips ${kb(summary.totalZipBytes.before)} → ${kb(summary.totalZipBytes.after)}, bundles ${kb(summary.totalBundleBytes.before)} → ${kb(summary.totalBundleBytes.after)}; median require ${summary.medianRequireMs.before} → ${summary.medianRequireMs.after} ms (CPU ${summary.medianRequireCpuMs.before} → ${summary.medianRequireCpuMs.after} ms), median first invocation ${summary.medianFirstInvokeMs.before} → ${summary.medianFirstInvokeMs.after} ms.`,
    '',
    '| function | zip | bundle | require (ms) | require CPU (ms) | first invocation (ms) | answer |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${kb(r.before.zipBytes)} → ${kb(r.after.zipBytes)} | ${kb(r.before.bundleBytes)} → ${kb(r.after.bundleBytes)} | ${r.before.requireMs.toFixed(0)} → ${r.after.requireMs.toFixed(0)} | ${r.before.requireCpuMs.toFixed(0)} → ${r.after.requireCpuMs.toFixed(0)} | ${r.before.firstInvokeMs.toFixed(0)} → ${r.after.firstInvokeMs.toFixed(0)} | ${r.after.answer} |`,
    ),
    '',
  ].join('\n');
  writeFileSync(join(args.out!, 'cold-start.md'), md);
  if (refreshBenchmarksPage(args.out!)) say('rewrote docs/benchmarks.md');
  say(`wrote ${join(args.out!, 'cold-start.json')} and cold-start.md`);
  say(JSON.stringify(summary));
}

/** This checkout's commit, as the AFTER side of the table. */
function gitHead(): string {
  return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
