// test/e2e/observability.test.ts — what an operator and a caller can see of a request, through
// serverless-offline on the real HBase and queue: the Server-Timing header with the real HBase
// work (the home timeline's 2 round trips, as the integration tests measure them), on success
// and on every kind of error; the correlation id echoed back and carried through the queue onto
// the worker's log lines; the worker's EMF metrics; CORS answered by the HTTP API alone.
import { readFileSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import type { LogLine as HandlerLine } from '../support/log-lines.js';

const api = apiClient(inject('apiUrl'));
const logFile = inject('offlineLogFile');

const SERVER_TIMING = /^hbase;desc="(\d+) requests?, (\d+) round trips?";dur=(\d+(?:\.\d)?), app;dur=(\d+(?:\.\d)?)$/;

function timing(res: ApiResponse): { requests: number; roundTrips: number; hbaseMs: number; appMs: number } {
  const header = res.headers.get('server-timing') ?? '';
  const m = SERVER_TIMING.exec(header);
  if (!m) throw new Error(`Server-Timing ${JSON.stringify(header)} on ${res.status}`);
  return { requests: Number(m[1]), roundTrips: Number(m[2]), hbaseMs: Number(m[3]), appMs: Number(m[4]) };
}

/** A handler's JSON line, with the fields these tests read as they are written. */
type LogLine = HandlerLine & {
  function: string;
  timestamp: string;
  FanoutLag: number | number[];
  InboxCellsWritten: number | number[];
};

/** The handlers' JSON lines (logs and EMF) written to the offline log since byte `from`. */
/** The JSON lines logged after byte offset `from` (a byte offset: the log holds CJK text). */
function linesSince(from: number): LogLine[] {
  return readFileSync(logFile)
    .subarray(from)
    .toString('utf8')
    .split('\n')
    .flatMap((l) => {
      const at = l.indexOf('{');
      if (at < 0) return [];
      try {
        return [JSON.parse(l.slice(at)) as LogLine];
      } catch {
        return [];
      }
    });
}

const emf = (l: LogLine) => l._aws?.CloudWatchMetrics?.[0];

describe('Server-Timing', () => {
  it('the home timeline tells the caller its real HBase work: 2 round trips, as measured in the integration tests', async () => {
    const [author, reader] = [await api.newUser('st_a'), await api.newUser('st_r')];
    expect(
      (await api.call('PUT', `/users/${reader.handle}/following/${author.handle}`, { token: reader.token })).status,
    ).toBe(200);
    const posted = await api.call('POST', '/posts', { token: author.token, body: { body: 'timed' } });
    expect(posted.status).toBe(201);
    const res = await eventually(async () => {
      const r = await api.call('GET', `/users/${reader.handle}/timeline`, { token: reader.token });
      if (r.status !== 200 || r.json.posts.length !== 1) throw new Error(`timeline not fanned out yet: ${r.status}`);
      return r;
    });
    const t = timing(res);
    // The inbox get, then one parallel stage (posts, the reader's reactions, blocks, seen-mark).
    expect(t.roundTrips).toBe(2);
    expect(t.requests).toBeGreaterThanOrEqual(3);
    expect(t.hbaseMs).toBeGreaterThan(0);
    expect(t.appMs).toBeGreaterThanOrEqual(t.hbaseMs);
    // A write shows its own work too.
    expect(timing(posted).requests).toBeGreaterThan(0);
  });

  it('error responses carry it too: the catch-all 404, a missing token, a validation failure, a domain 404', async () => {
    const user = await api.newUser('st_e');
    const answers = [
      [await api.call('GET', '/no/such/route'), 404],
      [await api.call('GET', `/users/${user.handle}/timeline`), 401],
      [await api.call('GET', `/users/${user.handle}/timeline?limit=0`, { token: user.token }), 422],
      [await api.call('GET', '/users/nobody_here_at_all'), 404],
    ] as const;
    for (const [res, status] of answers) {
      expect(res.status).toBe(status);
      expect(res.headers.get('x-correlation-id')).toBeTruthy();
      timing(res);
    }
    // Refused before any use case ran: no HBase work at all.
    for (const [res] of answers.slice(0, 3))
      expect(timing(res)).toMatchObject({ requests: 0, roundTrips: 0, hbaseMs: 0 });
    // The unknown user was looked up: one round trip.
    expect(timing(answers[3][0])).toMatchObject({ roundTrips: 1 });
  });
});

describe('correlation ids', () => {
  it('echoes a well-formed x-correlation-id and replaces a malformed one with an id of the request’s own', async () => {
    const mine = `obs-${randomBytes(6).toString('hex')}`;
    const echoed = await api.call('GET', '/users/nobody_here_either', { headers: { 'x-correlation-id': mine } });
    expect(echoed.headers.get('x-correlation-id')).toBe(mine);
    const replaced = await Promise.all(
      [1, 2].map(() => api.call('GET', '/users/nobody_here_either', { headers: { 'x-correlation-id': 'not ok;"' } })),
    );
    const ids = replaced.map((r) => r.headers.get('x-correlation-id') ?? '');
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:+/=-]{0,99}$/);
    // One per request (API Gateway's request id; under serverless-offline, the Lambda request id).
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('the worker logs the fan-out of a post under the id of the request that published it, and emits its EMF metrics', async () => {
    const from = statSync(logFile).size;
    const [author, reader] = [await api.newUser('cid_a'), await api.newUser('cid_r')];
    expect(
      (await api.call('PUT', `/users/${reader.handle}/following/${author.handle}`, { token: reader.token })).status,
    ).toBe(200);
    const mine = `publish-${randomBytes(6).toString('hex')}`;
    const posted = await api.call('POST', '/posts', {
      token: author.token,
      body: { body: 'follow my id' },
      headers: { 'x-correlation-id': mine },
    });
    expect(posted.status).toBe(201);
    expect(posted.headers.get('x-correlation-id')).toBe(mine);

    const handled = await eventually(() => {
      const found = linesSince(from).filter(
        (l) => l.message === 'fan-out message handled' && l.correlation_id === mine && l.type === 'fanout',
      );
      if (found.length === 0) throw new Error('the worker has not logged the fan-out yet');
      return found;
    });
    expect(handled[0]).toMatchObject({ readers: 1, inboxCells: 1, level: 'INFO' });
    // The worker's own Lambda context is on the line too (injectLambdaContext).
    expect(handled[0]!.function_name).toMatch(/-fanout$/);
    expect(handled[0]!.function_request_id).toBeTruthy();

    // EMF, namespace Weibo: the fan-out lag and the inbox cells of that invocation. The worker
    // runs one invocation at a time under the e2e poller, and flushes its metrics once at the
    // end of it: the first fan-out EMF line after our handled line is our invocation's.
    const handledAt = linesSince(from).findIndex(
      (l) => l.message === 'fan-out message handled' && l.correlation_id === mine,
    );
    const metrics = await eventually(() => {
      const found = linesSince(from)
        .slice(handledAt + 1)
        .filter((l) => emf(l)?.Namespace === 'Weibo' && 'FanoutLag' in l && /-fanout$/.test(l.function));
      if (found.length === 0) throw new Error('no fan-out EMF line yet');
      return found;
    });
    const line = metrics[0]!;
    const names = emf(line)!.Metrics.map((m) => `${m.Name}:${m.Unit}`);
    expect(names).toEqual(
      expect.arrayContaining(['FanoutLag:Milliseconds', 'InboxCellsWritten:Count', 'HBaseRequests:Count']),
    );
    expect(emf(line)!.Dimensions).toEqual([expect.arrayContaining(['service', 'function'])]);
    // Our post's lag is the time from its publish (the millis in its id) to the handled line,
    // give or take the few ms between the metric and the log call. Not merely ≥ 0: the metric
    // clamps at 0, so a wrong clock or a reversed subtraction would still pass that.
    const published = Number(String(posted.json.id).split('.')[1]);
    const expected = Date.parse(handled[0]!.timestamp) - published;
    expect(expected).toBeGreaterThan(0);
    const lags = ([] as number[]).concat(line.FanoutLag);
    expect(
      lags.some((lag) => lag >= expected - 50 && lag <= expected + 50),
      `lags ${JSON.stringify(lags)}, expected ≈ ${expected} ms`,
    ).toBe(true);
    expect(([] as number[]).concat(line.InboxCellsWritten)).toContain(1);
  });
});

describe('CORS', () => {
  it('is answered by the HTTP API (httpApi.cors), once, for preflights and for real requests', async () => {
    const origin = 'https://weibo.example';
    const preflight = await api.call('OPTIONS', '/posts', {
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,idempotency-key,x-correlation-id',
      },
      notOurResponse: 'a CORS preflight is answered by the HTTP API before any handler runs',
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/weibo\.example)$/);
    // A cross-origin client may send the headers the API reads (serverless.yml provider.httpApi.cors)…
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-correlation-id']),
    );
    const real = await api.call('GET', '/no/such/route', { headers: { origin } });
    expect(real.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/weibo\.example)$/);
    // One value, not the API's and the function's side by side.
    expect(real.headers.get('access-control-allow-origin')).not.toContain(',');
    // …and read the ones it answers with.
    const exposed = (real.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['server-timing', 'x-correlation-id', 'retry-after']));
  });
});
