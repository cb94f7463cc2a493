// test/bench/media/pipeline.ts — upload → ready for a 12-megapixel phone photo (issue 20 item 7),
// through the real pieces: the API's use cases on the real composition (mediaDependencies():
// HBase media records, the S3 adapter on the local object store, the SQS media queue), a real
// HTTP PUT of the bytes to the presigned URL, and the real media worker — the Lambda handler of
// functions/queue/process-media.ts, fed from this run's media queue by ../queue-consumer.ts (the
// event source mapping in process, the queue's own batch size: one picture per invocation).
// The clock stops when the handler has returned and a read of the record (readMedia, what
// GET /media/{id} answers) says `ready`: a client that polls sees it no sooner.
// The floor, timed on the same file in the same loop (alternating which goes first): the work
// the pipeline cannot avoid — PUT the bytes, GET them back, SharpImageProcessor.process (the
// worker's own processor), PUT the variants (in parallel, as the worker does) — raw S3 calls,
// no HBase, no queue.
// Throughput: N photos uploaded first, then all completed at once; ONE worker (one consumer
// loop, one picture per invocation) works them off; images/s = N / (first completion → last ready).
import { performance } from 'node:perf_hooks';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { SharpImageProcessor } from '../../../shared/adapters/images/sharp-image-processor.js';
import { isRefusal } from '../../../shared/ports/image-processor.js';
import type { MediaDescriptor } from '../../../shared/ports/media-store.js';
import type { MediaDeps } from '../../../shared/use-cases/media/media-deps.js';
import { completeUpload, readMedia, startUpload } from '../../../shared/use-cases/media/uploads.js';
import { Consumer, type QueueHandler } from '../queue-consumer.js';
import { summarize, type LatencySummary } from '../stats.js';

export interface PipelineRig {
  media: MediaDeps;
  /** The real worker handler (imported after the environment points at this run). */
  handler: QueueHandler;
  sqs: SQSClient;
  queueUrl: string;
  batchSize: number;
  functionName: string;
  memorySizeMB: number;
  /** Raw S3 client and bucket for the floor. */
  s3: S3Client;
  bucket: string;
  /** Key prefix of this run's floor objects. */
  floorPrefix: string;
  owner: string;
  bytes: Uint8Array;
  /** Every media id made is pushed here as it is made (so a failed run still removes its objects). */
  ids: string[];
  onProgress: (fraction: number, detail: string) => void;
}

/** Where one sample's time went, ms. */
export interface PipelineStages {
  declare: number;
  put: number;
  complete: number;
  /** completeUpload returned → the worker's handler returned (queue wait + the handler). */
  worker: number;
  /** The handler alone. */
  handler: number;
  confirm: number;
}

