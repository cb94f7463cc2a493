// test/integration/sqs-poller.test.ts — the local SQS event source mapping against the real
// ElasticMQ: queues come from infra/queue-settings.cjs (test stage numbers), and the poller
// honours partial batch responses like Lambda does. The worker is a fake Lambda endpoint
// (node:http) that speaks serverless-offline's Invoke API and fails the records we tell it to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
  SetQueueAttributesCommand,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ensureQueues,
  failedIds,
  localSqsClient,
  queueSettings,
  startPoller,
  type Poller,
  type PollerEvent,
} from '../../infra/local/sqs-poller.js';

const sqsEndpoint = inject('sqsEndpoint');
const settings = queueSettings('local');
const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const FUNCTION = 'weibo-test-fanout';
/** The redrive test's visibility timeout: above the fake worker's answer time and the poller's 1 s wait. */
const SHORT_VISIBILITY_SECONDS = 3;

let sqs: SQSClient;
const createdQueues: string[] = [];

/** Queues of this test only, named after it, with the test stage's numbers. */
async function queuesFor(test: string) {
  const q = await ensureQueues({ sqsEndpoint, stage: 'local', queueName: `it-poller-${runId}-${test}` });
  createdQueues.push(q.queueUrl, q.deadLetterQueueUrl);
  return q;
}

// --- a fake Lambda endpoint -------------------------------------------------------------------

interface Invocation {
  functionName: string;
  at: number;
  records: SQSRecord[];
}

type Behaviour = (event: SQSEvent) => { status?: number; functionError?: string; body: unknown };

/** Fails the records whose body contains "fail", like a Powertools record handler that throws. */
const failWhereBodySaysFail: Behaviour = (event) => ({
  body: {
    batchItemFailures: event.Records.filter((r) => r.body.includes('fail')).map((r) => ({
      itemIdentifier: r.messageId,
    })),
  } satisfies SQSBatchResponse,
});

async function fakeLambda(behaviour: Behaviour) {
  const invocations: Invocation[] = [];
  const server: Server = createServer((req, res) => {
    const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !match) {
        res.writeHead(404).end();
        return;
      }
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SQSEvent;
      invocations.push({ functionName: decodeURIComponent(match[1]!), at: Date.now(), records: event.Records });
      const out = behaviour(event);
      res.writeHead(out.status ?? 200, {
        'Content-Type': 'application/json',
        ...(out.functionError ? { 'X-Amz-Function-Error': out.functionError } : {}),
      });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    invocations,
    /** Every delivery of a message, in order. */
    deliveries: (body: string) =>
      invocations.flatMap((i) => i.records.filter((r) => r.body === body).map((r) => ({ at: i.at, r }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function queueDepth(queueUrl: string) {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return {
    visible: Number(Attributes.ApproximateNumberOfMessages),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible),
  };
}

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const send = (queueUrl: string, bodies: string[]) =>
  sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((b, i) => ({ Id: `m${i}`, MessageBody: b })),
    }),
  );

// --- lifecycle ---------------------------------------------------------------------------------

let poller: Poller | undefined;
let lambda: Awaited<ReturnType<typeof fakeLambda>> | undefined;
const pollerLog: string[] = [];
/** The current poller's steps, in order (pollWith starts a fresh list). */
let pollerEvents: PollerEvent[] = [];

/**
 * Waits until the poller's steps contain `steps` in this order (other steps may come between):
 * a condition of this poller's own progress, where a fixed pause would only guess at it.
 */
const untilSteps = (steps: PollerEvent['type'][], timeoutMs = 15_000) =>
  until(
    `poller steps ${steps.join(' → ')}`,
    () => {
      const at: number[] = [];
      let from = 0;
      for (const type of steps) {
        const i = pollerEvents.findIndex((e, j) => j >= from && e.type === type);
        if (i === -1) return undefined;
        at.push(i);
        from = i + 1;
      }
      return at.map((i) => pollerEvents[i]!);
    },
    timeoutMs,
  );

beforeAll(() => {
  sqs = localSqsClient(sqsEndpoint);
});

afterEach(async () => {
  await poller?.stop();
  poller = undefined;
  await lambda?.close();
  lambda = undefined;
});

afterAll(async () => {
  for (const url of createdQueues) await sqs.send(new DeleteQueueCommand({ QueueUrl: url })).catch(() => {});
  sqs.destroy();
});

function pollWith(queueUrl: string, lambdaEndpoint: string, opts: { batchSize?: number; concurrency?: number } = {}) {
  pollerEvents = [];
  poller = startPoller({
    sqsEndpoint,
    queueUrl,
    lambdaEndpoint,
    functionName: FUNCTION,
    batchSize: opts.batchSize ?? settings.batchSize,
    ...(opts.concurrency === undefined ? {} : { concurrency: opts.concurrency }),
    waitSeconds: 1,
    log: (line) => pollerLog.push(line),
    onEvent: (e) => pollerEvents.push(e),
  });
}

/** A worker that takes `holdMs` per invocation and records how many ran at once. */
async function slowLambda(holdMs: number) {
  let inFlight = 0;
  let handled = 0;
  const stats = { maxInFlight: 0, handled: () => handled };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        handled++;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('null');
      }, holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// --- tests -------------------------------------------------------------------------------------

describe('ensureQueues', () => {
  it('creates the DLQ and the queue with the redrive policy of queue-settings, idempotently', async () => {
    const first = await queuesFor('ensure');
    const again = await queuesFor('ensure');
    expect(again.queueUrl).toBe(first.queueUrl);
    expect(again.deadLetterQueueUrl).toBe(first.deadLetterQueueUrl);
    expect(first.queueUrl).toMatch(new RegExp(`/it-poller-${runId}-ensure$`));
    expect(first.deadLetterQueueUrl).toMatch(new RegExp(`/it-poller-${runId}-ensure-dlq$`));

    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: first.queueUrl, AttributeNames: ['All'] }),
    );
    expect(JSON.parse(Attributes.RedrivePolicy!)).toEqual({
      deadLetterTargetArn: first.deadLetterQueueArn,
      maxReceiveCount: settings.maxReceiveCount,
    });
    expect(Number(Attributes.VisibilityTimeout)).toBe(settings.visibilityTimeoutSeconds);
  });

  it('derives the test stage numbers from the worker timeout', () => {
    expect(settings.maxReceiveCount).toBeGreaterThanOrEqual(5);
    expect(settings.visibilityTimeoutSeconds).toBe(
      6 * settings.workerTimeoutSeconds + settings.maximumBatchingWindowSeconds,
    );
    expect(settings.deadLetterRetentionSeconds).toBe(1_209_600);
    expect(queueSettings('prod')).toMatchObject({
      workerTimeoutSeconds: 30,
      maximumBatchingWindowSeconds: 1,
      visibilityTimeoutSeconds: 181,
    });
  });
});

