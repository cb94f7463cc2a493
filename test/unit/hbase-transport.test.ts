// test/unit/hbase-transport.test.ts — the client's HTTP policy (headers, retries, timeouts, errors) against a scripted loopback server.
// This is not a stand-in for HBase: it only returns the statuses the retry and error rules are about.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HBaseError, HBaseRestClient, type HBaseRequestEvent } from '../../shared/hbase/index.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

let server: Server;
let baseUrl: string;
let script: Handler[] = [];
let seen: Seen[] = [];
const clients: HBaseRestClient[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      const handler = script.shift() ?? reply(500, 'script exhausted');
      handler(req, res, s);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  script = [];
  seen = [];
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function reply(status: number, body = '', headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
}

const hang: Handler = () => {
  /* never answers */
};

function client(
  opts: {
    path?: string;
    retries?: number;
    timeoutMs?: number;
    headers?: Record<string, string>;
    deadline?: () => number | undefined;
    authorization?: () => Promise<string | undefined>;
  } = {},
) {
  const events: HBaseRequestEvent[] = [];
  const c = new HBaseRestClient({
    baseUrl: baseUrl + (opts.path ?? ''),
    retries: opts.retries ?? 2,
    timeoutMs: opts.timeoutMs ?? 2_000,
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(opts.deadline ? { deadline: opts.deadline } : {}),
    ...(opts.authorization ? { authorization: opts.authorization } : {}),
    onRequest: (e) => events.push(e),
  });
  clients.push(c);
  return { c, events };
}

describe('request shape', () => {
  it('asks for JSON (protobuf only for scanner pages), labels bodies by their encoding, and keeps the base path prefix', async () => {
    const { c } = client({ path: '/hbase/', headers: { Authorization: 'Bearer t', Accept: 'text/xml' } });
    script = [reply(200), reply(200)];
    await c.tableExists('t');
    await c.put('t', [{ key: 'k', cells: [{ column: 'cf:a', value: 'v' }] }]);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/hbase/t/exists' });
    expect(seen[0]?.headers).toMatchObject({ accept: 'application/json', authorization: 'Bearer t' });
    expect(seen[0]?.headers['content-type']).toBeUndefined();
    expect(seen[1]).toMatchObject({ method: 'PUT', url: '/hbase/t/_batch_' });
    expect(seen[1]?.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/x-protobuf' });
    // CellSet{Row{key 'k', Cell{column 'cf:a', data 'v'}}}: a batch put's body is protobuf.
    expect(Buffer.from(seen[1]!.body, 'latin1').toString('hex')).toBe('0a0e0a016b1209120463663a61220176');
  });

  it('sends nothing for an empty put or multiGet', async () => {
    const { c } = client();
    await c.put('t', []);
    await c.multiGet('t', []);
    expect(c.requestCount).toBe(0);
  });

  it('validates table names before sending', async () => {
    const { c } = client();
    await expect(c.getRow('bad/name', 'k')).rejects.toThrow(TypeError);
    expect(c.requestCount).toBe(0);
  });
});

describe('the invocation deadline (shared/runtime/deadline.ts)', () => {
  it('cuts an attempt to the time left, and does not retry past the deadline: the error says the deadline ended it', async () => {
    const deadline = Date.now() + 400;
    const { c, events } = client({ retries: 2, timeoutMs: 2_000, deadline: () => deadline });
    script = [hang, hang, hang];
    const started = Date.now();
    await expect(c.tableExists('t')).rejects.toMatchObject({
      status: 0,
      deadline: true,
      message: expect.stringContaining('by the deadline'),
    });
    const took = Date.now() - started;
    // One attempt of at most the ~400 ms left (not the 2 s timeout); no retry could fit after it.
    expect(took).toBeLessThan(1_000);
    expect(took).toBeGreaterThanOrEqual(300);
    expect(events).toHaveLength(1);
  });

  it('lets a call that cannot be retried wait past the attempt timeout, until the deadline', async () => {
    const { c } = client({ timeoutMs: 300, deadline: () => Date.now() + 3_000 });
    // A gateway that answers after 800 ms (paused, or busy): an increment cannot be sent twice,
    // so cutting it at 300 ms would only leave its outcome unknown.
    script = [(_req, res) => void setTimeout(() => res.writeHead(200).end(), 800)];
    await expect(c.increment('t', new Uint8Array([1]), new TextEncoder().encode('c:n'), 1)).resolves.toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it('sends nothing when less than MIN_ATTEMPT_MS is left', async () => {
    const { c } = client({ deadline: () => Date.now() + 50 });
    script = [reply(200)];
    await expect(c.tableExists('t')).rejects.toThrow(/not sent: \d+ ms left before the deadline/);
    await expect(c.tableExists('t')).rejects.toMatchObject({ status: 0, deadline: true });
    expect(seen).toHaveLength(0);
  });

  it('refuses at the socket a request whose deadline passed after its check (an invocation paused in between, then resumed)', async () => {
    // The pause sits between the transport's check and the write: the credential lookup is awaited
    // there, as any await can be where Lambda freezes an invocation and thaws it later.
    const deadline = Date.now() + 300;
    const { c } = client({ deadline: () => deadline, authorization: () => sleep(450).then(() => 'Basic eA==') });
    script = [reply(200)];
    const err = await c.tableExists('t').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HBaseError);
    expect(err).toMatchObject({ status: 0, deadline: true });
    expect((err as Error).message).toMatch(/not sent: the deadline passed \d+ ms before the request could be written/);
    expect(seen).toHaveLength(0);
  });

  it('retries on 503 while the backoff still fits, as without a deadline', async () => {
    const { c } = client({ deadline: () => Date.now() + 5_000 });
    script = [reply(503), reply(200)];
    await expect(c.tableExists('t')).resolves.toBe(true);
    expect(c.requestCount).toBe(2);
  });
});

describe('credentials read at run time', () => {
  it('asks for the Authorization value on every request, so a rotated credential is used at once', async () => {
    let current = 'Basic b2xk';
    const { c } = client({ authorization: async () => current });
    script = [reply(200), reply(200)];
    await c.tableExists('t');
    current = 'Basic bmV3';
    await c.tableExists('t');
    expect(seen.map((r) => r.headers.authorization)).toEqual(['Basic b2xk', 'Basic bmV3']);
  });
});

describe('retries', () => {
  it('retries an idempotent call on 503 and counts every attempt', async () => {
    const { c, events } = client();
    script = [reply(503, 'Unavailable'), reply(503, 'Unavailable'), reply(200)];
    await expect(c.tableExists('t')).resolves.toBe(true);
    expect(c.requestCount).toBe(3);
    expect(events.map((e) => e.status)).toEqual([503, 503, 200]);
  });

  it('gives up after `retries` extra attempts with the last status and body', async () => {
    const { c } = client({ retries: 1 });
    script = [reply(503, 'Unavailable'), reply(503, 'Unavailable\r\nstack trace')];
    const err = await c.tableExists('t').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HBaseError);
    expect(err).toMatchObject({ status: 503, method: 'GET', path: '/t/exists', body: 'Unavailable\r\nstack trace' });
    expect(c.requestCount).toBe(2);
  });

  it.each([
    ['increment', (c: HBaseRestClient) => c.increment('t', 'k', 'cf:n', 1)],
    ['append', (c: HBaseRestClient) => c.append('t', 'k', 'cf:n', 'x')],
    [
      'checkAndPut',
      (c: HBaseRestClient) =>
        c.checkAndPut('t', 'k', [{ column: 'cf:n', value: 'x' }], { column: 'cf:n', value: null }),
    ],
    ['checkAndDelete', (c: HBaseRestClient) => c.checkAndDelete('t', 'k', { column: 'cf:n', value: 'x' })],
  ])('never retries %s', async (_name, call) => {
    const { c } = client();
    script = [reply(503, 'Unavailable'), reply(200)];
    await expect(call(c)).rejects.toMatchObject({ status: 503 });
    expect(c.requestCount).toBe(1);
  });

  it('never retries a scanner page read', async () => {
    const { c, events } = client();
    script = [reply(201, '', { location: 'http://elsewhere:1/t/scanner/s1' }), reply(503, 'Unavailable'), reply(200)];
    const drain = async () => {
      for await (const row of c.scan('t', { prefix: 'a', limit: 5 })) void row;
    };
    await expect(drain()).rejects.toMatchObject({ status: 503 });
    expect(events.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /t/scanner 201',
      'GET /t/scanner/s1?n=5 503',
      'DELETE /t/scanner/s1 200',
    ]);
  });

  it('turns a timeout into HBaseError status 0 and retries it when idempotent', async () => {
    const { c, events } = client({ retries: 1, timeoutMs: 150 });
    script = [hang, hang];
    const err = await c.tableExists('t').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HBaseError);
    // Its own timeout, no deadline: storage failed, the invocation did not run out of time.
    expect(err).toMatchObject({ status: 0, method: 'GET', path: '/t/exists', deadline: false });
    expect(events.map((e) => e.status)).toEqual([0, 0]);
  });

  it('reports a refused connection as HBaseError status 0 with the cause attached', async () => {
    const c = new HBaseRestClient({ baseUrl: 'http://127.0.0.1:1', retries: 0, timeoutMs: 1_000 });
    clients.push(c);
    const err = (await c.clusterVersion().catch((e: unknown) => e)) as HBaseError;
    expect(err).toBeInstanceOf(HBaseError);
    expect(err.status).toBe(0);
    expect(err.cause).toBeDefined();
    expect(c.requestCount).toBe(1);
  });
});

