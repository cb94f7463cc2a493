// infra/local/sqs-poller.ts — local stand-in for Lambda's SQS event source mapping: long-polls
// the fan-out queue, invokes the worker through serverless-offline's Lambda endpoint with a
// real-shaped SQS event, and deletes only the records the worker did not report in
// batchItemFailures (serverless-offline-sqs deletes whole batches: docs/adr/0003-own-sqs-poller.md).
// Failed records come back after the visibility timeout; ElasticMQ's redrive policy moves a
// message to the DLQ after maxReceiveCount receives, as SQS does.
// Also: ensureQueues, which creates the local queues from infra/queue-settings.cjs.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
  type Message,
  type MessageAttributeValue,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord, SQSRecordAttributes } from 'aws-lambda';

const require = createRequire(import.meta.url);
const queueSettingsModule = require('../queue-settings.cjs') as typeof import('../queue-settings.cjs');
export const { queueSettings, localQueueUrl, isLocalStage } = queueSettingsModule;
export type { QueueSettings } from '../queue-settings.cjs';

/** ElasticMQ's region (stack.sh) and keys it accepts; never a developer's real credentials. */
const LOCAL_REGION = 'us-east-1';
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export type Log = (line: string) => void;

export function localSqsClient(sqsEndpoint: string): SQSClient {
  return new SQSClient({ endpoint: sqsEndpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
}

// --- queues ----------------------------------------------------------------------------------

/**
 * The queue name `npm start` uses for a namespace: the stage's default for the default namespace
 * `weibo`, else one of its own. Two `npm start`s on one ElasticMQ (another namespace beside the
 * default, as a load run uses) would otherwise feed each other's workers, and each worker writes
 * into its own namespace. `npm run load` derives the queue it waits on the same way.
 */
export function namespaceQueueName(
  stage: string,
  namespace: string,
  queue: 'fanout' | 'media' = 'fanout',
): string | undefined {
  return namespace === 'weibo' ? undefined : `weibo-${stage}-${namespace}-${queue}`;
}

export interface LocalQueues {
  queueUrl: string;
  deadLetterQueueUrl: string;
  deadLetterQueueArn: string;
  settings: import('../queue-settings.cjs').QueueSettings;
}

/**
 * Creates (or brings in line) a queue of `stage` and its DLQ with the numbers of
 * infra/queue-settings.cjs: the fan-out queue, or `queue: 'media'`. Idempotent. `queueName`
 * overrides the name (one queue per test run).
 */
export async function ensureQueues(opts: {
  sqsEndpoint: string;
  stage: string;
  queue?: 'fanout' | 'media';
  queueName?: string;
}): Promise<LocalQueues> {
  const settings = queueSettings(opts.stage, {
    ...(opts.queue ? { queue: opts.queue } : {}),
    ...(opts.queueName ? { queueName: opts.queueName } : {}),
  });
  const sqs = localSqsClient(opts.sqsEndpoint);
  try {
    const deadLetterQueueUrl = await createOrUpdate(sqs, settings.deadLetterQueueName, {
      MessageRetentionPeriod: String(settings.deadLetterRetentionSeconds),
    });
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: deadLetterQueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const deadLetterQueueArn = Attributes?.QueueArn;
    if (!deadLetterQueueArn) throw new Error(`ensureQueues: no QueueArn for ${deadLetterQueueUrl}`);
    const queueUrl = await createOrUpdate(sqs, settings.queueName, {
      VisibilityTimeout: String(settings.visibilityTimeoutSeconds),
      MessageRetentionPeriod: String(settings.messageRetentionSeconds),
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: deadLetterQueueArn,
        maxReceiveCount: settings.maxReceiveCount,
      }),
    });
    return { queueUrl, deadLetterQueueUrl, deadLetterQueueArn, settings };
  } finally {
    sqs.destroy();
  }
}

/** CreateQueue is idempotent only for equal attributes; a queue left by older settings is updated. */
async function createOrUpdate(sqs: SQSClient, name: string, attributes: Record<string, string>): Promise<string> {
  try {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    if (!QueueUrl) throw new Error(`CreateQueue ${name}: no QueueUrl`);
    return QueueUrl;
  } catch (err) {
    if (!isQueueNameExists(err)) throw err;
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
    if (!QueueUrl) throw new Error(`GetQueueUrl ${name}: no QueueUrl`);
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: attributes }));
    return QueueUrl;
  }
}