export interface PipelineResult {
  samples: number;
  fileBytes: number;
  pipeline: LatencySummary;
  floor: LatencySummary;
  p50Ratio: number;
  p99Ratio: number;
  /** Medians of each stage of the pipeline and of the floor. */
  stagesMedian: PipelineStages;
  floorStagesMedian: { put: number; get: number; process: number; putVariants: number };
  /** The worker's handler per image (from the timed samples). */
  handler: LatencySummary;
  /** What a processed photo is: kept for the timeline's pictures. */
  descriptor: MediaDescriptor;
  variants: { name: string; width: number; height: number }[];
  throughput: {
    images: number;
    seconds: number;
    imagesPerSecond: number;
    /** 1000 / median of the floor's processing alone: the processor's own pace on this machine. */
    processOnlyPerSecond: number;
    /** imagesPerSecond / processOnlyPerSecond. */
    ratio: number;
    handler: LatencySummary;
  };
  consumerErrors: string[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

export async function runPipeline(
  rig: PipelineRig,
  samples: number,
  warmup: number,
  throughputImages: number,
): Promise<PipelineResult> {
  const processor = new SharpImageProcessor();
  const { ids } = rig;
  // mediaId → resolve, called when the worker's handler returns for its message.
  const waiting = new Map<string, (handlerMs: number) => void>();
  const handled = new Map<string, number>();
  const consumer = new Consumer(rig.sqs, rig.queueUrl, rig.handler, {
    batchSize: rig.batchSize,
    functionName: rig.functionName,
    memoryLimitInMB: rig.memorySizeMB,
    onInvoked: (records, failed, handlerMs) => {
      for (const r of records) {
        if (failed.has(r.messageId)) continue;
        const id = (JSON.parse(r.body) as { mediaId: string }).mediaId;
        const done = waiting.get(id);
        if (done) done(handlerMs / records.length);
        else handled.set(id, handlerMs / records.length);
      }
    },
  });
  const workerDone = (id: string) =>
    new Promise<number>((resolve, reject) => {
      if (handled.has(id)) return resolve(handled.get(id)!);
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `media ${id}: the worker did not finish within 120 s (${consumer.errors.at(-1) ?? 'no consumer errors'})`,
            ),
          ),
        120_000,
      );
      waiting.set(id, (ms) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(ms);
      });
    });

  const upload = async () => {
    const { media, upload } = await startUpload(rig.media, rig.owner, {
      contentType: 'image/jpeg',
      size: rig.bytes.length,
      purpose: 'post',
    });
    ids.push(media.id);
    const res = await fetch(upload.url, { method: upload.method, headers: upload.headers, body: rig.bytes });
    if (res.status !== 200)
      throw new Error(`presigned PUT answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return media.id;
  };

  let descriptor: MediaDescriptor | undefined;
  const pipelineOnce = async (): Promise<{ ms: number; stages: PipelineStages }> => {
    const t0 = performance.now();
    const { media, upload: put } = await startUpload(rig.media, rig.owner, {
      contentType: 'image/jpeg',
      size: rig.bytes.length,
      purpose: 'post',
    });
    ids.push(media.id);
    const t1 = performance.now();
    const res = await fetch(put.url, { method: put.method, headers: put.headers, body: rig.bytes });
    if (res.status !== 200)
      throw new Error(`presigned PUT answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const t2 = performance.now();
    const worker = workerDone(media.id);
    const completed = await completeUpload(rig.media, rig.owner, media.id);
    if (completed.state !== 'processing')
      throw new Error(`completeUpload: ${media.id} is ${completed.state}, not processing`);
    const t3 = performance.now();
    const handlerMs = await worker;
    const t4 = performance.now();
    const record = await readMedia(rig.media, rig.owner, media.id);
    if (record.state !== 'ready' || !record.descriptor)
      throw new Error(`media ${media.id} ended ${record.state} (${record.reason ?? ''})`);
    descriptor = record.descriptor;
    const t5 = performance.now();
    return {
      ms: t5 - t0,
      stages: {
        declare: t1 - t0,
        put: t2 - t1,
        complete: t3 - t2,
        worker: t4 - t3,
        handler: handlerMs,
        confirm: t5 - t4,
      },
    };
  };

  let floorN = 0;
  const floorOnce = async () => {
    const key = `${rig.floorPrefix}/${floorN++}`;
    const t0 = performance.now();
    await rig.s3.send(
      new PutObjectCommand({ Bucket: rig.bucket, Key: key, Body: rig.bytes, ContentType: 'image/jpeg' }),
    );
    const t1 = performance.now();
    const got = await rig.s3.send(new GetObjectCommand({ Bucket: rig.bucket, Key: key }));
    const bytes = await got.Body!.transformToByteArray();
    const t2 = performance.now();
    const out = await processor.process(bytes, 'post');
    if (isRefusal(out)) throw new Error(`floor: the processor refused the photo (${out.refused})`);
    const t3 = performance.now();
    await Promise.all(
      out.variants.map((v) =>
        rig.s3.send(
          new PutObjectCommand({
            Bucket: rig.bucket,
            Key: `${key}/${v.name}.webp`,
            Body: v.bytes,
            ContentType: v.contentType,
          }),
        ),
      ),
    );
    const t4 = performance.now();
    await Promise.all(
      [key, ...out.variants.map((v) => `${key}/${v.name}.webp`)].map((Key) =>
        rig.s3.send(new DeleteObjectCommand({ Bucket: rig.bucket, Key })),
      ),
    );
    return { ms: t4 - t0, stages: { put: t1 - t0, get: t2 - t1, process: t3 - t2, putVariants: t4 - t3 } };
  };

  consumer.start();
  try {
    const total = warmup + samples + 1;
    for (let i = 0; i < warmup; i++) {
      await pipelineOnce();
      await floorOnce();
      rig.onProgress((i + 1) / total, `warm-up ${i + 1}/${warmup}`);
    }
    const pipeline: { ms: number; stages: PipelineStages }[] = [];
    const floor: Awaited<ReturnType<typeof floorOnce>>[] = [];
    for (let i = 0; i < samples; i++) {
      if (i % 2 === 0) {
        pipeline.push(await pipelineOnce());
        floor.push(await floorOnce());
      } else {
        floor.push(await floorOnce());
        pipeline.push(await pipelineOnce());
      }
      rig.onProgress((warmup + i + 1) / total, `${i + 1}/${samples} photos ready`);
    }

    // Throughput: the uploads first (untimed), then every completion at once, one worker.
    rig.onProgress((warmup + samples) / total, `throughput: uploading ${throughputImages} photos`);
    const burst: string[] = [];
    for (let i = 0; i < throughputImages; i++) burst.push(await upload());
    const doneAll = Promise.all(burst.map(workerDone));
    const t0 = performance.now();
    for (const id of burst) await completeUpload(rig.media, rig.owner, id);
    const burstHandler = await doneAll;
    const seconds = (performance.now() - t0) / 1000;
    const states = await Promise.all(burst.map((id) => readMedia(rig.media, rig.owner, id)));
    const notReady = states.filter((m) => m.state !== 'ready');
    if (notReady.length)
      throw new Error(
        `throughput: ${notReady.length} photos not ready (${notReady.map((m) => `${m.state} ${m.reason ?? ''}`).join(', ')})`,
      );

    const p = summarize(pipeline.map((x) => x.ms));
    const f = summarize(floor.map((x) => x.ms));
    const stage = <K extends string>(rows: Record<K, number>[], k: K) =>
      Math.round(median(rows.map((r) => r[k])) * 10) / 10;
    const st = pipeline.map((x) => x.stages);
    const ft = floor.map((x) => x.stages);
    const processOnlyPerSecond = 1000 / median(ft.map((x) => x.process));
    const imagesPerSecond = throughputImages / seconds;
    return {
      samples,
      fileBytes: rig.bytes.length,
      pipeline: p,
      floor: f,
      p50Ratio: p.medianMs / f.medianMs,
      p99Ratio: p.p99Ms / f.p99Ms,
      stagesMedian: {
        declare: stage(st, 'declare'),
        put: stage(st, 'put'),
        complete: stage(st, 'complete'),
        worker: stage(st, 'worker'),
        handler: stage(st, 'handler'),
        confirm: stage(st, 'confirm'),
      },
      floorStagesMedian: {
        put: stage(ft, 'put'),
        get: stage(ft, 'get'),
        process: stage(ft, 'process'),
        putVariants: stage(ft, 'putVariants'),
      },
      handler: summarize(st.map((x) => x.handler)),
      descriptor: descriptor!,
      variants: descriptor!.variants,
      throughput: {
        images: throughputImages,
        seconds: Math.round(seconds * 100) / 100,
        imagesPerSecond: Math.round(imagesPerSecond * 1000) / 1000,
        processOnlyPerSecond: Math.round(processOnlyPerSecond * 1000) / 1000,
        ratio: imagesPerSecond / processOnlyPerSecond,
        handler: summarize(burstHandler),
      },
      consumerErrors: consumer.errors,
    };
  } finally {
    await consumer.stop();
  }
}
