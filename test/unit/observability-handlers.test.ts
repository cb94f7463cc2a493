// test/unit/observability-handlers.test.ts — the instrumented handlers in-process, stdout
// captured: every HTTP answer (the catch-all 404, a validation 422, a success) carries
// Server-Timing and x-correlation-id; the EMF each invocation prints has namespace Weibo, the
// HBase request count, failures by status as metrics of their own, and the fan-out lag and
// inbox cells; a key appended in one invocation is gone in the next.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { handler as notFound } from '../../functions/http/not-found.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { logger } from '../../shared/logging/logger.js';
import { observedHandler } from '../../shared/observability/invocation.js';
import { recordDeadLetterDepth, recordFanout } from '../../shared/observability/metrics.js';
import { recordHBaseRequest } from '../../shared/observability/hbase-requests.js';
import type { LogLine } from '../support/log-lines.js';

let out: LogLine[] = [];
beforeEach(() => {
  out = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    for (const l of String(chunk).split('\n')) if (l.startsWith('{')) out.push(JSON.parse(l) as LogLine);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const context = (name: string, requestId: string) =>
  ({
    functionName: name,
    awsRequestId: requestId,
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:1:function:${name}`,
    memoryLimitInMB: '512',
    getRemainingTimeInMillis: () => 10_000,
  }) as unknown as Context;

const event = (path: string, headers: Record<string, string> = {}, query?: Record<string, string>) =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers,
    ...(query ? { queryStringParameters: query } : {}),
    requestContext: { requestId: `apigw-${path.length}`, http: { method: 'GET', path } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const emf = (name: string) =>
  out.filter((l) => l._aws?.CloudWatchMetrics?.[0]?.Metrics.some((m: { Name: string }) => m.Name === name));

describe('HTTP responses', () => {
  // A route that "reads HBase" once, then twice in parallel: requests of 1 ms, the second stage
  // answering together at least 3 ms after the first (so 2 round trips, whatever the timer jitter).
  const route = httpRoute({ auth: false, query: z.object({ n: z.coerce.number().int().min(1) }) }, async () => {
    const stage = (statuses: number[]) =>
      new Promise<void>((r) =>
        setTimeout(() => {
          for (const status of statuses) recordHBaseRequest({ method: 'GET', path: '/t/row', status, durationMs: 1 });
          r();
        }, 3),
      );
    await stage([200]);
    await stage([200, 404]);
    return json(200, { ok: true });
  });

  it('a success says its requests and round trips, and echoes the API request id', async () => {
    const res = (await route.handler(
      event('/thing', {}, { n: '1' }),
      context('weibo-unit-thing', 'l-1'),
    )) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['Server-Timing']).toMatch(
      /^hbase;desc="3 requests, 2 round trips";dur=\d+(\.\d)?, app;dur=\d+(\.\d)?$/,
    );
    expect(res.headers?.['x-correlation-id']).toBe('apigw-6');
    // EMF: 3 requests, no failures (404 is an answer), namespace Weibo, the function named.
    const [line, ...more] = emf('HBaseRequests');
    expect(more).toHaveLength(0);
    expect(line).toMatchObject({ HBaseRequests: 3, function: 'weibo-unit-thing', service: 'weibo-serverless' });
    expect(line!._aws!.CloudWatchMetrics[0]!.Namespace).toBe('Weibo');
    expect(emf('HBaseErrors')).toHaveLength(0);
  });

  it('a validation failure (422) and the catch-all 404 carry the headers too, with no HBase work', async () => {
    const invalid = (await route.handler(
      event('/thing', { 'x-correlation-id': 'caller-7' }, { n: '0' }),
      context('weibo-unit-thing', 'l-2'),
    )) as APIGatewayProxyStructuredResultV2;
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers?.['Server-Timing']).toMatch(/^hbase;desc="0 requests, 0 round trips";dur=0, app;dur=/);
    expect(invalid.headers?.['x-correlation-id']).toBe('caller-7');
    const missing = (await notFound(
      event('/nowhere'),
      context('weibo-unit-notFound', 'l-3'),
    )) as APIGatewayProxyStructuredResultV2;
    expect(missing.statusCode).toBe(404);
    expect(missing.headers?.['Server-Timing']).toMatch(/^hbase;desc="0 requests, 0 round trips"/);
    expect(missing.headers?.['x-correlation-id']).toBe('apigw-8');
    // No CORS headers from the function: the HTTP API answers CORS (serverless.yml).
    expect(Object.keys(missing.headers ?? {}).filter((h) => h.toLowerCase().startsWith('access-control-'))).toEqual([]);
  });
});

describe('queue and job invocations', () => {
  it('HBase failures become HBaseErrors metrics of their own, one per status, beside the request count', async () => {
    const handler = observedHandler(async () => {
      for (const status of [200, 503, 503, 0, 304])
        recordHBaseRequest({ method: 'GET', path: '/t', status, durationMs: 1 });
      return 'done';
    });
    expect(await handler({}, context('weibo-unit-job', 'l-4'))).toBe('done');
    expect(emf('HBaseRequests')[0]).toMatchObject({ HBaseRequests: 5, function: 'weibo-unit-job' });
    const errors = emf('HBaseErrors').map((l) => ({
      status: l.status,
      count: l.HBaseErrors,
      dims: l._aws!.CloudWatchMetrics[0]!.Dimensions[0],
      ns: l._aws!.CloudWatchMetrics[0]!.Namespace,
    }));
    expect(errors).toEqual([
      { status: '503', count: 2, dims: expect.arrayContaining(['service', 'function', 'status']), ns: 'Weibo' },
      { status: '0', count: 1, dims: expect.arrayContaining(['service', 'function', 'status']), ns: 'Weibo' },
    ]);
    // `status` stays off the invocation's other metrics.
    expect(emf('HBaseRequests')[0]).not.toHaveProperty('status');
  });

  it('a fan-out invocation prints FanoutLag (publish → delivery) and InboxCellsWritten in namespace Weibo', async () => {
    const published = 1_780_000_000_000;
    const handler = observedHandler(async () => {
      // Only the fields the metrics read (a message's type and post id, an outcome's cells and skip).
      recordFanout({ type: 'fanout', postId: `amy.${published}.00000000000a` }, { inboxCells: 3 }, published + 250);
      recordFanout(
        { type: 'fanout', postId: `amy.${published}.00000000000b` },
        { inboxCells: 0, skipped: 'deleted' },
        published + 900,
      );
      recordFanout({ type: 'backfill' }, { inboxCells: 20 }, published + 300);
    });
    await handler({}, context('weibo-unit-fanout', 'l-5'));
    const [line] = emf('FanoutLag');
    expect(line!._aws!.CloudWatchMetrics[0]!.Namespace).toBe('Weibo');
    expect(line!._aws!.CloudWatchMetrics[0]!.Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'FanoutLag', Unit: 'Milliseconds' },
        { Name: 'InboxCellsWritten', Unit: 'Count' },
      ]),
    );
    // Only the delivered post has a lag; every message reports its cells.
    expect(line!.FanoutLag).toBe(250);
    expect(line!.InboxCellsWritten).toEqual([3, 0, 20]);
  });

  it('a dead-letter report prints the DLQ depth (visible + in flight) as DeadLetterMessages', async () => {
    const report = {
      queue: 'weibo-dev-fanout-dlq',
      approximateMessages: 4,
      approximateInFlight: 1,
      peeked: 4,
      byType: { fanout: 4 },
      oldestSentAt: null,
      oldestAgeSeconds: null,
    };
    await observedHandler(async () => recordDeadLetterDepth(report))({}, context('weibo-unit-deadLetterReport', 'l-8'));
    const [line] = emf('DeadLetterMessages');
    expect(line).toMatchObject({ DeadLetterMessages: 5, function: 'weibo-unit-deadLetterReport' });
    expect(line!._aws!.CloudWatchMetrics[0]!.Namespace).toBe('Weibo');
  });

  it('nothing appended to the logger in one invocation leaks into the next', async () => {
    const handler = observedHandler(async (e: { tag?: string }) => {
      if (e.tag) logger.appendKeys({ tag: e.tag });
      logger.info('job line');
    });
    await handler({ tag: 'first-only' }, context('weibo-unit-job', 'l-6'));
    await handler({}, context('weibo-unit-job', 'l-7'));
    const lines = out.filter((l) => l.message === 'job line');
    expect(lines.map((l) => [l.tag, l.correlation_id, l.function_request_id])).toEqual([
      ['first-only', 'l-6', 'l-6'],
      [undefined, 'l-7', 'l-7'],
    ]);
  });
});
