// test/integration/hbase-client.test.ts — HBaseRestClient against the real HBase REST gateway (HBASE_REST_URL): every operation and every A17 surprise.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HBaseError,
  HBaseRestClient,
  bytesToString,
  concatBytes,
  decodeLong,
  toBase64,
  toBytes,
  type HBaseRequestEvent,
  type HBaseRow,
} from '../../shared/hbase/index.js';
import { fromBase64Url, toBase64Url } from '../../shared/hbase/codec.js';
import { parseCellSet } from '../../shared/hbase/cellset.js';
import { decodeCellSet } from '../../shared/hbase/protobuf.js';
import { and, columnPagination, columnRange, family, keyOnly, or } from '../../shared/hbase/filter-string.js';

const BASE_URL = process.env.HBASE_REST_URL ?? 'http://127.0.0.1:18080';
const SUFFIX = randomBytes(4).toString('hex');
const TABLE = `it_client_${SUFFIX}`;
const NS = `it_client_ns_${SUFFIX}`;
const NS_TABLE = `${NS}:keys`;
const MISSING_TABLE = `it_client_missing_${SUFFIX}`;

const events: HBaseRequestEvent[] = [];
const hb = new HBaseRestClient({ baseUrl: BASE_URL, timeoutMs: 30_000, onRequest: (e) => events.push(e) });

const u8 = (...b: number[]) => new Uint8Array(b);
const str = bytesToString;
/** qualifier -> value, for the newest version of each column. */
const cellsOf = (row: HBaseRow | null | undefined): Record<string, string> =>
  Object.fromEntries((row?.cells ?? []).map((c) => [`${c.family}:${str(c.qualifier)}`, str(c.value)]));

/** Runs `fn` and returns the HTTP requests it sent, as "METHOD path status". */
async function requestsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const before = events.length;
  const countBefore = hb.requestCount;
  await fn();
  const sent = events.slice(before).map((e) => `${e.method} ${e.path} ${e.status}`);
  expect(hb.requestCount - countBefore).toBe(sent.length);
  return sent;
}

