// test/unit/observability.test.ts — the pure parts of observability: correlation ids taken only
// when well-formed, round trips counted as the integration tests measure them, the
// Server-Timing header's exact text, which HBase answers are failures, and the invocation
// scope keeping concurrent invocations' HBase tallies and log lines apart.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../shared/logging/logger.js';
import {
  httpCorrelationId,
  parseCorrelationId,
  recordCorrelationId,
} from '../../shared/observability/correlation-id.js';
import { busyMs, sequentialDepth } from '../../shared/observability/round-trips.js';
import { hbaseCost, hbaseFailures, isFailure, recordHBaseRequest } from '../../shared/observability/hbase-requests.js';
import { serverTiming } from '../../shared/observability/server-timing.js';
import {
  currentScope,
  deferToInvocation,
  runInvocation,
  runWithCorrelationId,
  settleDeferred,
} from '../../shared/runtime/invocation-scope.js';

describe('correlation ids', () => {
  it('takes well-formed ids: UUIDs, API Gateway request ids (base64), SQS message ids', () => {
    for (const id of ['6f1c2a9e-3b1d-4c55-9d1e-0a4b2c3d4e5f', 'Jv4f4jL6IAMEbPw=', 'abc', 'trace.1:2_3+4/5'])
      expect(parseCorrelationId(id)).toBe(id);
  });

  it('refuses what could forge or flood a log line, a header or a queue attribute', () => {
    const refused = [
      '',
      ' leading-space',
      'a b',
      'line\nbreak',
      'quote"d',
      'comma,joined',
      'semi;colon',
      '<script>',
      'ü-not-ascii',
      'x'.repeat(101),
      '-starts-with-dash',
    ];
    for (const id of refused) expect(parseCorrelationId(id), JSON.stringify(id)).toBeUndefined();
    expect(parseCorrelationId('x'.repeat(100))).toBe('x'.repeat(100));
    expect(parseCorrelationId(42)).toBeUndefined();
    expect(parseCorrelationId(undefined)).toBeUndefined();
  });

  it('HTTP: the caller’s header when well-formed, else API Gateway’s request id, else the Lambda request id', () => {
    const requestContext = { requestId: 'Jv4f4jL6IAMEbPw=' };
    expect(httpCorrelationId({ headers: { 'x-correlation-id': 'mine-1' }, requestContext }, 'lambda-id')).toBe(
      'mine-1',
    );
    expect(httpCorrelationId({ headers: { 'x-correlation-id': 'bad id' }, requestContext }, 'lambda-id')).toBe(
      'Jv4f4jL6IAMEbPw=',
    );
    expect(httpCorrelationId({ headers: {} }, 'lambda-id')).toBe('lambda-id');
    // serverless-offline's one requestId for every request would join them all into one.
    expect(
      httpCorrelationId({ headers: {}, requestContext: { requestId: 'offlineContext_resourceId' } }, 'lambda-id'),
    ).toBe('lambda-id');
    expect(httpCorrelationId({})).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('queue records: the sender’s attribute when well-formed, else the message id', () => {
    const attr = (v: string) => ({ correlationId: { stringValue: v } });
    expect(recordCorrelationId({ messageId: 'm-1', messageAttributes: attr('req-7') })).toBe('req-7');
    expect(recordCorrelationId({ messageId: 'm-1', messageAttributes: attr('two\nlines') })).toBe('m-1');
    expect(recordCorrelationId({ messageId: 'm-1', messageAttributes: {} })).toBe('m-1');
  });
});

describe('round trips (the measured depth of the integration tests, and of Server-Timing)', () => {
  const span = (start: number, end: number) => ({ start, end });

  it('requests in flight together share a round trip; one sent after another answered adds one', () => {
    expect(sequentialDepth([])).toBe(0);
    expect(sequentialDepth([span(0, 10), span(1, 9), span(2, 12)])).toBe(1);
    expect(sequentialDepth([span(0, 10), span(10, 20)])).toBe(2); // sent the moment the first answered
    // The home timeline's shape: the inbox get, then posts ∥ reactions ∥ blocks ∥ seen-mark.
    expect(sequentialDepth([span(0, 4), span(5, 9), span(5, 8), span(5.5, 7), span(6, 10)])).toBe(2);
  });

  it('counts the longest chain, not the number of requests, whatever order they are listed in', () => {
    // A 0–10 ∥ B 0–5; C 6–12 after B; D 11–20 after A (C still in flight); E 21–22 after everything.
    const spans = [span(21, 22), span(11, 20), span(6, 12), span(0, 5), span(0, 10)];
    expect(sequentialDepth(spans)).toBe(3);
    expect(sequentialDepth([span(0, 1), span(2, 3), span(4, 5), span(6, 7)])).toBe(4);
  });

  it('a background request (a handed-off scanner delete) ends a chain but never links one', () => {
    // An author's posts: scanner create 0–1, page 2–3; its delete 4–5 handed off; the faces and
    // blocks 0–6 beside them; the reactions 7–9 wait for the blocks, not for the delete.
    const spans = [span(0, 1), span(2, 3), { start: 4, end: 5, background: true }, span(0, 6), span(7, 9)];
    expect(sequentialDepth(spans)).toBe(3);
    // Awaited in place, the same delete is a link: create → page → delete → reactions.
    expect(sequentialDepth([span(0, 1), span(2, 3), span(4, 5), span(0, 6), span(7, 9)])).toBe(4);
    // Last of its chain, it still counts as one.
    expect(sequentialDepth([span(0, 1), { start: 2, end: 3, background: true }])).toBe(2);
  });

  it('HBase time is the wall-clock time with a request in flight: overlaps count once', () => {
    expect(busyMs([])).toBe(0);
    expect(busyMs([span(0, 10), span(5, 15)])).toBe(15);
    expect(busyMs([span(0, 10), span(2, 3), span(20, 25)])).toBe(15);
  });
});

describe('the Server-Timing header', () => {
  it('names the requests, the round trips and the HBase time, then the whole invocation', () => {
    expect(serverTiming({ requests: 4, roundTrips: 2, hbaseMs: 12.345 }, 30.06)).toBe(
      'hbase;desc="4 requests, 2 round trips";dur=12.3, app;dur=30.1',
    );
    expect(serverTiming({ requests: 1, roundTrips: 1, hbaseMs: 3 }, 5)).toBe(
      'hbase;desc="1 request, 1 round trip";dur=3, app;dur=5',
    );
    expect(serverTiming({ requests: 0, roundTrips: 0, hbaseMs: 0 }, 0.04)).toBe(
      'hbase;desc="0 requests, 0 round trips";dur=0, app;dur=0',
    );
  });
});

describe('the invocation scope', () => {
  it('treats "no such row" (404) and a failed check (304) as answers, the rest from 400 up and no answer as failures', () => {
    for (const s of [200, 201, 304, 404]) expect(isFailure(s), String(s)).toBe(false);
    for (const s of [0, 400, 403, 500, 503]) expect(isFailure(s), String(s)).toBe(true);
  });

  it('charges each HBase request to the invocation that sent it, even when invocations interleave', async () => {
    // Each request "takes" 0.2 ms and the next is sent 3 ms later: one chain per invocation.
    const tick = () => new Promise((r) => setTimeout(r, 3));
    const invocation = (id: string, statuses: number[]) =>
      runInvocation(id, async () => {
        for (const status of statuses) {
          await tick();
          recordHBaseRequest({ method: 'GET', path: `/${id}`, status, durationMs: 0.2 });
        }
        return {
          id: currentScope()!.correlationId,
          cost: hbaseCost(currentScope()!.hbase),
          errors: Object.fromEntries(hbaseFailures(currentScope()!.hbase)),
        };
      });
    const [a, b] = await Promise.all([invocation('a', [200, 200, 200]), invocation('b', [200, 503])]);
    expect(a).toMatchObject({ id: 'a', cost: { requests: 3, roundTrips: 3 }, errors: {} });
    expect(b).toMatchObject({ id: 'b', cost: { requests: 2, roundTrips: 2 }, errors: { '503': 1 } });
    expect(currentScope()).toBeUndefined();
  });

  it('work handed off to an invocation ends before it does (and before Server-Timing counts); outside one it is refused', async () => {
    const done: string[] = [];
    const later = (name: string, ms: number) =>
      new Promise<void>((r) =>
        setTimeout(() => {
          done.push(name);
          r();
        }, ms),
      );
    await runInvocation('deferring', async () => {
      expect(deferToInvocation(later('delete A', 20))).toBe(true);
      await runWithCorrelationId('record', async () => expect(deferToInvocation(later('delete B', 5))).toBe(true));
      await settleDeferred();
      expect(done.toSorted()).toEqual(['delete A', 'delete B']);
      // Handed off and never awaited by the handler: the invocation still waits for it.
      deferToInvocation(later('delete C', 20));
    });
    expect(done).toContain('delete C');
    expect(deferToInvocation(Promise.resolve())).toBe(false);
  });

  it('a queue record runs under its own correlation id and its HBase work still counts for the invocation', async () => {
    await runInvocation('batch', async () => {
      await Promise.all(
        ['r1', 'r2'].map((id) =>
          runWithCorrelationId(id, async () => {
            recordHBaseRequest({ method: 'PUT', path: '/x', status: 200, durationMs: 1 });
            expect(currentScope()!.correlationId).toBe(id);
          }),
        ),
      );
      expect(currentScope()!.correlationId).toBe('batch');
      expect(hbaseCost(currentScope()!.hbase).requests).toBe(2);
    });
  });
});

describe('log lines', () => {
  afterEach(() => vi.restoreAllMocks());

  it('carry the correlation id of the scope they were logged in, and none outside one', async () => {
    const lines: Record<string, unknown>[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      for (const l of String(chunk).split('\n'))
        if (l.startsWith('{')) lines.push(JSON.parse(l) as Record<string, unknown>);
      return true;
    });
    const tick = () => new Promise((r) => setTimeout(r, 1));
    await Promise.all(
      ['first', 'second'].map((id) =>
        runInvocation(id, async () => {
          await tick();
          logger.info('step one', { who: id });
          await tick();
          logger.info('step two', { who: id });
        }),
      ),
    );
    logger.info('outside');
    vi.restoreAllMocks();
    const ours = lines.filter((l) => l.message === 'step one' || l.message === 'step two');
    expect(ours).toHaveLength(4);
    for (const l of ours) expect(l.correlation_id).toBe(l.who);
    expect(lines.find((l) => l.message === 'outside')).not.toHaveProperty('correlation_id');
  });
});
