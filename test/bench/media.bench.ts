// test/bench/media.bench.ts — `npm run bench:media` (and `npm run bench:media -- --smoke`): the
// pictures' figures of issue 20 item 7, measured in ONE run on the local stack, as ratios where a
// floor exists (the floor measured in the same run, on the same files):
//   a. upload → ready p50/p99 of a 12-megapixel phone photo with EXIF: declare, PUT to the
//      presigned URL, complete, the real worker handler fed from this run's media queue, a read
//      that says ready — against the raw work it cannot avoid (./media/pipeline.ts)
//   b. images per second of ONE sequential worker, a burst of 12 MP photos (same file)
//   c. the worker's peak RSS for the 40-megapixel limit, in a child process (media-memory.ts's
//      measurement), against the function's memory setting read from serverless.yml
//   d. home timeline p99 against its floor ("inbox get + 3 parallel multi-gets", unchanged) with
//      nine pictures in every post, and without, on two identical graphs (./media/timeline.ts).
//      Here rather than in the feed bench: its pictures are the ones (a) processed, and both
//      graphs are written through the real post store, which the feed bench's raw loader is not.
// Everything lives in throwaway HBase namespaces and a throwaway media queue, and the objects
// it made are removed; all dropped at the end (also on Ctrl-C).
// Output: a progress line on stderr, a table on stdout, docs/bench/media-bench.json and .svg (smoke:
// bench-results/), and docs/benchmarks.md rewritten from docs/bench.
// Knobs: test/bench/media/settings.ts (MEDIA_BENCH_* variables; --smoke or BENCH_PROFILE=smoke).
// The stack must already run (HBase, ElasticMQ, the object store): `bash infra/local/stack.sh start`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { DeleteQueueCommand } from '@aws-sdk/client-sqs';
import {
  localMediaBaseUrl,
  localMediaBucket,
  localObjectStoreEndpoint,
  localS3Client,
  objectStoreHealthy,
} from '../../infra/local/object-store.js';
import { ensureQueues, localSqsClient } from '../../infra/local/sqs-poller.js';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { feedLimits, loadConfig } from '../../shared/config/config.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { VARIANT_NAMES } from '../../shared/ports/image-processor.js';
import { Progress } from './feed/progress.js';
import { chartSvg, formatTarget, formatValue, resultWord, target, type TargetResult } from './feed/report.js';
import { RequestRecorder } from './feed/requests.js';
import { benchSettings } from './feed/settings.js';
import { TIMELINE_FLOOR } from './feed/timeline.js';
import { CASES, measureInChild, PHOTO_12MP, ensureFixture } from './media-memory.js';
import { runPipeline } from './media/pipeline.js';
import { mediaBenchSettings, mediaOutPath, workerFunctionSettings } from './media/settings.js';
import { runPictureTimelines } from './media/timeline.js';
import type { QueueHandler } from './queue-consumer.js';
import { printTable } from './stats.js';
import { refreshBenchmarksPage } from '../../infra/docs/benchmarks-document.js';

const CORES = availableParallelism();

const started = performance.now();
const s = mediaBenchSettings();
const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const ns = `mbench_${runId}`;
const nsPictures = `mbenchp_${runId}`;
const queueName = `weibo-mbench-${runId}`;
const worker = workerFunctionSettings();

// The real composition (mediaDependencies() for the API side, the worker's own) reads its
// configuration from the environment on first use: point it at this run before anything does.
process.env.HBASE_NAMESPACE = ns;
const sqsEndpoint = process.env.SQS_ENDPOINT || `http://127.0.0.1:${process.env.ELASTICMQ_PORT || '19324'}`;
const s3Endpoint = localObjectStoreEndpoint();
const bucket = localMediaBucket();
process.env.SQS_ENDPOINT = sqsEndpoint;
process.env.S3_ENDPOINT = s3Endpoint;
process.env.MEDIA_BUCKET = bucket;
process.env.MEDIA_BASE_URL = localMediaBaseUrl(s3Endpoint, bucket);
// Every sample is an upload by one user: the per-user upload limit is set out of the way (its request is still made).
process.env.UPLOADS_PER_MINUTE = '1000000';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// The worker's CloudWatch metrics (one EMF line per invocation on stdout) would bury the table.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
const cfg = loadConfig(process.env);
const restUrl = cfg.HBASE_REST_URL;
const headers: Record<string, string> = cfg.HBASE_AUTHORIZATION ? { Authorization: cfg.HBASE_AUTHORIZATION } : {};