async function drain(rows: AsyncIterable<HBaseRow>): Promise<HBaseRow[]> {
  const out: HBaseRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

/** A raw request, bypassing the client, to pin down what the server itself does. */
async function raw(method: 'GET' | 'PUT' | 'DELETE', path: string, json?: unknown) {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { accept: 'application/json', ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  const version = await hb.clusterVersion();
  console.log('HBase version', version, 'at', BASE_URL);
  expect(
    await hb.createTable(TABLE, {
      columnFamilies: [
        { name: 'cf', VERSIONS: 3 },
        { name: 'f2', VERSIONS: 1 },
        { name: 'cnt', VERSIONS: 1 },
      ],
    }),
  ).toBe(true);
  expect(await hb.createNamespace(NS)).toBe(true);
  expect(await hb.createTable(NS_TABLE, { columnFamilies: [{ name: 'cf', VERSIONS: 1, BLOOMFILTER: 'ROW' }] })).toBe(
    true,
  );
});

afterAll(async () => {
  await hb.deleteTable(TABLE);
  await hb.deleteTable(NS_TABLE);
  await hb.deleteNamespace(NS);
  await hb.close();
});

describe('admin', () => {
  it('reports the cluster version', async () => {
    expect(await hb.clusterVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists namespaces and answers existence from the list (a GET of a missing one is a 500)', async () => {
    const list = await hb.listNamespaces();
    expect(list).toEqual(expect.arrayContaining(['default', 'hbase', NS]));
    expect(await hb.namespaceExists(NS)).toBe(true);
    expect(await hb.namespaceExists(`nope_${SUFFIX}`)).toBe(false);
    expect((await raw('GET', `/namespaces/nope_${SUFFIX}`)).status).toBe(500);
  });

  it('createNamespace on an existing namespace returns false (403)', async () => {
    const sent = await requestsOf(async () => expect(await hb.createNamespace(NS)).toBe(false));
    expect(sent).toEqual([`POST /namespaces/${NS} 403`]);
  });

  it('knows which tables exist and describes them', async () => {
    expect(await hb.tableExists(TABLE)).toBe(true);
    expect(await hb.tableExists(NS_TABLE)).toBe(true);
    expect(await hb.tableExists(MISSING_TABLE)).toBe(false);
    expect(await hb.getTableSchema(MISSING_TABLE)).toBeNull();
    const schema = await hb.getTableSchema(TABLE);
    expect(schema?.columnFamilies.map((f) => [f.name, f.VERSIONS])).toEqual([
      ['cf', '3'],
      ['cnt', '1'],
      ['f2', '1'],
    ]);
    expect(schema?.attributes?.IS_META).toBe('false');
  });

  it('createTable on an existing table returns false and drops no family', async () => {
    const sent = await requestsOf(async () =>
      expect(await hb.createTable(TABLE, { columnFamilies: [{ name: 'cf' }] })).toBe(false),
    );
    expect(sent).toEqual([`GET /${TABLE}/exists 200`]);
    const families = (await hb.getTableSchema(TABLE))?.columnFamilies.map((f) => f.name);
    expect(families).toEqual(['cf', 'cnt', 'f2']);
  });

  it('addOrAlterFamilies adds and alters only the listed families', async () => {
    await hb.addOrAlterFamilies(TABLE, [{ name: 'extra', VERSIONS: 2, TTL: 86400 }]);
    await hb.addOrAlterFamilies(TABLE, [{ name: 'extra', VERSIONS: 4 }]);
    const schema = await hb.getTableSchema(TABLE);
    expect(schema?.columnFamilies.map((f) => f.name)).toEqual(['cf', 'cnt', 'extra', 'f2']);
    expect(schema?.columnFamilies.find((f) => f.name === 'extra')?.VERSIONS).toBe('4');
    expect(schema?.columnFamilies.find((f) => f.name === 'cf')?.VERSIONS).toBe('3');
  });

  it('creates and drops a table, with table attributes', async () => {
    const scratch = `it_client_scratch_${SUFFIX}`;
    expect(await hb.createTable(scratch, { columnFamilies: [{ name: 'a' }], attributes: { OWNER_NOTE: 'it' } })).toBe(
      true,
    );
    expect((await hb.getTableSchema(scratch))?.attributes?.OWNER_NOTE).toBe('it');
    expect(await hb.deleteTable(scratch)).toBe(true);
    expect(await hb.tableExists(scratch)).toBe(false);
    expect(await hb.deleteTable(scratch)).toBe(false);
  });

  it('rejects table names outside HBase charset without sending anything', async () => {
    const sent = await requestsOf(async () => {
      await expect(hb.tableExists('bad/name')).rejects.toThrow(TypeError);
      await expect(hb.getRow('x y', 'k')).rejects.toThrow(TypeError);
    });
    expect(sent).toEqual([]);
  });
});

describe('rows', () => {
  it('batch-puts several rows in one request and reads them back', async () => {
    const sent = await requestsOf(() =>
      hb.put(TABLE, [
        {
          key: 'rows:a',
          cells: [
            { column: 'cf:x', value: '1' },
            { column: 'f2:y', value: '2' },
            { column: 'cf:', value: 'empty-qualifier' },
          ],
        },
        { key: 'rows:b', cells: [{ column: 'cf:x', value: '3', timestamp: 1_700_000_000_000 }] },
      ]),
    );
    expect(sent).toEqual([`PUT /${TABLE}/_batch_ 200`]);
    const a = await hb.getRow(TABLE, 'rows:a');
    expect(str(a!.key)).toBe('rows:a');
    expect(cellsOf(a)).toEqual({ 'cf:': 'empty-qualifier', 'cf:x': '1', 'f2:y': '2' });
    const b = await hb.getRow(TABLE, 'rows:b');
    expect(b?.cells[0]).toMatchObject({ family: 'cf', timestamp: 1_700_000_000_000 });
    expect(str(b!.cells[0]!.column)).toBe('cf:x');
  });

  it('getRow narrows to columns or families', async () => {
    expect(cellsOf(await hb.getRow(TABLE, 'rows:a', { columns: ['cf:x'] }))).toEqual({ 'cf:x': '1' });
    expect(cellsOf(await hb.getRow(TABLE, 'rows:a', { columns: ['f2'] }))).toEqual({ 'f2:y': '2' });
    expect(cellsOf(await hb.getRow(TABLE, 'rows:a', { columns: ['cf:x', 'f2:y'] }))).toEqual({
      'cf:x': '1',
      'f2:y': '2',
    });
    // The row exists but has none of the requested columns: same as a missing row.
    expect(await hb.getRow(TABLE, 'rows:a', { columns: ['cf:nope'] })).toBeNull();
  });

  it('getRow returns newest-first versions on request, one by default', async () => {
    await hb.put(
      TABLE,
      [1, 2, 3].map((i) => ({ key: 'rows:v', cells: [{ column: 'cf:v', value: `v${i}`, timestamp: 1000 * i }] })),
    );
    const one = await hb.getRow(TABLE, 'rows:v');
    expect(one?.cells.map((c) => str(c.value))).toEqual(['v3']);
    const three = await hb.getRow(TABLE, 'rows:v', { versions: 3 });
    expect(three?.cells.map((c) => [str(c.value), c.timestamp])).toEqual([
      ['v3', 3000],
      ['v2', 2000],
      ['v1', 1000],
    ]);
  });

  it('missing row -> null in one round trip; missing table -> HBaseError 404', async () => {
    const sent = await requestsOf(async () => expect(await hb.getRow(TABLE, 'rows:missing')).toBeNull());
    expect(sent).toHaveLength(1);
    const err = (await hb.getRow(MISSING_TABLE, 'k').catch((e: unknown) => e)) as HBaseError;
    expect(err).toBeInstanceOf(HBaseError);
    expect(err.status).toBe(404);
    await expect(hb.multiGet(MISSING_TABLE, ['a', 'b'])).rejects.toMatchObject({ status: 404 });
    await expect(hb.put(MISSING_TABLE, [{ key: 'k', cells: [{ column: 'cf:a', value: 'v' }] }])).rejects.toMatchObject({
      status: 404,
    });
    await expect(hb.deleteRow(MISSING_TABLE, 'k')).rejects.toMatchObject({ status: 404 });
  });

  it('a missing column family is an error, not an empty result', async () => {
    await expect(hb.getRow(TABLE, 'rows:a', { columns: ['nofam:x'] })).rejects.toBeInstanceOf(HBaseError);
    await expect(hb.put(TABLE, [{ key: 'rows:a', cells: [{ column: 'nofam:x', value: 'v' }] }])).rejects.toMatchObject({
      status: 404,
    });
  });

  it('multiGet returns found rows in request order, skipping missing ones', async () => {
    await hb.put(
      TABLE,
      ['m1', 'm2', 'm3', 'm4', 'm5'].map((k) => ({ key: `mg:${k}`, cells: [{ column: 'cf:k', value: k }] })),
    );
    const rows = await hb.multiGet(TABLE, ['mg:m3', 'mg:nope', 'mg:m1', 'mg:m5']);
    expect(rows.map((r) => str(r.key))).toEqual(['mg:m3', 'mg:m1', 'mg:m5']);
    expect(cellsOf(rows[0])).toEqual({ 'cf:k': 'm3' });
  });

  it('multiGet of nothing found -> [] ; of no keys -> [] without a request', async () => {
    expect(await hb.multiGet(TABLE, ['mg:nope1', 'mg:nope2'])).toEqual([]);
    expect(await requestsOf(async () => expect(await hb.multiGet(TABLE, [])).toEqual([]))).toEqual([]);
  });

  it('multiGet chunks large key lists and keeps order across chunks', async () => {
    const keys = ['mg:m5', 'mg:m4', 'mg:x', 'mg:m3', 'mg:m2', 'mg:m1'];
    const before = hb.requestCount;
    const rows = await hb.multiGet(TABLE, keys, { chunkSize: 2, columns: ['cf:k'] });
    expect(hb.requestCount - before).toBe(3);
    expect(rows.map((r) => str(r.key))).toEqual(['mg:m5', 'mg:m4', 'mg:m3', 'mg:m2', 'mg:m1']);
  });

  it('multiGet with versions', async () => {
    const [row] = await hb.multiGet(TABLE, ['rows:v'], { versions: 2 });
    expect(row?.cells.map((c) => str(c.value))).toEqual(['v3', 'v2']);
  });

  it('deleteColumn removes all versions; deleteFamily removes the family; deleteRow removes the row', async () => {
    await hb.put(TABLE, [
      {
        key: 'del:1',
        cells: [
          { column: 'cf:a', value: 'a1', timestamp: 10 },
          { column: 'cf:b', value: 'b' },
          { column: 'f2:c', value: 'c' },
        ],
      },
      { key: 'del:1', cells: [{ column: 'cf:a', value: 'a2', timestamp: 20 }] },
    ]);
    await hb.deleteColumn(TABLE, 'del:1', 'cf:a');
    expect(cellsOf(await hb.getRow(TABLE, 'del:1', { versions: 3 }))).toEqual({ 'cf:b': 'b', 'f2:c': 'c' });
    await hb.deleteFamily(TABLE, 'del:1', 'f2');
    expect(cellsOf(await hb.getRow(TABLE, 'del:1'))).toEqual({ 'cf:b': 'b' });
    await hb.deleteRow(TABLE, 'del:1');
    expect(await hb.getRow(TABLE, 'del:1')).toBeNull();
    // Deletes are idempotent on the server too.
    await hb.deleteRow(TABLE, 'del:1');
  });

  it('deleteColumn upToTimestamp removes every version <= ts and keeps newer ones', async () => {
    await hb.put(
      TABLE,
      [1000, 2000, 3000].map((ts) => ({ key: 'del:ts', cells: [{ column: 'cf:a', value: `at${ts}`, timestamp: ts }] })),
    );
    await hb.deleteColumn(TABLE, 'del:ts', 'cf:a', { upToTimestamp: 2000 });
    const row = await hb.getRow(TABLE, 'del:ts', { versions: 3 });
    expect(row?.cells.map((c) => [str(c.value), c.timestamp])).toEqual([['at3000', 3000]]);
  });

  it('refuses a bare family where a column is required, without a request', async () => {
    const sent = await requestsOf(async () => {
      await expect(hb.deleteColumn(TABLE, 'k', 'cf')).rejects.toThrow(TypeError);
      await expect(hb.put(TABLE, [{ key: 'k', cells: [{ column: 'cf', value: 'v' }] }])).rejects.toThrow(TypeError);
      await expect(hb.deleteFamily(TABLE, 'k', 'cf:x')).rejects.toThrow(TypeError);
    });
    expect(sent).toEqual([]);
  });
});

describe('binary-safe keys and qualifiers', () => {
  // Every byte that the path grammar, the form decoder, the glob rule or the router could misread.
  const keys: Uint8Array[] = [
    ...[
      'a/b',
      'a+b',
      'a b',
      'a*b',
      'a,b',
      'a%b',
      '%2F',
      '%',
      '+',
      '/',
      ',',
      '*',
      'ends*',
      'a?b=1&c',
      '#frag',
      '.',
      '..',
      '日本語',
    ].map(toBytes),
    ...['exists', 'regions', 'schema', 'scanner', 'multiget', 'multigetx', 'multiget/cf:a', 'Multiget'].map(toBytes),
    fromBase64Url('multigetAAAA'), // bytes whose base64url segment starts with "multiget"
    fromBase64Url('bXVsdGlnZXQ'), // "multiget" again, but as raw binary key bytes
    u8(0xff, 0x00, 0x80),
    u8(0x00),
    u8(0x80, 0x2a), // non-UTF-8 byte then '*'
  ];
  const qualifierOf = (key: Uint8Array) => concatBytes('cf:', key);
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

  it('the awkward keys really are awkward', () => {
    expect(toBase64Url(fromBase64Url('multigetAAAA'))).toMatch(/^multiget/);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(u8(0xff, 0x00, 0x80))).toThrow();
  });

  it('round-trip through put and getRow (key and qualifier)', async () => {
    await hb.put(
      NS_TABLE,
      keys.map((key) => ({
        key,
        cells: [
          { column: qualifierOf(key), value: key },
          { column: 'cf:plain', value: 'p' },
        ],
      })),
    );
    for (const key of keys) {
      const row = await hb.getRow(NS_TABLE, key);
      expect(row, hex(key)).not.toBeNull();
      expect(hex(row!.key)).toBe(hex(key));
      const cell = row!.cells.find((c) => hex(c.column) === hex(qualifierOf(key)));
      expect(cell && hex(cell.qualifier), hex(key)).toBe(hex(key));
      expect(cell && hex(cell.value)).toBe(hex(key));
      const narrowed = await hb.getRow(NS_TABLE, key, { columns: [qualifierOf(key)] });
      expect(narrowed?.cells.map((c) => hex(c.qualifier))).toEqual([hex(key)]);
    }
  });

  it('round-trip through multiGet, in request order', async () => {
    const rows = await hb.multiGet(NS_TABLE, keys);
    expect(rows.map((r) => hex(r.key))).toEqual(keys.map(hex));
    const narrowed = await hb.multiGet(NS_TABLE, keys, { columns: keys.map(qualifierOf), chunkSize: 7 });
    expect(narrowed.map((r) => r.cells.length)).toEqual(keys.map(() => 1));
  });

  it('round-trip through scan, in HBase byte order', async () => {
    const rows = await drain(
      hb.scan(NS_TABLE, { startRow: u8(0x00), stopRow: u8(0xff, 0xff, 0xff), limit: 100, pageSize: 5 }),
    );
    const expected = [...new Set(keys.map(hex))].sort();
    expect(rows.map((r) => hex(r.key))).toEqual(expected);
  });

  it('a key ending in * is a key, not a prefix glob', async () => {
    await hb.put(NS_TABLE, [{ key: 'glob', cells: [{ column: 'cf:plain', value: 'not me' }] }]);
    const rows = await hb.multiGet(NS_TABLE, ['glob*']);
    expect(rows).toEqual([]);
    expect(await hb.getRow(NS_TABLE, 'glob*')).toBeNull();
    expect(str((await hb.getRow(NS_TABLE, 'ends*'))!.key)).toBe('ends*');
    await hb.deleteRow(NS_TABLE, 'glob');
  });

  it('round-trip through deleteColumn and deleteRow', async () => {
    for (const key of keys) await hb.deleteColumn(NS_TABLE, key, qualifierOf(key));
    for (const key of keys) expect(cellsOf(await hb.getRow(NS_TABLE, key)), hex(key)).toEqual({ 'cf:plain': 'p' });
    for (const key of keys) await hb.deleteRow(NS_TABLE, key);
    expect(await hb.multiGet(NS_TABLE, keys)).toEqual([]);
  });
});

describe('protobuf on the wire (batch puts, scanner pages)', () => {
  /** The same scanner read twice by hand, once per media type: what the gateway itself answers. */
  async function scannerPage(
    accept: 'application/json' | 'application/x-protobuf',
    model: object,
  ): Promise<HBaseRow[]> {
    const created = await fetch(`${BASE_URL}/${NS_TABLE}/scanner`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(model),
    });
    await created.text();
    expect(created.status).toBe(201);
    const location = new URL(String(created.headers.get('location')));
    try {
      const page = await fetch(`${BASE_URL}${location.pathname}?n=100`, { headers: { accept } });
      expect(page.status).toBe(200);
      expect(String(page.headers.get('content-type'))).toContain(accept);
      return accept === 'application/json'
        ? parseCellSet(await page.text())
        : decodeCellSet(new Uint8Array(await page.arrayBuffer()));
    } finally {
      await (await fetch(`${BASE_URL}${location.pathname}`, { method: 'DELETE' })).text();
    }
  }
  const view = (rows: HBaseRow[]) =>
    rows.map((r) => [
      Buffer.from(r.key).toString('hex'),
      r.cells.map((c) => [Buffer.from(c.column).toString('hex'), c.timestamp, Buffer.from(c.value).toString('hex')]),
    ]);

  it('a protobuf batch put lands binary keys and values; a cell without timestamp is stamped by the region server', async () => {
    const before = Date.now();
    await hb.put(NS_TABLE, [
      {
        key: u8(0x70, 0x62, 0x00, 0xff),
        cells: [{ column: concatBytes('cf:', u8(0x00, 0x3a)), value: u8(0xfe, 0x00) }],
      },
      {
        key: 'pb:stamped',
        cells: [
          { column: 'cf:plain', value: 'x', timestamp: 1_700_000_000_123 },
          { column: 'cf:now', value: '' },
        ],
      },
    ]);
    const [binary, stamped] = await hb.multiGet(NS_TABLE, [u8(0x70, 0x62, 0x00, 0xff), 'pb:stamped']);
    expect([...binary!.cells[0]!.qualifier]).toEqual([0x00, 0x3a]);
    expect([...binary!.cells[0]!.value]).toEqual([0xfe, 0x00]);
    const ts = Object.fromEntries(stamped!.cells.map((c) => [str(c.qualifier), c.timestamp]));
    expect(ts.plain).toBe(1_700_000_000_123);
    // The server's clock, not ours: only "recent" is checked (the stack runs on this machine).
    expect(Math.abs(ts.now! - before)).toBeLessThan(60_000);
    expect(stamped!.cells.find((c) => str(c.qualifier) === 'now')!.value.byteLength).toBe(0);
  });

  it("a scanner page asked for as protobuf decodes to the rows the JSON answer holds (binary keys, the fan-out's filter)", async () => {
    await hb.put(NS_TABLE, [
      {
        key: u8(0x70, 0x62, 0x01, 0x80),
        cells: [
          { column: 'cf:t', value: '1' },
          { column: 'cf:away', value: '7' },
        ],
      },
      { key: u8(0x70, 0x62, 0x02), cells: [{ column: 'cf:t', value: '2' }] },
    ]);
    for (const filter of [undefined, JSON.stringify({ type: 'FirstKeyOnlyFilter' })]) {
      const model = {
        startRow: toBase64(u8(0x70, 0x62)),
        endRow: toBase64(u8(0x70, 0x63)),
        caching: 100,
        maxVersions: 1,
        ...(filter ? { filter } : {}),
      };
      const json = await scannerPage('application/json', model);
      const protobuf = await scannerPage('application/x-protobuf', model);
      expect(json.length).toBeGreaterThanOrEqual(3);
      expect(view(protobuf)).toEqual(view(json));
    }
  });
});

