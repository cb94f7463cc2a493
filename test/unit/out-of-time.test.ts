// test/unit/out-of-time.test.ts — an invocation that runs out of time, through the real middy
// chains (shared/http/http-handler.ts, shared/observability/invocation.ts) with a Lambda context
// whose clock is nearly spent: an HTTP route answers 503 `timeout` with Retry-After (never 500),
// whether middy answered for a handler still running at the deadline or the HBase transport
// refused a call on it; a queue worker reports only its unfinished records as failed; a job says
// it stopped. Each writes exactly one `Invocation ran out of time` WARN line and one
// InvocationTimeouts metric. stdout is captured (the logger's and the metrics' lines).
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { sqsRecordWorker } from '../../functions/queue/record-batch.js';
import { scheduledJob } from '../../functions/schedule/job-handler.js';
import { HBaseError, HBaseRestClient } from '../../shared/hbase/index.js';
import { mapError } from '../../shared/http/error-mapper.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { OUT_OF_TIME_MESSAGE } from '../../shared/observability/out-of-time.js';
import { RESERVE_MS, currentDeadline } from '../../shared/runtime/deadline.js';
import { SweepCarry } from '../../shared/use-cases/jobs/sweep.js';
import type { LogLine } from '../support/log-lines.js';

let out: LogLine[] = [];
beforeEach(() => {
  out = [];
  // The logger writes WARN lines to stderr, the rest (and the metrics) to stdout.
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk) => {
      for (const l of String(chunk).split('\n')) if (l.startsWith('{')) out.push(JSON.parse(l) as LogLine);
      return true;
    });
  }
});
afterEach(() => vi.restoreAllMocks());

/** A Lambda context whose invocation ends `ms` from now (its clock runs). */
const endingIn = (ms: number, name = 'weibo-unit-slow', requestId = 'l-1') => {
  const end = Date.now() + ms;
  return {
    functionName: name,
    awsRequestId: requestId,
    getRemainingTimeInMillis: () => Math.max(0, end - Date.now()),
  } as unknown as Context;
};

const httpEvent = (method: string, routeKey: string, correlationId: string) =>
  ({
    version: '2.0',
    routeKey,
    rawPath: '/slow',
    rawQueryString: '',
    headers: { 'x-correlation-id': correlationId },
    requestContext: { requestId: 'apigw-1', http: { method, path: '/slow', sourceIp: '127.0.0.1' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const warnings = () => out.filter((l) => l.message === OUT_OF_TIME_MESSAGE);
const timeoutMetrics = () =>
  out.filter((l) =>
    l._aws?.CloudWatchMetrics?.[0]?.Metrics.some((m: { Name: string }) => m.Name === 'InvocationTimeouts'),
  );

/** The one WARN line and the one metric of an invocation that ran out of time. */
function expectReportedOnce(fields: Record<string, unknown>) {
  expect(warnings()).toHaveLength(1);
  expect(warnings()[0]).toMatchObject({ level: 'WARN', ...fields });
  const metrics = timeoutMetrics();
  expect(metrics).toHaveLength(1);
  expect(metrics[0]).toMatchObject({ InvocationTimeouts: 1, service: 'weibo-serverless', function: fields.function });
  // Per function, and in total (`service` alone: what the alarm watches).
  expect(metrics[0]!._aws!.CloudWatchMetrics[0]).toMatchObject({
    Namespace: 'Weibo',
    Dimensions: [['service', 'function'], ['service']],
  });
}

describe('an HTTP route that runs out of time', () => {
  const slow = httpRoute({ auth: false }, async () => {
    await sleep(RESERVE_MS + 1_500);
    return json(201, { created: true });
  });

  it('still running at the deadline: middy answers 503 timeout with Retry-After, saying a write’s outcome is unknown — never 500', async () => {
    const started = Date.now();
    const res = (await slow.handler(
      httpEvent('POST', 'POST /slow', 'slow-post-1'),
      endingIn(RESERVE_MS + 300),
    )) as APIGatewayProxyStructuredResultV2;
    // Answered at the deadline (300 ms in), a whole RESERVE_MS before Lambda would stop it.
    expect(Date.now() - started).toBeLessThan(RESERVE_MS);
    expect(res.statusCode).toBe(503);
    expect(res.headers).toMatchObject({ 'Content-Type': 'application/json', 'Retry-After': '2' });
    const body = JSON.parse(res.body!);
    expect(body).toEqual({
      error: {
        code: 'timeout',
        message: expect.stringMatching(/ran out of time.*not known.*Retrying is safe.*same Idempotency-Key/),
      },
    });
    expectReportedOnce({
      function: 'weibo-unit-slow',
      route: 'POST /slow',
      cause: 'answered-at-deadline',
      correlation_id: 'slow-post-1',
    });
  });

  it('a read out of time says to retry it', async () => {
    const res = (await slow.handler(
      httpEvent('GET', 'GET /slow', 'slow-get-1'),
      endingIn(RESERVE_MS + 200),
    )) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body!)).toEqual({
      error: { code: 'timeout', message: 'The request ran out of time; retry it' },
    });
    expect(res.headers?.['Retry-After']).toBe('2');
  });

  it('an HBase call the transport refuses on the deadline answers 503 timeout (nothing was sent)', async () => {
    // The real client and transport; the deadline refuses the call before any connection is made.
    const hbase = new HBaseRestClient({ baseUrl: 'http://127.0.0.1:9', deadline: currentDeadline });
    const reading = httpRoute({ auth: false, query: z.object({}) }, async () => {
      await hbase.getRow('t', 'row');
      return json(200, {});
    });
    const res = (await reading.handler(
      httpEvent('POST', 'POST /slow', 'refused-1'),
      endingIn(RESERVE_MS + 50),
    )) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body!).error.code).toBe('timeout');
    expect(res.headers?.['Retry-After']).toBe('2');
    expect(hbase.requestCount).toBe(0);
    expectReportedOnce({ function: 'weibo-unit-slow', cause: 'hbase-deadline', correlation_id: 'refused-1' });
    await hbase.close();
  });

  it('any other storage failure stays 503 service_unavailable, with Retry-After and the unknown outcome of a write; nothing internal in the body', () => {
    const failed = new HBaseError({
      status: 500,
      body: 'java.io.IOException: region server at 10.0.0.7 …',
      method: 'PUT',
      path: '/weibo:content/row',
    });
    const write = mapError(failed);
    expect(write).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'Retry-After': '2' } });
    expect(write.message).toMatch(/whether it took effect is not known.*Retrying is safe/);
    expect(write.message).not.toMatch(/java|10\.0\.0\.7|weibo:content/);
    expect(mapError(failed, { write: false }).message).toBe('Storage is temporarily unavailable; retry later');
    expect(warnings()).toHaveLength(0);
  });
});