const isQueueNameExists = (err: unknown) =>
  err instanceof Error &&
  /QueueNameExists|QueueAlreadyExists/.test(`${err.name} ${(err as { Code?: string }).Code ?? ''}`);

// --- poller ----------------------------------------------------------------------------------

export interface PollerOptions {
  sqsEndpoint: string;
  queueUrl: string;
  /** serverless-offline's Lambda endpoint, e.g. http://127.0.0.1:13002 */
  lambdaEndpoint: string;
  /** The deployed name, `<service>-<stage>-<function>`, e.g. weibo-local-fanout. */
  functionName: string;
  batchSize: number;
  /** Long-poll wait; short so stop() returns quickly. */
  waitSeconds?: number;
  /** How long one worker invocation may take before the batch counts as failed (default 60 s). */
  invokeTimeoutMs?: number;
  /**
   * Invocations in flight at once (default 1): N independent receive → invoke → delete loops,
   * as the SQS event source runs up to its maximumConcurrency copies of the worker. A big post's
   * fan-out is split into segment messages (shared/use-cases/background/delivery.ts) that these run side by side.
   */
  concurrency?: number;
  log?: Log;
  /**
   * Also log every invocation: when it started, each record's message (its type and subjects:
   * handles and post ids, nothing secret) and receive count, and how it ended and after how
   * long. For reading a run's order of events afterwards (docs/testing.md, "Pressure").
   */
  trace?: boolean;
  /**
   * Told of each step of every loop, in order (tests await these instead of sleeping: "the
   * poller received again after the failure" is a condition, a 3 s pause is a guess).
   */
  onEvent?: (event: PollerEvent) => void;
}

/** One step of a receive → invoke → delete loop. */
export type PollerEvent =
  | { type: 'received'; messages: number }
  | { type: 'invoked'; failed: number | 'all' }
  | { type: 'deleted'; messages: number }
  | { type: 'backed-off'; ms: number };

export interface Poller {
  /** Ends the loop (an in-flight receive or invoke is abandoned; its messages come back later). */
  stop(): Promise<void>;
}