describe('errors and 404s', () => {
  it('does not read a 404 from something other than the gateway as "no row"', async () => {
    const { c } = client();
    script = [reply(404, '<html>404 from a proxy</html>')];
    await expect(c.getRow('t', 'k')).rejects.toMatchObject({ status: 404 });
  });

  it('reads "No rows found." as an empty result', async () => {
    const { c } = client();
    script = [reply(404, 'No rows found.\r\n')];
    await expect(c.getRow('t', 'k')).resolves.toBeNull();
  });

  it("reads Jetty's 304 (Content-Length: 20, no body) as a failed check, not a network error", async () => {
    const { c } = client();
    const jetty304: Handler = (_req, res) => {
      res.writeHead(304, { 'content-type': 'text/plain', 'content-length': '20' });
      res.end();
    };
    script = [jetty304, jetty304, reply(200)];
    await expect(
      c.checkAndPut('t', 'k', [{ column: 'cf:a', value: 'x' }], { column: 'cf:a', value: 'y' }),
    ).resolves.toBe(false);
    await expect(c.checkAndDelete('t', 'k', { column: 'cf:a', value: 'y' })).resolves.toBe(false);
    // The connection is dropped after such a reply; the next request must still go through.
    await expect(c.tableExists('t')).resolves.toBe(true);
    expect(c.requestCount).toBe(3);
  });

  it('truncates huge error bodies', async () => {
    const { c } = client({ retries: 0 });
    script = [reply(400, 'x'.repeat(10_000))];
    const err = (await c.deleteRow('t', 'k').catch((e: unknown) => e)) as HBaseError;
    expect(err.status).toBe(400);
    expect(err.body.length).toBeLessThan(2_100);
    expect(err.message).toContain('DELETE /t/aw==?e=b64 -> 400');
  });

  it('rejects a scanner Location it cannot use, and still reports the request', async () => {
    const { c } = client();
    script = [reply(201, '', {})];
    const drain = async () => {
      for await (const row of c.scan('t', { prefix: 'a', limit: 5 })) void row;
    };
    await expect(drain()).rejects.toThrow(/Location/);
    expect(c.requestCount).toBe(1);
  });
});