describe('startPoller', () => {
  for (const concurrency of [1, 3]) {
    it(`runs at most ${concurrency} invocation(s) at once, and that many when there is work (concurrency ${concurrency})`, async () => {
      const q = await queuesFor(`conc${concurrency}`);
      const slow = await slowLambda(700);
      try {
        await send(
          q.queueUrl,
          Array.from({ length: 6 }, (_, i) => `m${i}`),
        );
        pollWith(q.queueUrl, slow.endpoint, { batchSize: 1, concurrency });
        await until('six invocations', () => (slow.stats.handled() >= 6 ? true : undefined), 30_000);
        expect(slow.stats.maxInFlight).toBe(concurrency);
      } finally {
        await poller?.stop();
        poller = undefined;
        await slow.close();
      }
    });
  }

  it('invokes the worker with a Lambda-shaped SQS event', async () => {
    const q = await queuesFor('shape');
    lambda = await fakeLambda(() => ({ body: null }));
    await send(q.queueUrl, ['{"hello":"world"}']);
    pollWith(q.queueUrl, lambda.endpoint);

    const inv = await until('an invocation', () => lambda!.invocations[0], 15_000);
    expect(inv.functionName).toBe(FUNCTION);
    const record = inv.records[0]!;
    expect(record).toMatchObject({
      body: '{"hello":"world"}',
      md5OfBody: 'fbc24bcc7a1794758fc1327fcfebdaf6',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:it-poller-${runId}-shape`,
      awsRegion: 'us-east-1',
      messageAttributes: {},
      attributes: { ApproximateReceiveCount: '1' },
    });
    expect(record.messageId).toMatch(/\S/);
    expect(record.receiptHandle).toMatch(/\S/);
    expect(Number(record.attributes.SentTimestamp)).toBeGreaterThan(0);
    // A null response (a handler that returns nothing) means the whole batch succeeded.
    await until(
      'the queue to be empty',
      async () => {
        const d = await queueDepth(q.queueUrl);
        return d.visible + d.inFlight === 0 ? d : undefined;
      },
      10_000,
    );
  });

  it(
    'deletes what succeeded, redelivers only the failed record, which ends in the DLQ after maxReceiveCount',
    async () => {
      const q = await queuesFor('partial');
      // What is tested is the poller and the redrive, not the stage's visibility timeout (checked by
      // the queue-settings tests above): a short one of this queue's own keeps the five
      // redeliveries to seconds instead of a minute and a half.
      await sqs.send(
        new SetQueueAttributesCommand({
          QueueUrl: q.queueUrl,
          Attributes: { VisibilityTimeout: String(SHORT_VISIBILITY_SECONDS) },
        }),
      );
      lambda = await fakeLambda(failWhereBodySaysFail);
      const good = [1, 2, 3, 4].map((i) => `ok-${i}`);
      await send(q.queueUrl, ['ok-1', 'ok-2', 'please-fail', 'ok-3', 'ok-4']);
      const started = Date.now();
      pollWith(q.queueUrl, lambda.endpoint);

      // The failing message reaches the DLQ once ElasticMQ sees it a (maxReceiveCount + 1)th time.
      const dead = await until(
        'the failed message in the DLQ',
        async () => {
          const res = await sqs.send(
            new ReceiveMessageCommand({
              QueueUrl: q.deadLetterQueueUrl,
              MaxNumberOfMessages: 10,
              WaitTimeSeconds: 1,
              VisibilityTimeout: 1,
            }),
          );
          return res.Messages?.find((m) => m.Body === 'please-fail');
        },
        (settings.maxReceiveCount + 2) * SHORT_VISIBILITY_SECONDS * 1000,
      );
      expect(dead.Body).toBe('please-fail');

      // Each good message: one delivery, on the first receive, and gone from the queue.
      for (const body of good) {
        const deliveries = lambda.deliveries(body);
        expect(deliveries, body).toHaveLength(1);
        expect(deliveries[0]!.r.attributes.ApproximateReceiveCount).toBe('1');
      }
      // The failing one: exactly maxReceiveCount deliveries, counted 1..n, a visibility timeout apart.
      const failing = lambda.deliveries('please-fail');
      expect(failing.map((d) => d.r.attributes.ApproximateReceiveCount)).toEqual(
        Array.from({ length: settings.maxReceiveCount }, (_, i) => String(i + 1)),
      );
      for (let i = 1; i < failing.length; i++) {
        expect(failing[i]!.at - failing[i - 1]!.at).toBeGreaterThanOrEqual((SHORT_VISIBILITY_SECONDS - 1) * 1000);
      }
      expect(failing[0]!.at - started).toBeLessThan(5_000);
      expect(await queueDepth(q.queueUrl)).toEqual({ visible: 0, inFlight: 0 });
      expect(pollerLog.some((l) => /1 of \d+ message\(s\) failed/.test(l))).toBe(true);
    },
    (settings.maxReceiveCount + 3) * SHORT_VISIBILITY_SECONDS * 1000,
  );

  it('deletes nothing when the invocation itself fails, and backs off instead of spinning', async () => {
    const q = await queuesFor('crash');
    lambda = await fakeLambda(() => ({
      functionError: 'Unhandled',
      body: { errorType: 'Error', errorMessage: 'boom' },
    }));
    await send(q.queueUrl, ['a', 'b']);
    pollWith(q.queueUrl, lambda.endpoint);

    // The failed invoke, a back-off, then the loop came round to receive again: whatever it was
    // going to delete after that invoke, it has deleted by now (one loop: strictly in order).
    const [, invoked, backedOff] = await untilSteps(['received', 'invoked', 'backed-off', 'received']);
    expect(invoked).toEqual({ type: 'invoked', failed: 'all' });
    expect(backedOff).toEqual({ type: 'backed-off', ms: 500 });
    await poller!.stop();
    poller = undefined;
    expect(pollerEvents.some((e) => e.type === 'deleted')).toBe(false);
    // Both still in the queue, in flight until the visibility timeout: nothing was deleted.
    expect(await queueDepth(q.queueUrl)).toEqual({ visible: 0, inFlight: 2 });
    expect(lambda.invocations).toHaveLength(1);
    expect(pollerLog.some((l) => l.includes('boom'))).toBe(true);
  });

  it('backs off when the Lambda endpoint is unreachable, then stops promptly', async () => {
    const q = await queuesFor('down');
    await send(q.queueUrl, ['x']);
    pollWith(q.queueUrl, 'http://127.0.0.1:9'); // discard port: connection refused
    const before = pollerLog.length;
    // The refused invoke, then a back-off before anything else: no hot loop.
    const [, invoked, backedOff] = await untilSteps(['received', 'invoked', 'backed-off', 'received']);
    expect(invoked).toEqual({ type: 'invoked', failed: 'all' });
    expect(backedOff).toEqual({ type: 'backed-off', ms: 500 });
    const t0 = Date.now();
    await poller!.stop();
    poller = undefined;
    expect(Date.now() - t0).toBeLessThan(2_000);
    const errors = pollerLog.slice(before).filter((l) => l.startsWith('invoke'));
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.length).toBeLessThanOrEqual(3); // one message, invisible after its receive: no hot loop
    // Every invoke after the first comes after a back-off of its own.
    const types = pollerEvents.map((e) => e.type);
    types.forEach((t, i) => {
      if (t === 'invoked' && i + 1 < types.length) expect(types[i + 1]).toBe('backed-off');
    });
    expect(await queueDepth(q.queueUrl)).toEqual({ visible: 0, inFlight: 1 });
  });
});

describe('failedIds (Lambda reading of a partial batch response)', () => {
  const records = ['a', 'b'].map((messageId) => ({ messageId }) as SQSRecord);
  it.each([
    ['', []],
    ['null', []],
    ['{}', []],
    ['{"batchItemFailures":[]}', []],
    ['{"batchItemFailures":[{"itemIdentifier":"b"}]}', ['b']],
  ])('%s → %j failed', (payload, ids) => {
    expect(failedIds(payload, records)).toEqual(new Set(ids));
  });
  it.each([
    ['{"batchItemFailures":[{"itemIdentifier":"zzz"}]}'],
    ['{"batchItemFailures":[{"itemIdentifier":""}]}'],
    ['{"batchItemFailures":[{}]}'],
    ['{"batchItemFailures":"a"}'],
    ['not json'],
  ])('%s → whole batch failed', (payload) => {
    expect(failedIds(payload, records)).toBe('all');
  });
});