export function startPoller(opts: PollerOptions): Poller {
  const invokeTimeoutMs = opts.invokeTimeoutMs ?? 60_000;
  const log = opts.log ?? (() => {});
  const emit = opts.onEvent ?? (() => {});
  const sqs = localSqsClient(opts.sqsEndpoint);
  // maxAttempts 1: a retried invoke would run the worker twice on the same batch.
  const lambda = new LambdaClient({
    endpoint: opts.lambdaEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  const source = queueSource(opts.queueUrl);
  const abort = new AbortController();
  const { signal } = abort;
  const concurrency = opts.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`poller concurrency must be a positive integer (got ${concurrency})`);

  const receive = async (): Promise<Message[]> => {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: opts.queueUrl,
        MaxNumberOfMessages: opts.batchSize,
        WaitTimeSeconds: opts.waitSeconds ?? 1,
        AttributeNames: ['All'],
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: signal },
    );
    return out.Messages ?? [];
  };

  /** The ids the worker reported failed, or 'all' when the batch as a whole failed. */
  const invoke = async (records: SQSRecord[]): Promise<Set<string> | 'all'> => {
    if (!opts.trace) return invokeOnce(records);
    const started = Date.now();
    const id = (r: SQSRecord) => r.messageId.slice(0, 8);
    log(
      `trace ${new Date(started).toISOString()} invoke ${opts.functionName}: ${records.map((r) => `${id(r)} #${r.attributes.ApproximateReceiveCount} ${r.body.slice(0, 300)}`).join(' | ')}`,
    );
    const ended = (how: string) =>
      log(
        `trace ${new Date().toISOString()} ended after ${Date.now() - started} ms: ${records.map(id).join(',')} ${how}`,
      );
    try {
      const failed = await invokeOnce(records);
      ended(
        failed === 'all'
          ? 'all failed'
          : failed.size
            ? `failed ${records
                .filter((r) => failed.has(r.messageId))
                .map(id)
                .join(',')}`
            : 'ok',
      );
      return failed;
    } catch (err) {
      ended(`threw ${describe(err)}`);
      throw err;
    }
  };

  const invokeOnce = async (records: SQSRecord[]): Promise<Set<string> | 'all'> => {
    const event: SQSEvent = { Records: records };
    const out = await lambda.send(
      new InvokeCommand({
        FunctionName: opts.functionName,
        InvocationType: 'RequestResponse',
        Payload: Buffer.from(JSON.stringify(event)),
      }),
      // A worker that never answers must not stall delivery: give up well after its own
      // timeout and treat the batch as failed (it comes back after the visibility timeout).
      { abortSignal: AbortSignal.any([signal, AbortSignal.timeout(invokeTimeoutMs)]) },
    );
    const text = out.Payload ? Buffer.from(out.Payload).toString('utf8') : '';
    if (out.FunctionError || (out.StatusCode ?? 200) >= 300) {
      log(`worker ${opts.functionName} failed (${out.FunctionError ?? out.StatusCode}): ${text.slice(0, 500)}`);
      return 'all';
    }
    return failedIds(text, records, log);
  };

  const deleteSucceeded = async (records: SQSRecord[], failed: Set<string>) => {
    const done = records.filter((r) => !failed.has(r.messageId));
    for (let i = 0; i < done.length; i += 10) {
      const chunk = done.slice(i, i + 10);
      const out = await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: opts.queueUrl,
          Entries: chunk.map((r, j) => ({ Id: String(i + j), ReceiptHandle: r.receiptHandle })),
        }),
        { abortSignal: signal },
      );
      for (const f of out.Failed ?? []) log(`delete failed for entry ${f.Id}: ${f.Code} ${f.Message ?? ''}`);
    }
  };

  /** One receive → invoke → delete loop; each backs off on its own. */
  const consume = async () => {
    let consecutiveErrors = 0;
    // Never spin hot: after an error wait 0.5 s, doubling up to 10 s; a success resets it.
    const backOff = async () => {
      consecutiveErrors += 1;
      const ms = Math.min(10_000, 500 * 2 ** (consecutiveErrors - 1));
      await sleep(ms, undefined, { signal }).catch(() => {});
      emit({ type: 'backed-off', ms });
    };
    while (!signal.aborted) {
      let messages: Message[];
      try {
        messages = await receive();
      } catch (err) {
        if (signal.aborted) break;
        log(`receive from ${opts.queueUrl} failed: ${describe(err)}`);
        await backOff();
        continue;
      }
      emit({ type: 'received', messages: messages.length });
      if (messages.length === 0) {
        consecutiveErrors = 0;
        continue;
      }
      const records = messages.map((m) => toRecord(m, source));
      let failed: Set<string> | 'all';
      try {
        failed = await invoke(records);
      } catch (err) {
        if (signal.aborted) break;
        log(`invoke ${opts.functionName} at ${opts.lambdaEndpoint} failed: ${describe(err)}`);
        failed = 'all';
      }
      emit({ type: 'invoked', failed: failed === 'all' ? 'all' : failed.size });
      if (failed === 'all') {
        // Like Lambda: nothing is deleted; the batch comes back after the visibility timeout.
        await backOff();
        continue;
      }
      try {
        await deleteSucceeded(records, failed);
        emit({ type: 'deleted', messages: records.length - failed.size });
        consecutiveErrors = 0;
      } catch (err) {
        if (signal.aborted) break;
        log(`delete from ${opts.queueUrl} failed: ${describe(err)}`);
        await backOff();
      }
      if (failed.size > 0)
        log(`${failed.size} of ${records.length} message(s) failed; they come back after the visibility timeout`);
    }
  };
  const loop = Promise.all(Array.from({ length: concurrency }, consume));

  return {
    async stop() {
      abort.abort();
      await loop;
      sqs.destroy();
      lambda.destroy();
    },
  };
}

/**
 * Lambda's reading of a partial batch response: no body, null, or no batchItemFailures means
 * all succeeded; an identifier that is missing, empty or not in the batch fails the whole batch.
 */