describe('a queue worker that runs out of time', () => {
  const record = (id: string): SQSRecord =>
    ({ messageId: id, body: id, attributes: {}, messageAttributes: {} }) as unknown as SQSRecord;
  const batch = (...ids: string[]): SQSEvent => ({ Records: ids.map(record) });

  it('still running at the deadline: reports the records it did not finish as failed, the finished ones not', async () => {
    const worker = sqsRecordWorker(async (r) => {
      if (r.body === 'slow') await sleep(RESERVE_MS + 1_500);
    });
    const started = Date.now();
    const res = await worker(
      batch('quick', 'slow', 'quick-too'),
      endingIn(RESERVE_MS + 300, 'weibo-unit-worker', 'w-1'),
    );
    expect(Date.now() - started).toBeLessThan(RESERVE_MS);
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'slow' }] });
    expectReportedOnce({ function: 'weibo-unit-worker', cause: 'answered-at-deadline', correlation_id: 'w-1' });
  });

  it('every record failing on the HBase deadline: all reported failed (a batch response, not a failed invocation), reported once', async () => {
    const worker = sqsRecordWorker(async () => {
      throw new HBaseError({ status: 0, deadline: true, body: '', method: 'GET', path: '/t/r' });
    });
    const res = await worker(batch('a', 'b'), endingIn(10_000, 'weibo-unit-worker', 'w-2'));
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }, { itemIdentifier: 'b' }] });
    expectReportedOnce({ function: 'weibo-unit-worker', cause: 'hbase-deadline', correlation_id: 'w-2' });
  });

  it('a batch with time to spare reports no timeout', async () => {
    const worker = sqsRecordWorker(async () => {});
    expect(await worker(batch('a'), endingIn(10_000, 'weibo-unit-worker', 'w-3'))).toEqual({ batchItemFailures: [] });
    expect(warnings()).toHaveLength(0);
    expect(timeoutMetrics()).toHaveLength(0);
  });
});

describe('a job step that runs out of time', () => {
  it('still running at the deadline: the invocation answers a stopped outcome (out-of-time) with the payload to resume, and reports it once', async () => {
    const handler = scheduledJob('slow-job', () => ({
      name: 'slow-job',
      carry: SweepCarry,
      maxRunMs: 60_000,
      step: async () => {
        await sleep(RESERVE_MS + 1_500);
        return { done: true, stats: { seen: 0, fixed: 0 } };
      },
    }));
    const payload = {
      runId: 'run-1',
      step: 3,
      startedAt: Date.now(),
      attempt: 0,
      cursor: 'abc',
      totals: { seen: 10, fixed: 1 },
    };
    const outcome = await handler(payload, endingIn(RESERVE_MS + 300, 'weibo-unit-job', 'j-1'));
    expect(outcome).toEqual({
      job: 'slow-job',
      status: 'stopped',
      reason: 'out-of-time',
      runId: 'run-1',
      step: 3,
      totals: { seen: 10, fixed: 1 },
      next: payload,
    });
    expectReportedOnce({ function: 'weibo-unit-job', cause: 'answered-at-deadline', correlation_id: 'j-1' });
  });
});