async function stackProblem(): Promise<string | null> {
  const problems: string[] = [];
  const answers = async (what: string, url: string, init: RequestInit = {}) => {
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
      if (res.status !== 200) problems.push(`${what} ${url} answered ${res.status}`);
    } catch (err) {
      problems.push(`${what} ${url} does not answer (${(err as Error).message})`);
    }
  };
  await answers('HBase REST gateway', `${restUrl}/version/cluster`, {
    headers: { ...headers, Accept: 'application/json' },
  });
  await answers('ElasticMQ', `${sqsEndpoint}/health`);
  if (!(await objectStoreHealthy(s3Endpoint, bucket)))
    problems.push(`the object store ${s3Endpoint} does not answer or has no bucket ${bucket}`);
  return problems.length ? problems.join('; ') : null;
}

const problem = await stackProblem();
if (problem) {
  process.stderr.write(
    `media bench: the local stack is not running — ${problem}.\nStart it first with:  bash infra/local/stack.sh start   (or npm run stack:start), then run the bench again.\n`,
  );
  process.exit(2);
}

const recorder = new RequestRecorder();
const hb = new HBaseRestClient({ baseUrl: restUrl, timeoutMs: 300_000, headers, onRequest: recorder.onRequest });
const s3 = localS3Client(s3Endpoint);
const sqs = localSqsClient(sqsEndpoint);
const configured = feedLimits(cfg);
const limits = { ...configured, writesPerMinute: { ...configured.writesPerMinute, like: 1_000_000 } };
const progress = new Progress([
  { id: 'setup', label: 'schema, media queue, fixtures', weight: 5 },
  { id: 'pipeline', label: 'upload → ready vs its floor, then a burst for images/s', weight: 30 },
  { id: 'memory', label: `worker peak RSS at the 40 MP limit (child process)`, weight: 10 },
  { id: 'tlseed', label: 'timeline graphs through the post store (plain, nine pictures)', weight: 25 },
  { id: 'tlplain', label: `home timeline vs ${TIMELINE_FLOOR}, no pictures`, weight: 15 },
  { id: 'tlpictures', label: `home timeline vs ${TIMELINE_FLOOR}, nine pictures a post`, weight: 15 },
]);