export function failedIds(payload: string, records: SQSRecord[], log: Log = () => {}): Set<string> | 'all' {
  let response: Partial<SQSBatchResponse> | null;
  try {
    response = payload.trim() === '' ? null : (JSON.parse(payload) as Partial<SQSBatchResponse> | null);
  } catch {
    log(`worker response is not JSON: ${payload.slice(0, 200)}`);
    return 'all';
  }
  const failures = response?.batchItemFailures;
  if (failures == null) return new Set();
  if (!Array.isArray(failures)) {
    log('worker response: batchItemFailures is not an array; treating the batch as failed');
    return 'all';
  }
  const inBatch = new Set(records.map((r) => r.messageId));
  const ids = new Set<string>();
  for (const f of failures) {
    const id = (f as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !inBatch.has(id)) {
      log(`worker response: invalid itemIdentifier ${JSON.stringify(id)}; treating the batch as failed`);
      return 'all';
    }
    ids.add(id);
  }
  return ids;
}

interface QueueSource {
  arn: string;
  region: string;
}

/** arn:aws:sqs:<region>:<account>:<name> from http://host/<account>/<name>. */
function queueSource(queueUrl: string): QueueSource {
  const [account = '000000000000', name = ''] = new URL(queueUrl).pathname.split('/').filter(Boolean);
  return { arn: `arn:aws:sqs:${LOCAL_REGION}:${account}:${name}`, region: LOCAL_REGION };
}

/** An SQS message as Lambda hands it to a function. */
export function toRecord(m: Message, source: QueueSource): SQSRecord {
  const body = m.Body ?? '';
  const a = m.Attributes ?? {};
  const now = String(Date.now());
  const attributes: SQSRecordAttributes = {
    ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
    SentTimestamp: a.SentTimestamp ?? now,
    SenderId: a.SenderId ?? '000000000000',
    ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? now,
    ...(a.AWSTraceHeader ? { AWSTraceHeader: a.AWSTraceHeader } : {}),
    ...(a.SequenceNumber ? { SequenceNumber: a.SequenceNumber } : {}),
    ...(a.MessageGroupId ? { MessageGroupId: a.MessageGroupId } : {}),
    ...(a.MessageDeduplicationId ? { MessageDeduplicationId: a.MessageDeduplicationId } : {}),
    ...(a.DeadLetterQueueSourceArn ? { DeadLetterQueueSourceArn: a.DeadLetterQueueSourceArn } : {}),
  };
  return {
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body,
    attributes,
    messageAttributes: toLambdaAttributes(m.MessageAttributes),
    md5OfBody: m.MD5OfBody ?? createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: source.arn,
    awsRegion: source.region,
  };
}

function toLambdaAttributes(attrs: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes {
  const out: SQSMessageAttributes = {};
  for (const [name, v] of Object.entries(attrs ?? {})) {
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    out[name] = {
      dataType: v.DataType ?? 'String',
      ...(v.StringValue !== undefined ? { stringValue: v.StringValue } : {}),
      ...(v.BinaryValue !== undefined ? { binaryValue: b64(v.BinaryValue) } : {}),
      stringListValues: v.StringListValues ?? [],
      binaryListValues: (v.BinaryListValues ?? []).map(b64),
    };
  }
  return out;
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/**
 * The media worker's poller (npm start and the e2e setup): the media queue's own batch size (one
 * picture per invocation) and timeout, two invocations at once.
 */
export function startMediaPoller(opts: {
  sqsEndpoint: string;
  queues: LocalQueues;
  lambdaEndpoint: string;
  functionName: string;
  log: Log;
}): Poller {
  return startPoller({
    sqsEndpoint: opts.sqsEndpoint,
    queueUrl: opts.queues.queueUrl,
    lambdaEndpoint: opts.lambdaEndpoint,
    functionName: opts.functionName,
    batchSize: opts.queues.settings.batchSize,
    invokeTimeoutMs: opts.queues.settings.workerTimeoutSeconds * 1000 + 5_000,
    concurrency: 2,
    waitSeconds: 1,
    log: opts.log,
  });
}