describe('server-side filters on a multi-get (filter_b64)', () => {
  // Qualifiers holding every byte the Filter Language could misread: quote, parentheses, comma,
  // space, NUL, and bytes that are not UTF-8. Ascending = the order the server keeps them in.
  const quals = [
    u8(0x00),
    u8(0x20, 0x27),
    u8(0x27, 0x27, 0x29),
    u8(0x28, 0x2c),
    u8(0x41),
    u8(0x7f, 0x27),
    u8(0x80, 0xff),
    u8(0xc3, 0x27, 0x00),
    u8(0xff, 0xfe),
  ];
  const rows = [u8(0xc3, 0x99, 0x27, 0x00), u8(0x29, 0x27, 0xff)];
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

  beforeAll(async () => {
    await hb.put(
      TABLE,
      rows.map((key) => ({
        key,
        cells: [
          ...quals.map((q) => ({ column: concatBytes('cf:', q), value: 'v' })),
          { column: 'f2:marker_a', value: '' },
          { column: 'f2:marker_b', value: '' },
          { column: 'cnt:other', value: 'x' },
        ],
      })),
    );
  });

  it('reads one family whole and a bounded key-only range of another, per row, in ONE request', async () => {
    const bound = quals[7]!; // strictly below it: quals[0..6]
    const filter = or(
      family('f2'),
      and(family('cf'), columnRange('', false, bound, false), columnPagination(4), keyOnly()),
    );
    let found: HBaseRow[] = [];
    const sent = await requestsOf(
      async () => (found = await hb.multiGet(TABLE, rows, { columns: ['f2', 'cf'], filter })),
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('filter_b64=');
    expect(found.map((r) => hex(r.key))).toEqual(rows.map(hex));
    for (const row of found) {
      expect(row.cells.filter((c) => c.family === 'f2').map((c) => str(c.qualifier))).toEqual(['marker_a', 'marker_b']);
      const cf = row.cells.filter((c) => c.family === 'cf');
      // The pagination counts only what passed the family and range before it: 4 of family cf.
      expect(cf.map((c) => hex(c.qualifier))).toEqual(quals.slice(0, 4).map(hex));
      expect(cf.every((c) => c.value.byteLength === 0)).toBe(true);
      expect(row.cells.some((c) => c.family === 'cnt')).toBe(false);
    }
  });

  it('an upper bound with quotes and non-UTF-8 bytes is read as the bytes it is', async () => {
    for (const [i, bound] of quals.entries()) {
      const row = await hb.getRow(TABLE, rows[0]!, {
        columns: ['cf'],
        filter: and(columnRange('', false, bound, false), keyOnly()),
      });
      expect(
        (row?.cells ?? []).map((c) => hex(c.qualifier)),
        hex(bound),
      ).toEqual(quals.slice(0, i).map(hex));
    }
  });
});

describe('check-and-mutate', () => {
  it('checkAndPut with value null is put-if-absent: of many racers exactly one wins', async () => {
    const racers = Array.from({ length: 6 }, (_, i) => `racer-${i}`);
    const results = await Promise.all(
      racers.map((who) =>
        hb.checkAndPut(TABLE, 'cas:claim', [{ column: 'cf:owner', value: who }], { column: 'cf:owner', value: null }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = racers[results.indexOf(true)];
    expect(cellsOf(await hb.getRow(TABLE, 'cas:claim'))).toEqual({ 'cf:owner': winner });
  });

  it('checkAndPut compares the current value: 304 -> false and nothing written, 200 -> true', async () => {
    await hb.put(TABLE, [{ key: 'cas:v', cells: [{ column: 'cf:state', value: 'draft' }] }]);
    const sent = await requestsOf(async () => {
      expect(
        await hb.checkAndPut(
          TABLE,
          'cas:v',
          [
            { column: 'cf:state', value: 'live' },
            { column: 'cf:by', value: 'x' },
          ],
          { column: 'cf:state', value: 'other' },
        ),
      ).toBe(false);
    });
    expect(sent).toEqual([expect.stringMatching(/^PUT .*\?check=put&e=b64 304$/)]);
    expect(cellsOf(await hb.getRow(TABLE, 'cas:v'))).toEqual({ 'cf:state': 'draft' });
    expect(
      await hb.checkAndPut(
        TABLE,
        'cas:v',
        [
          { column: 'cf:state', value: 'live' },
          { column: 'cf:by', value: 'x' },
        ],
        { column: 'cf:state', value: 'draft' },
      ),
    ).toBe(true);
    expect(cellsOf(await hb.getRow(TABLE, 'cas:v'))).toEqual({ 'cf:by': 'x', 'cf:state': 'live' });
  });

  it('checkAndPut refuses a put that does not write the checked column (the server would 400)', async () => {
    const sent = await requestsOf(async () => {
      await expect(
        hb.checkAndPut(TABLE, 'cas:v', [{ column: 'cf:by', value: 'y' }], { column: 'cf:state', value: 'live' }),
      ).rejects.toThrow(TypeError);
    });
    expect(sent).toEqual([]);
  });

  it('checkAndDelete is a PUT ?check=delete; a failed check is false (304) and deletes nothing', async () => {
    await hb.put(TABLE, [
      {
        key: 'cad:1',
        cells: [
          { column: 'cf:state', value: 'live' },
          { column: 'cf:other', value: 'o' },
        ],
      },
    ]);
    const sent = await requestsOf(async () =>
      expect(await hb.checkAndDelete(TABLE, 'cad:1', { column: 'cf:state', value: 'draft' })).toBe(false),
    );
    expect(sent).toEqual([expect.stringMatching(/^PUT .*\?check=delete&e=b64 304$/)]);
    expect(cellsOf(await hb.getRow(TABLE, 'cad:1'))).toEqual({ 'cf:other': 'o', 'cf:state': 'live' });
  });

  it('checkAndDelete with only the check deletes that column (all versions), not the row', async () => {
    await hb.put(TABLE, [
      {
        key: 'cad:2',
        cells: [
          { column: 'cf:state', value: 'old', timestamp: 5 },
          { column: 'cf:other', value: 'o' },
        ],
      },
      { key: 'cad:2', cells: [{ column: 'cf:state', value: 'live', timestamp: 6 }] },
    ]);
    expect(await hb.checkAndDelete(TABLE, 'cad:2', { column: 'cf:state', value: 'live' })).toBe(true);
    expect(cellsOf(await hb.getRow(TABLE, 'cad:2', { versions: 3 }))).toEqual({ 'cf:other': 'o' });
  });

  it('checkAndDelete with deleteColumns deletes exactly those (cf:q newest version, bare cf the family)', async () => {
    await hb.put(TABLE, [
      {
        key: 'cad:3',
        cells: [
          { column: 'cf:state', value: 'live' },
          { column: 'cf:b', value: 'b1', timestamp: 1 },
          { column: 'f2:x', value: 'x' },
          { column: 'f2:y', value: 'y' },
        ],
      },
      { key: 'cad:3', cells: [{ column: 'cf:b', value: 'b2', timestamp: 2 }] },
    ]);
    expect(
      await hb.checkAndDelete(TABLE, 'cad:3', { column: 'cf:state', value: 'live' }, { deleteColumns: ['cf:b', 'f2'] }),
    ).toBe(true);
    // cf:b lost only its newest version; the check column survives because it was not listed.
    expect(cellsOf(await hb.getRow(TABLE, 'cad:3'))).toEqual({ 'cf:b': 'b1', 'cf:state': 'live' });
  });

  it('(server quirk) an HTTP DELETE ignores ?check=delete and deletes unconditionally', async () => {
    await hb.put(TABLE, [{ key: 'cad:4', cells: [{ column: 'cf:state', value: 'live' }] }]);
    const res = await raw('DELETE', `/${TABLE}/${toBase64Url('cad:4')}?check=delete&e=b64`, {
      Row: [{ key: toBase64('cad:4'), Cell: [{ column: toBase64('cf:state'), $: toBase64('NOT-the-value') }] }],
    });
    expect(res.status).toBe(200);
    expect(await hb.getRow(TABLE, 'cad:4')).toBeNull();
  });
});

describe('counters and append', () => {
  it('increment (default 1, larger, negative) reads back as an 8-byte long', async () => {
    await hb.increment(TABLE, 'ctr:1', 'cnt:n');
    expect(decodeLong((await hb.getRow(TABLE, 'ctr:1'))!.cells[0]!.value)).toBe(1n);
    await hb.increment(TABLE, 'ctr:1', 'cnt:n', 41);
    await hb.increment(TABLE, 'ctr:1', 'cnt:n', -50);
    const cell = (await hb.getRow(TABLE, 'ctr:1'))!.cells[0]!;
    expect(cell.value.byteLength).toBe(8);
    expect(decodeLong(cell.value)).toBe(-8n);
    await hb.increment(TABLE, 'ctr:1', 'cnt:n', 2n ** 40n);
    expect(decodeLong((await hb.getRow(TABLE, 'ctr:1'))!.cells[0]!.value)).toBe(2n ** 40n - 8n);
  });

  it('increment of a cell that is not a long is a 503, sent once', async () => {
    await hb.put(TABLE, [{ key: 'ctr:2', cells: [{ column: 'cnt:n', value: 'abc' }] }]);
    const before = hb.requestCount;
    await expect(hb.increment(TABLE, 'ctr:2', 'cnt:n', 1)).rejects.toMatchObject({ status: 503 });
    expect(hb.requestCount - before).toBe(1);
  });

  it('append concatenates bytes, creating the cell if needed', async () => {
    await hb.append(TABLE, 'app:1', 'cf:log', 'ab');
    await hb.append(TABLE, 'app:1', 'cf:log', u8(0xff, 0x00));
    const value = (await hb.getRow(TABLE, 'app:1'))!.cells[0]!.value;
    expect(value).toEqual(u8(0x61, 0x62, 0xff, 0x00));
  });
});

describe('scan', () => {
  beforeAll(async () => {
    const rows = [];
    for (let i = 0; i < 12; i++) {
      const key = `scan:p1/${String(i).padStart(2, '0')}`;
      rows.push({
        key,
        cells: [
          { column: 'cf:a', value: `a${i}` },
          { column: 'f2:b', value: `b${i}` },
        ],
      });
    }
    rows.push({ key: 'scan:p10/00', cells: [{ column: 'cf:a', value: 'neighbour' }] });
    rows.push({ key: 'scan:p0', cells: [{ column: 'cf:a', value: 'before' }] });
    // Three versions of one column in a family that keeps three.
    for (const ts of [100, 200, 300])
      rows.push({ key: 'scan:ver', cells: [{ column: 'cf:v', value: `v${ts}`, timestamp: ts }] });
    // One wide row, to be split across pages.
    rows.push({
      key: 'scan:wide/1',
      cells: Array.from({ length: 5 }, (_, i) => ({ column: `cf:q${i}`, value: `w${i}` })),
    });
    rows.push({ key: 'scan:wide/2', cells: [{ column: 'cf:q0', value: 'x' }] });
    await hb.put(TABLE, rows);
  });

  it('refuses unbounded scans and scans without a limit, before any request', () => {
    const before = hb.requestCount;
    expect(() => hb.scan(TABLE, { limit: 10 })).toThrow(/bounded/);
    expect(() => hb.scan(TABLE, { startRow: 'a', limit: 10 })).toThrow(/bounded/);
    expect(() => hb.scan(TABLE, { prefix: 'scan:' })).toThrow(/limit/);
    expect(hb.requestCount).toBe(before);
  });

  it('scans a prefix in key order and stays inside it', async () => {
    const rows = await drain(hb.scan(TABLE, { prefix: 'scan:p1/', limit: 100 }));
    expect(rows.map((r) => str(r.key))).toEqual(
      Array.from({ length: 12 }, (_, i) => `scan:p1/${String(i).padStart(2, '0')}`),
    );
    expect(cellsOf(rows[3])).toEqual({ 'cf:a': 'a3', 'f2:b': 'b3' });
  });

  it('honours the limit across pages, asks only for what is left, and deletes the scanner', async () => {
    let rows: HBaseRow[] = [];
    const sent = await requestsOf(async () => {
      rows = await drain(hb.scan(TABLE, { prefix: 'scan:p1/', limit: 7, pageSize: 3 }));
    });
    expect(rows.map((r) => str(r.key).slice(-2))).toEqual(['00', '01', '02', '03', '04', '05', '06']);
    expect(sent.map((s) => s.replace(/\/scanner\/\w+/, '/scanner/ID'))).toEqual([
      `POST /${TABLE}/scanner 201`,
      `GET /${TABLE}/scanner/ID?n=3 200`,
      `GET /${TABLE}/scanner/ID?n=3 200`,
      `GET /${TABLE}/scanner/ID?n=1 200`,
      `DELETE /${TABLE}/scanner/ID 200`,
    ]);
  });

  it('a page holding fewer rows than asked is the last: no read for the 204', async () => {
    const sent = await requestsOf(async () => {
      expect(await drain(hb.scan(TABLE, { prefix: 'scan:p1/', limit: 100, pageSize: 20 }))).toHaveLength(12);
    });
    expect(sent.map((s) => s.replace(/\/scanner\/\w+/, '/scanner/ID'))).toEqual([
      `POST /${TABLE}/scanner 201`,
      `GET /${TABLE}/scanner/ID?n=20 200`,
      `DELETE /${TABLE}/scanner/ID 200`,
    ]);
  });

  it("hands the scanner's delete off when asked, so the rows arrive before it ends; it still ends", async () => {
    const handedOff: Promise<void>[] = [];
    const seen: HBaseRequestEvent[] = [];
    const client = new HBaseRestClient({
      baseUrl: BASE_URL,
      timeoutMs: 30_000,
      handOff: (work) => {
        handedOff.push(work);
        return true;
      },
      onRequest: (e) => seen.push(e),
    });
    const rows = await drain(client.scan(TABLE, { prefix: 'scan:p1/', limit: 3, pageSize: 3 }));
    expect(rows).toHaveLength(3);
    expect(handedOff).toHaveLength(1);
    await Promise.all(handedOff);
    expect(seen.map((e) => e.method)).toEqual(['POST', 'GET', 'DELETE']);
    // Reported as background work: Server-Timing's round trips do not chain through it.
    expect(seen.map((e) => e.background ?? false)).toEqual([false, false, true]);
    expect((await raw('GET', seen[2]!.path)).status).toBe(404);
    await client.close();
  });

  it('scans a [startRow, stopRow) range', async () => {
    const rows = await drain(hb.scan(TABLE, { startRow: 'scan:p1/03', stopRow: 'scan:p1/06', limit: 100 }));
    expect(rows.map((r) => str(r.key))).toEqual(['scan:p1/03', 'scan:p1/04', 'scan:p1/05']);
  });

  it('returns one version by default even when the family keeps three', async () => {
    const [row] = await drain(hb.scan(TABLE, { prefix: 'scan:ver', limit: 1 }));
    expect(row?.cells.map((c) => str(c.value))).toEqual(['v300']);
    const [all] = await drain(hb.scan(TABLE, { prefix: 'scan:ver', limit: 1, maxVersions: 3 }));
    expect(all?.cells.map((c) => str(c.value))).toEqual(['v300', 'v200', 'v100']);
  });

  it('merges a row split across pages by a tiny cells-per-page budget', async () => {
    let rows: HBaseRow[] = [];
    const sent = await requestsOf(async () => {
      rows = await drain(hb.scan(TABLE, { prefix: 'scan:wide/', limit: 10, cellsPerPage: 2 }));
    });
    expect(rows.map((r) => str(r.key))).toEqual(['scan:wide/1', 'scan:wide/2']);
    expect(rows[0]?.cells.map((c) => str(c.value))).toEqual(['w0', 'w1', 'w2', 'w3', 'w4']);
    // Proof the server really split it: 6 cells at 2 per page is at least 3 page reads.
    expect(sent.filter((s) => s.startsWith('GET ') && s.endsWith(' 200')).length).toBeGreaterThanOrEqual(3);
    expect(sent.at(-1)).toMatch(/^DELETE .*\/scanner\/\w+ 200$/);
  });

  it('deletes the scanner after an early break (the server then no longer knows it)', async () => {
    const before = events.length;
    for await (const row of hb.scan(TABLE, { prefix: 'scan:p1/', limit: 100, pageSize: 5 })) {
      expect(str(row.key)).toBe('scan:p1/00');
      break;
    }
    const seen = events.slice(before);
    expect(seen.map((e) => e.method)).toEqual(['POST', 'GET', 'DELETE']);
    const del = seen[2]!;
    expect(del).toMatchObject({ status: 200 });
    expect(del.path).toMatch(new RegExp(`^/${TABLE}/scanner/\\w+$`));
    expect((await raw('GET', del.path)).status).toBe(404);
  });

  it('narrows by columns and applies scanner filters', async () => {
    const rows = await drain(hb.scan(TABLE, { prefix: 'scan:p1/', limit: 2, columns: ['f2'] }));
    expect(rows.map(cellsOf)).toEqual([{ 'f2:b': 'b0' }, { 'f2:b': 'b1' }]);
    const keyOnly = await drain(
      hb.scan(TABLE, { prefix: 'scan:p1/', limit: 2, columns: ['cf:a'], filter: { type: 'KeyOnlyFilter' } }),
    );
    expect(keyOnly.map((r) => r.cells.map((c) => c.value.byteLength))).toEqual([[0], [0]]);
    const valueFilter = {
      type: 'ValueFilter',
      op: 'EQUAL',
      comparator: { type: 'BinaryComparator', value: toBase64('a7') },
    };
    const matched = await drain(hb.scan(TABLE, { prefix: 'scan:p1/', limit: 10, filter: valueFilter }));
    expect(matched.map((r) => str(r.key))).toEqual(['scan:p1/07']);
  });

  it('a scan of a missing table fails with 404 and still deletes its scanner', async () => {
    const before = events.length;
    await expect(drain(hb.scan(MISSING_TABLE, { prefix: 'x', limit: 1 }))).rejects.toMatchObject({ status: 404 });
    expect(events.slice(before).map((e) => `${e.method} ${e.status}`)).toEqual(['POST 201', 'GET 404', 'DELETE 200']);
  });
});

describe('bookkeeping', () => {
  it('onRequest saw exactly as many requests as requestCount counted', () => {
    expect(events.length).toBe(hb.requestCount);
  });
});
