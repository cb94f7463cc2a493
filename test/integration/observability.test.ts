// test/integration/observability.test.ts — the fan-out worker's handler in-process, on the real
// HBase and the real queue (ElasticMQ): a post published under a request's correlation id is
// queued with that id as a message attribute, and the worker — handed the real message as
// Lambda would hand it — logs its fan-out under that id and prints the EMF metrics of the
// fan-out (namespace Weibo: FanoutLag, InboxCellsWritten, HBaseRequests). A message without
// the attribute falls back to its SQS message id.
import { DeleteQueueCommand, ReceiveMessageCommand, SendMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { ensureQueues, localSqsClient, toRecord } from '../../infra/local/sqs-poller.js';
import { SqsFanoutQueue } from '../../shared/adapters/sqs/sqs-queues.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { runInvocation } from '../../shared/runtime/invocation-scope.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { integrationLimits, userFactory } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';
import type { LogLine } from '../support/log-lines.js';

const ns = `it_obs_${Date.now().toString(36)}`;
const sqsEndpoint = inject('sqsEndpoint');
const sqs = localSqsClient(sqsEndpoint);
const queues = await ensureQueues({ sqsEndpoint, stage: 'local', queueName: `it-obs-${ns}` });
// The worker builds its dependencies from the environment (shared/config/config.ts), once.
Object.assign(process.env, {
  HBASE_REST_URL: inject('hbaseRestUrl'),
  HBASE_NAMESPACE: ns,
  FANOUT_QUEUE_URL: queues.queueUrl,
  SQS_ENDPOINT: sqsEndpoint,
});
const { handler: worker } = await import('../../functions/queue/fan-out.js');

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
useNamespace(hbase, ns);
const deps: FeedDeps = {
  ...hbaseFeedStores(hbase, ns),
  queue: new SqsFanoutQueue({ queueUrl: queues.queueUrl, endpoint: sqsEndpoint }),
  limits: integrationLimits,
};
const users = userFactory(deps.users);

afterAll(async () => {
  for (const url of [queues.queueUrl, queues.deadLetterQueueUrl])
    await sqs.send(new DeleteQueueCommand({ QueueUrl: url })).catch(() => {});
  sqs.destroy();
});

/** Receives until a message whose body satisfies `wanted` arrives; the others are left to expire. */
async function receive(wanted: (body: Record<string, unknown>) => boolean): Promise<Message> {
  for (let i = 0; i < 20; i++) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queues.queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ['All'],
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const hit = (out.Messages ?? []).find((m) => wanted(JSON.parse(m.Body ?? '{}') as Record<string, unknown>));
    if (hit) return hit;
  }
  throw new Error('message not received');
}

const context = {
  functionName: 'weibo-it-fanout',
  awsRequestId: 'worker-invocation-1',
  getRemainingTimeInMillis: () => 30_000,
} as unknown as Context;
const sqsEvent = (m: Message): SQSEvent => ({
  Records: [toRecord(m, { arn: `arn:aws:sqs:us-east-1:000000000000:it-obs-${ns}`, region: 'us-east-1' })],
});

/** Runs the worker on one message with stdout captured; returns its response and its JSON lines. */
async function runWorker(m: Message): Promise<{ response: SQSBatchResponse; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    for (const l of String(chunk).split('\n')) if (l.startsWith('{')) lines.push(JSON.parse(l) as LogLine);
    return true;
  });
  try {
    return { response: await worker(sqsEvent(m), context), lines };
  } finally {
    spy.mockRestore();
  }
}

describe('the fan-out worker, in-process on the real queue and HBase', () => {
  let author: string;
  let reader: string;
  beforeAll(async () => {
    [author, reader] = await users('obsa', 'obsr');
    await follow(deps, reader, author);
  });

  it('logs the fan-out under the correlation id of the request that published the post, and prints its EMF metrics', async () => {
    const publishedBy = 'publish-request-42';
    const { post } = await runInvocation(publishedBy, () =>
      publishPost(deps, author, { body: 'carried through the queue' }),
    );
    const message = await receive((b) => b.type === 'fanout' && b.postId === post.id);
    // The id rides beside the body, which is exactly what the worker has always parsed.
    expect(message.MessageAttributes?.correlationId?.StringValue).toBe(publishedBy);
    expect(JSON.parse(message.Body!)).toEqual({ v: 1, type: 'fanout', postId: post.id });

    const { response, lines } = await runWorker(message);
    expect(response.batchItemFailures).toEqual([]);
    const handled = lines.filter((l) => l.message === 'fan-out message handled');
    expect(handled).toHaveLength(1);
    expect(handled[0]).toMatchObject({
      correlation_id: publishedBy,
      type: 'fanout',
      readers: 1,
      inboxCells: 1,
      function_request_id: 'worker-invocation-1',
    });

    const metrics = lines.filter((l) => l._aws?.CloudWatchMetrics?.[0]?.Namespace === 'Weibo' && 'FanoutLag' in l);
    expect(metrics).toHaveLength(1);
    const emf = metrics[0]!;
    expect(emf._aws!.CloudWatchMetrics[0]!.Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'FanoutLag', Unit: 'Milliseconds' },
        { Name: 'InboxCellsWritten', Unit: 'Count' },
        { Name: 'HBaseRequests', Unit: 'Count' },
      ]),
    );
    expect(emf).toMatchObject({ function: 'weibo-it-fanout', InboxCellsWritten: 1 });
    expect(emf.FanoutLag).toBeGreaterThanOrEqual(0);
    expect(emf.FanoutLag).toBeLessThan(60_000);
    expect(emf.HBaseRequests).toBeGreaterThan(0);
  });

  it('a message without the attribute is logged under its own SQS message id', async () => {
    const body = JSON.stringify({ v: 1, type: 'fanout', postId: `${author}.1700000000000.00000000abcd` });
    await sqs.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: body }));
    const message = await receive((b) => b.postId === `${author}.1700000000000.00000000abcd`);
    const { lines } = await runWorker(message);
    expect(lines.find((l) => l.message === 'fan-out message handled')).toMatchObject({
      correlation_id: message.MessageId,
      skipped: 'deleted',
      inboxCells: 0,
    });
  });
});