let queueUrls: string[] = [];
const madeIds: string[] = [];
let cleaned = false;
async function dropNamespace(name: string): Promise<void> {
  try {
    const res = await fetch(`${restUrl}/namespaces/${name}/tables`, {
      headers: { ...headers, Accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    const names =
      res.status === 200
        ? (((await res.json()) as { table?: { name: string }[] }).table?.map((t) => t.name) ?? [])
        : [];
    for (const t of names) await hb.deleteTable(`${name}:${t}`).catch(() => {});
    // The gateway refuses to drop a namespace while the master still lists a table in it: retry.
    for (let attempt = 0; attempt < 10; attempt++) {
      await hb.deleteNamespace(name).catch(() => {});
      if (!(await hb.namespaceExists(name).catch(() => true))) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    process.stderr.write(`media bench: could not drop namespace ${name}; drop it by hand\n`);
  } catch (err) {
    process.stderr.write(`media bench: cleanup of namespace ${name} failed: ${String(err)}\n`);
  }
}
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  // The variants of every picture made (the worker already removed the originals; a leftover
  // original is removed too).
  const keys = madeIds.flatMap((id) => [`uploads/${id}`, ...VARIANT_NAMES.post.map((n) => `media/${id}/${n}.webp`)]);
  for (let i = 0; i < keys.length; i += 16) {
    await Promise.all(
      keys.slice(i, i + 16).map((Key) => s3.send(new DeleteObjectCommand({ Bucket: bucket, Key })).catch(() => {})),
    );
  }
  await dropNamespace(ns);
  await dropNamespace(nsPictures);
  for (const QueueUrl of queueUrls) await sqs.send(new DeleteQueueCommand({ QueueUrl })).catch(() => {});
}
process.once('SIGINT', () => {
  process.stderr.write('\nmedia bench: interrupted, dropping the namespaces, the queue and the objects…\n');
  void cleanup().finally(() => process.exit(130));
});

try {
  progress.phase('setup', `${ns}, ${nsPictures}`);
  const hbaseVersion = await hb.clusterVersion();
  await applySchema(hb, ns);
  await applySchema(hb, nsPictures);
  const queues = await ensureQueues({ sqsEndpoint, stage: 'local', queue: 'media', queueName });
  queueUrls = [queues.queueUrl, queues.deadLetterQueueUrl];
  process.env.MEDIA_QUEUE_URL = queues.queueUrl;
  const photoFile = ensureFixture(PHOTO_12MP);
  const bytes = new Uint8Array(readFileSync(photoFile));

  // Imported only now: the composition and the worker's logger read the environment set above.
  const { mediaDependencies } = await import('../../shared/wiring/media.js');
  const { mediaObjects } = await import('../../shared/wiring/objects.js');
  const { handler } = (await import('../../functions/queue/process-media.js')) as { handler: QueueHandler };
  const media = mediaDependencies();

  // a + b
  progress.phase('pipeline', `${s.warmup} warm-up + ${s.samples} photos, then ${s.throughputImages} at once`);
  const pipeline = await runPipeline(
    {
      media,
      handler,
      sqs,
      queueUrl: queues.queueUrl,
      batchSize: queues.settings.batchSize,
      functionName: `weibo-bench-processMedia`,
      memorySizeMB: worker.memorySizeMB,
      s3,
      bucket,
      floorPrefix: `bench-floor/${runId}`,
      owner: 'mediabench',
      bytes,
      ids: madeIds,
      onProgress: (f, d) => progress.update(f, d),
    },
    s.samples,
    s.warmup,
    s.throughputImages,
  );

  // c
  const big = CASES.find((c) => c.name === '40 MP')!;
  progress.phase(
    'memory',
    `${big.width}×${big.height}, ${s.memoryRepeat} image(s), ${Object.entries(worker.environment)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  const memory = measureInChild(big, 'from-bytes', { repeat: s.memoryRepeat, env: worker.environment });
  // The child's own high-water mark (VmHWM, reset by exec): getrusage's maxRSS starts from this
  // parent's peak, which the 12 MP photos processed in process above have raised.
  const peakMB = memory.hwmMB ?? memory.peakMB;

  // d
  progress.phase('tlseed', `${s.timelineUsers} users × ~${s.timelinePostsPerUser} posts, twice`);
  const feedBase = benchSettings(process.env, s.profile === 'smoke' ? ['--smoke'] : []);
  const feedSettings = {
    ...feedBase,
    users: s.timelineUsers,
    medianFollowing: s.timelineMedianFollowing,
    postsPerUser: s.timelinePostsPerUser,
    timelineReaders: s.timelineReaders,
  };
  const objects = mediaObjects();
  const timelines = await runPictureTimelines(
    { hb, recorder, restUrl, sqsEndpoint, headers, limits, progress },
    { plain: ns, pictures: nsPictures },
    feedSettings,
    // The timeline only reads: nothing is queued (no post is deleted here).
    { media: media.media, variantUrl: (id, name) => objects.variantUrl(id, name), queue: { send: async () => {} } },
    pipeline.descriptor,
    s.seedConcurrency,
    (step) => {
      if (step === 'seeded') progress.phase('tlplain', `${s.timelineReaders} readers`);
      if (step === 'plain') progress.phase('tlpictures', `${s.timelineReaders} readers`);
    },
  );
  progress.done();

  const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
  const fileMB = (pipeline.fileBytes / 1048576).toFixed(1);
  const { plain, pictures } = timelines;
  const targets: TargetResult[] = [
    target({
      id: 'upload_ready_p50_ratio',
      label: `12 MP photo (${fileMB} MB, EXIF) upload → ready p50 / raw floor p50 (${pipeline.samples} photos)`,
      formula: `${Math.round(pipeline.pipeline.medianMs)} ms / ${Math.round(pipeline.floor.medianMs)} ms`,
      value: pipeline.p50Ratio,
      kind: 'info',
      target: 0,
      unit: '×',
    }),
    target({
      id: 'upload_ready_p99_ratio',
      label: `  same, p99`,
      formula: `${Math.round(pipeline.pipeline.p99Ms)} ms / ${Math.round(pipeline.floor.p99Ms)} ms`,
      value: pipeline.p99Ratio,
      kind: 'info',
      target: 0,
      unit: '×',
    }),
    target({
      id: 'worker_images_per_second_ratio',
      label: `One worker: ${pipeline.throughput.imagesPerSecond.toFixed(2)} images/s (${pipeline.throughput.images} 12 MP photos) / the processor alone`,
      formula: `${pipeline.throughput.imagesPerSecond.toFixed(2)} / ${pipeline.throughput.processOnlyPerSecond.toFixed(2)} images/s`,
      value: pipeline.throughput.ratio,
      kind: 'info',
      target: 0,
      unit: '%',
    }),
    target({
      id: 'worker_peak_rss_share',
      label: `Worker peak RSS, 40 MP JPEG (${memory.msPerImage.length} image(s)) / processMedia memorySize (${worker.memorySizeMB} MB)`,
      formula: `${peakMB} MB / ${worker.memorySizeMB} MB`,
      value: peakMB / worker.memorySizeMB,
      kind: 'info',
      target: 0,
      unit: '%',
    }),
    target({
      id: 'timeline_p99_ratio_pictures',
      label: `Timeline p99 / raw ${TIMELINE_FLOOR} p99, nine pictures a post (${pictures.readers} readers)`,
      formula: `${pictures.useCase.p99Ms.toFixed(1)} ms / ${pictures.floor.p99Ms.toFixed(1)} ms`,
      value: pictures.p99Ratio,
      kind: 'max',
      target: 1.5,
      unit: '×',
    }),
    target({
      id: 'timeline_p99_ratio_plain',
      label: `  same graph without pictures`,
      formula: `${plain.useCase.p99Ms.toFixed(1)} ms / ${plain.floor.p99Ms.toFixed(1)} ms`,
      value: plain.p99Ratio,
      kind: 'max',
      target: 1.5,
      unit: '×',
    }),
    target({
      id: 'timeline_sequential_round_trips_pictures',
      label: 'Home timeline page with pictures: sequential HBase round trips (worst page)',
      formula: `${pictures.requestsPerPage.max} requests max, ${pictures.sequentialRoundTrips.max} sequential`,
      value: pictures.sequentialRoundTrips.max,
      kind: 'max',
      target: 2,
      unit: 'requests',
    }),
  ];

  const metrics: Record<string, number> = {
    wall_seconds: wallSeconds,
    photo_bytes: pipeline.fileBytes,
    upload_ready_p50_ms: pipeline.pipeline.medianMs,
    upload_ready_p99_ms: pipeline.pipeline.p99Ms,
    upload_floor_p50_ms: pipeline.floor.medianMs,
    upload_floor_p99_ms: pipeline.floor.p99Ms,
    upload_ready_p50_ratio: pipeline.p50Ratio,
    upload_ready_p99_ratio: pipeline.p99Ratio,
    worker_handler_p50_ms: pipeline.handler.medianMs,
    worker_handler_p99_ms: pipeline.handler.p99Ms,
    worker_images_per_second: pipeline.throughput.imagesPerSecond,
    worker_burst_seconds: pipeline.throughput.seconds,
    processor_only_images_per_second: pipeline.throughput.processOnlyPerSecond,
    worker_images_per_second_ratio: pipeline.throughput.ratio,
    worker_memory_size_mb: worker.memorySizeMB,
    worker_40mp_peak_rss_mb: peakMB,
    worker_40mp_peak_rss_share: peakMB / worker.memorySizeMB,
    worker_40mp_ms_per_image_max: Math.max(...memory.msPerImage),
    timeline_pictures_p50_ms: pictures.useCase.medianMs,
    timeline_pictures_p99_ms: pictures.useCase.p99Ms,
    timeline_pictures_floor_p99_ms: pictures.floor.p99Ms,
    timeline_pictures_p50_ratio: pictures.p50Ratio,
    timeline_pictures_p99_ratio: pictures.p99Ratio,
    timeline_pictures_requests_per_page_max: pictures.requestsPerPage.max,
    timeline_pictures_sequential_round_trips_max: pictures.sequentialRoundTrips.max,
    timeline_plain_p50_ms: plain.useCase.medianMs,
    timeline_plain_p99_ms: plain.useCase.p99Ms,
    timeline_plain_floor_p99_ms: plain.floor.p99Ms,
    timeline_plain_p50_ratio: plain.p50Ratio,
    timeline_plain_p99_ratio: plain.p99Ratio,
    timeline_plain_sequential_round_trips_max: plain.sequentialRoundTrips.max,
    timeline_post_media_cell_bytes: timelines.mediaCellBytes,
  };

  const result = {
    at: new Date().toISOString(),
    profile: s.profile,
    hbaseVersion,
    restUrl,
    objectStore: s3Endpoint,
    node: process.version,
    cores: CORES,
    wallSeconds,
    settings: s,
    worker: {
      function: 'processMedia',
      from: worker.from,
      memorySizeMB: worker.memorySizeMB,
      environment: worker.environment,
      driven:
        "functions/queue/process-media.ts handler, in process, fed from this run's media queue (test/bench/queue-consumer.ts)",
    },
    metrics,
    targets,
    pipeline: {
      ...pipeline,
      photo: { file: photoFile, width: PHOTO_12MP.width, height: PHOTO_12MP.height, exif: true },
    },
    memory: {
      case: big,
      peakMB,
      measuredAs: memory.hwmMB === null ? 'getrusage maxRSS' : 'VmHWM of the child process',
      child: memory,
    },
    timeline: { ...timelines, floorShape: TIMELINE_FLOOR },
  };

  mkdirSync(s.outDir, { recursive: true });
  writeFileSync(mediaOutPath(s, 'json'), `${JSON.stringify(result, null, 2)}\n`);
  const subtitle = `${s.profile} profile · ${CORES} cores · HBase ${hbaseVersion} via REST · s3rver · ${new Date().toISOString().slice(0, 16)}Z · wall ${wallSeconds} s`;
  writeFileSync(
    mediaOutPath(s, 'svg'),
    chartSvg('weibo-serverless pictures benchmark: measured vs floor', subtitle, targets),
  );
  if (refreshBenchmarksPage(s.outDir)) console.log('rewrote docs/benchmarks.md');

  const st = pipeline.stagesMedian;
  const ft = pipeline.floorStagesMedian;
  printTable(
    `Pictures benchmark (${s.profile}): ${pipeline.samples} photos of ${fileMB} MB; timeline graphs of ${timelines.users} users, ${timelines.posts} posts`,
    ['figure', 'measured', 'target', 'result'],
    [
      ...targets.map((t) => [t.label, formatValue(t), formatTarget(t), resultWord(t)]),
      [
        `  upload → ready p50 / p99`,
        `${Math.round(pipeline.pipeline.medianMs)} / ${Math.round(pipeline.pipeline.p99Ms)} ms`,
        '—',
        'info',
      ],
      [
        `  pipeline stages (median): declare ${st.declare}, PUT ${st.put}, complete ${st.complete}, worker ${st.worker} (handler ${st.handler}), read ${st.confirm} ms`,
        '',
        '—',
        'info',
      ],
      [
        `  floor stages (median): PUT ${ft.put}, GET ${ft.get}, process ${ft.process}, PUT variants ${ft.putVariants} ms`,
        '',
        '—',
        'info',
      ],
      [
        `  worker handler per 12 MP photo p50 / p99`,
        `${Math.round(pipeline.handler.medianMs)} / ${Math.round(pipeline.handler.p99Ms)} ms`,
        '—',
        'info',
      ],
      [
        `  worker 40 MP: peak RSS (VmHWM of the child) over ${memory.msPerImage.length} image(s), ms/image ${memory.msPerImage.join(', ')}`,
        `${peakMB} MB`,
        '—',
        'info',
      ],
      [
        `  timeline p50 with / without pictures (${timelines.mediaCellBytes} B of p:m a post)`,
        `${pictures.useCase.medianMs.toFixed(1)} / ${plain.useCase.medianMs.toFixed(1)} ms`,
        '—',
        'info',
      ],
    ],
  );
  console.log(`\nwall time ${wallSeconds} s · JSON ${mediaOutPath(s, 'json')} · chart ${mediaOutPath(s, 'svg')}`);
} catch (err) {
  process.stderr.write(`\nmedia bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
  await hb.close();
  s3.destroy();
  sqs.destroy();
}
// Pooled keep-alive connections (the composition's clients) would hold the process open for their idle timeout.
process.exit(process.exitCode ?? 0);
