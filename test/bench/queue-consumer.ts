// test/bench/queue-consumer.ts — the SQS event source mapping, in process, for the benchmarks
// that drive a real queue worker (the feed bench's lag phase, the pictures bench): long-poll,
// invoke the real Lambda handler with a real-shaped SQS event, delete what did not fail — what
// infra/local/sqs-poller.ts does, minus the HTTP hop to serverless-offline.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { toRecord } from '../../infra/local/sqs-poller.js';

export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

/** A Lambda context as the runtime hands it: the function's name and memory setting. */
export const lambdaContext = (functionName: string, memoryLimitInMB: number, timeoutMs = 30_000): Context =>
  ({
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryLimitInMB),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'bench',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => timeoutMs,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  }) as Context;

export interface ConsumerOptions {
  /** Records per receive (the mapping's batchSize). */
  batchSize?: number;
  functionName?: string;
  memoryLimitInMB?: number;
  /** Told of every invocation as its handler returns: its records, those it reported failed, how long it ran. */
  onInvoked?: (records: SQSRecord[], failed: Set<string>, handlerMs: number) => void;
}

/** One receive → invoke → delete loop (start several for concurrent invocations). */
export class Consumer {
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  handled = 0;
  failed = 0;
  errors: string[] = [];

  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
    private readonly handler: QueueHandler,
    private readonly opts: ConsumerOptions = {},
  ) {}

  start(): void {
    const { signal } = this.abort;
    const arn = `arn:aws:sqs:us-east-1:000000000000:${new URL(this.queueUrl).pathname.split('/').pop()}`;
    const { batchSize = 10, functionName = 'weibo-bench-fanout', memoryLimitInMB = 1024 } = this.opts;
    this.loop = (async () => {
      while (!signal.aborted) {
        try {
          const out = await this.sqs.send(
            new ReceiveMessageCommand({
              QueueUrl: this.queueUrl,
              MaxNumberOfMessages: batchSize,
              WaitTimeSeconds: 1,
              AttributeNames: ['All'],
              MessageSystemAttributeNames: ['All'],
            }),
            { abortSignal: signal },
          );
          const records = (out.Messages ?? []).map((m) => toRecord(m, { arn, region: 'us-east-1' }));
          if (records.length === 0) continue;
          const t0 = performance.now();
          const res = await this.handler({ Records: records }, lambdaContext(functionName, memoryLimitInMB));
          const handlerMs = performance.now() - t0;
          const failedIds = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
          this.handled += records.length - failedIds.size;
          this.failed += failedIds.size;
          // Told before the delete: the worker's work is done when its handler returns.
          this.opts.onInvoked?.(records, failedIds, handlerMs);
          const done = records.filter((r) => !failedIds.has(r.messageId));
          if (done.length) {
            await this.sqs.send(
              new DeleteMessageBatchCommand({
                QueueUrl: this.queueUrl,
                Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
              }),
              { abortSignal: signal },
            );
          }
        } catch (err) {
          if (signal.aborted) break;
          this.errors.push(String(err));
          await sleep(200);
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }
}
