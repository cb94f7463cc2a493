// test/unit/hbase-rows.test.ts — CellSet JSON mapping and scanner row stitching, with a scripted transport (no network).
import { describe, expect, it } from 'vitest';
import { mergePage, parseCellSet } from '../../shared/hbase/cellset.js';
import { bytesToString, toBase64 } from '../../shared/hbase/codec.js';
import { HBaseError } from '../../shared/hbase/hbase-error.js';
import { decodeCellSet, encodeCellSet } from '../../shared/hbase/protobuf.js';
import { HBaseScanner, planScan } from '../../shared/hbase/scanner.js';
import type { RestRequest, RestResponse } from '../../shared/hbase/transport.js';
import type { HBaseRow, ScanOptions } from '../../shared/hbase/types.js';
import { parseTableSchema, schemaJson } from '../../shared/hbase/hbase-client.js';

const b64 = (s: string) => toBase64(s);
const cellJson = (col: string, val: string, ts = 1) => ({ column: b64(col), timestamp: ts, $: b64(val) });
/** A scanner page as the gateway sends it (protobuf, the scanner's Accept). */
const page = (...rows: Array<[string, Array<[string, string]>]>) =>
  encodeCellSet(
    rows.map(([key, cells]) => ({ key, cells: cells.map(([column, value]) => ({ column, value, timestamp: 1 })) })),
  );
const keys = (rows: HBaseRow[]) => rows.map((r) => bytesToString(r.key));
const quals = (row: HBaseRow | undefined) => row?.cells.map((c) => bytesToString(c.qualifier));

describe('parseCellSet', () => {
  it('splits the column at the first colon only', () => {
    const [row] = parseCellSet(JSON.stringify({ Row: [{ key: b64('r'), Cell: [cellJson('cf:a:b', 'v', 7)] }] }));
    expect(row?.cells[0]).toMatchObject({ family: 'cf', timestamp: 7 });
    expect(bytesToString(row!.cells[0]!.qualifier)).toBe('a:b');
    expect(bytesToString(row!.cells[0]!.column)).toBe('cf:a:b');
    expect(bytesToString(row!.cells[0]!.value)).toBe('v');
  });

  it('reads binary keys and empty values', () => {
    const [row] = parseCellSet(
      JSON.stringify({ Row: [{ key: '/wCA', Cell: [{ column: b64('cf:'), timestamp: 1, $: '' }] }] }),
    );
    expect(row?.key).toEqual(new Uint8Array([0xff, 0x00, 0x80]));
    expect(row?.cells[0]?.qualifier).toEqual(new Uint8Array());
    expect(row?.cells[0]?.value).toEqual(new Uint8Array());
  });

  it('treats a body without rows as no rows', () => {
    expect(parseCellSet('{}')).toEqual([]);
  });
});

describe('encodeCellSet (batch put body)', () => {
  it('writes raw bytes, keeps explicit timestamps and leaves others to the server', () => {
    // CellSet{Row{key 'r', Cell{column 'cf:a', timestamp 5, data 'v'}, Cell{column 'cf:', data ''}}}
    expect(
      Buffer.from(
        encodeCellSet([
          {
            key: 'r',
            cells: [
              { column: 'cf:a', value: 'v', timestamp: 5 },
              { column: 'cf:', value: '' },
            ],
          },
        ]),
      ).toString('hex'),
    ).toBe('0a19' + '0a0172' + '120b' + '1204' + '63663a61' + '1805' + '220176' + '1207' + '120363663a' + '2200');
  });

  it('refuses bare families, empty keys and rows without cells (the server would 400)', () => {
    expect(() => encodeCellSet([{ key: 'r', cells: [{ column: 'cf', value: 'v' }] }])).toThrow(TypeError);
    expect(() => encodeCellSet([{ key: 'r', cells: [{ column: ':q', value: 'v' }] }])).toThrow(TypeError);
    expect(() => encodeCellSet([{ key: '', cells: [{ column: 'cf:a', value: 'v' }] }])).toThrow(TypeError);
    expect(() => encodeCellSet([{ key: 'r', cells: [] }])).toThrow(TypeError);
  });
});

describe('mergePage', () => {
  it('joins a row that continues on the next page', () => {
    const rows: HBaseRow[] = [];
    mergePage(rows, decodeCellSet(page(['a', [['cf:1', 'x']]], ['b', [['cf:1', 'x']]])));
    mergePage(rows, decodeCellSet(page(['b', [['cf:2', 'y']]], ['c', [['cf:1', 'z']]])));
    expect(keys(rows)).toEqual(['a', 'b', 'c']);
    expect(quals(rows[1])).toEqual(['1', '2']);
  });
});

describe('planScan', () => {
  it('demands a key range and a limit', () => {
    expect(() => planScan({ limit: 10 })).toThrow(/bounded/);
    expect(() => planScan({ startRow: 'a', limit: 10 })).toThrow(/bounded/);
    expect(() => planScan({ prefix: 'a' })).toThrow(/limit/);
    expect(() => planScan({ prefix: '', limit: 1 })).toThrow(TypeError);
    expect(() => planScan({ prefix: 'a', limit: 0 })).toThrow(RangeError);
    expect(() => planScan({ prefix: 'a', limit: 1, pageSize: 1.5 })).toThrow(RangeError);
  });

  it('builds a ScannerModel a 2.x server accepts, one version by default', () => {
    const { model } = planScan({ prefix: 'ab', limit: 500, pageSize: 50, columns: ['cf'] });
    expect(model).toEqual({ startRow: b64('ab'), endRow: b64('ac'), caching: 50, maxVersions: 1, column: [b64('cf')] });
    expect(model).not.toHaveProperty('limit');
    expect(model).not.toHaveProperty('reversed');
  });

  it('passes cellsPerPage as batch and the filter as a JSON string', () => {
    const { model } = planScan({
      startRow: 'a',
      stopRow: 'b',
      limit: 3,
      cellsPerPage: 2,
      maxVersions: 3,
      filter: { type: 'KeyOnlyFilter' },
    });
    expect(model).toMatchObject({ batch: 2, maxVersions: 3, caching: 3, filter: '{"type":"KeyOnlyFilter"}' });
  });

  it('narrows a prefix by a tighter stopRow, and adds a PrefixFilter when the prefix has no end key', () => {
    expect(planScan({ prefix: 'ab', stopRow: 'aa~', limit: 1 }).model.endRow).toBe(b64('aa~'));
    expect(planScan({ prefix: 'ab', startRow: 'ab5', limit: 1 }).model).toMatchObject({
      startRow: b64('ab5'),
      endRow: b64('ac'),
    });
    const { model } = planScan({ prefix: new Uint8Array([0xff]), limit: 1, filter: { type: 'KeyOnlyFilter' } });
    expect(model.endRow).toBe('');
    expect(JSON.parse(model.filter!)).toEqual({
      type: 'FilterList',
      op: 'MUST_PASS_ALL',
      filters: [{ type: 'PrefixFilter', value: '/w==' }, { type: 'KeyOnlyFilter' }],
    });
  });

  it('marks an empty range so no scanner is opened', () => {
    expect(planScan({ startRow: 'b', stopRow: 'a', limit: 1 }).empty).toBe(true);
    expect(planScan({ startRow: 'a', stopRow: 'b', limit: 1 }).empty).toBe(false);
  });
});

/** A scripted gateway: answers scanner create, then the given pages, then 204; records calls. */
function scriptedTransport(pages: Array<Uint8Array | HBaseError>) {
  const calls: string[] = [];
  let next = 0;
  const respond = (
    req: RestRequest,
    status: number,
    body = '',
    headers: RestResponse['headers'] = {},
  ): RestResponse => ({
    status,
    body,
    headers,
    method: req.method,
    sentPath: req.path,
  });
  return {
    calls,
    async expect(req: RestRequest, ok: readonly number[]): Promise<RestResponse> {
      calls.push(`${req.method} ${req.path}`);
      let res: RestResponse;
      if (req.method === 'POST') res = respond(req, 201, '', { location: 'http://internal:8080/t/scanner/abc123' });
      else if (req.method === 'DELETE') res = respond(req, 200);
      else {
        const p = pages[next++];
        if (p instanceof HBaseError) throw p;
        res = p === undefined ? respond(req, 204) : { ...respond(req, 200), bytes: p };
      }
      if (!ok.includes(res.status))
        throw new HBaseError({ status: res.status, body: res.body, method: req.method, path: req.path });
      return res;
    },
  };
}

async function collect(pages: Array<Uint8Array | HBaseError>, opts: ScanOptions, stopAfter = Infinity) {
  const transport = scriptedTransport(pages);
  const rows: HBaseRow[] = [];
  for await (const row of new HBaseScanner(transport, 't', planScan(opts))) {
    rows.push(row);
    if (rows.length >= stopAfter) break;
  }
  return { rows, calls: transport.calls };
}

describe('HBaseScanner', () => {
  it('stitches rows split by the cells-per-page budget and deletes the scanner at the end', async () => {
    const { rows, calls } = await collect(
      [
        page([
          'a',
          [
            ['cf:1', 'x'],
            ['cf:2', 'x'],
          ],
        ]),
        page(['a', [['cf:3', 'x']]], ['b', [['cf:1', 'x']]]),
      ],
      { prefix: 'x', limit: 10, cellsPerPage: 2 },
    );
    expect(keys(rows)).toEqual(['a', 'b']);
    expect(quals(rows[0])).toEqual(['1', '2', '3']);
    expect(calls).toEqual([
      'POST /t/scanner',
      'GET /t/scanner/abc123?n=10',
      'GET /t/scanner/abc123?n=10',
      'GET /t/scanner/abc123?n=9',
      'DELETE /t/scanner/abc123',
    ]);
  });

  it('yields whole-row pages at once and asks only for the rows still needed', async () => {
    const { rows, calls } = await collect(
      [page(['a', [['cf:1', 'x']]], ['b', [['cf:1', 'x']]]), page(['c', [['cf:1', 'x']]])],
      { prefix: 'x', limit: 3, pageSize: 2 },
    );
    expect(keys(rows)).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual([
      'POST /t/scanner',
      'GET /t/scanner/abc123?n=2',
      'GET /t/scanner/abc123?n=1',
      'DELETE /t/scanner/abc123',
    ]);
  });

  it('stops at the limit even when a page holds more rows', async () => {
    const { rows, calls } = await collect(
      [page(['a', [['cf:1', 'x']]], ['b', [['cf:1', 'x']]], ['c', [['cf:1', 'x']]])],
      {
        prefix: 'x',
        limit: 2,
        cellsPerPage: 1,
      },
    );
    expect(keys(rows)).toEqual(['a', 'b']);
    expect(calls.at(-1)).toBe('DELETE /t/scanner/abc123');
  });

  it('deletes the scanner when the consumer breaks early', async () => {
    const { rows, calls } = await collect(
      [page(['a', [['cf:1', 'x']]], ['b', [['cf:1', 'x']]])],
      { prefix: 'x', limit: 10 },
      1,
    );
    expect(keys(rows)).toEqual(['a']);
    expect(calls).toEqual(['POST /t/scanner', 'GET /t/scanner/abc123?n=10', 'DELETE /t/scanner/abc123']);
  });

  it('deletes the scanner when a page read fails, and rethrows that failure', async () => {
    const gone = new HBaseError({ status: 410, body: 'Gone', method: 'GET', path: '/t/scanner/abc123' });
    const transport = scriptedTransport([gone]);
    const drain = async () => {
      for await (const row of new HBaseScanner(transport, 't', planScan({ prefix: 'x', limit: 1 }))) void row;
    };
    await expect(drain()).rejects.toBe(gone);
    expect(transport.calls).toEqual(['POST /t/scanner', 'GET /t/scanner/abc123?n=1', 'DELETE /t/scanner/abc123']);
  });

  it('opens no scanner for an empty range', async () => {
    const { rows, calls } = await collect([], { startRow: 'b', stopRow: 'a', limit: 5 });
    expect(rows).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe('table schema JSON', () => {
  it('puts families under ColumnSchema and table attributes at the top level', () => {
    expect(
      schemaJson('ns:t', {
        columnFamilies: [{ name: 'cf', VERSIONS: 3, IN_MEMORY: true }],
        attributes: { OWNER: 'x' },
      }),
    ).toEqual({
      name: 'ns:t',
      ColumnSchema: [{ name: 'cf', VERSIONS: 3, IN_MEMORY: true }],
      OWNER: 'x',
    });
    expect(() => schemaJson('t', { columnFamilies: [] })).toThrow(TypeError);
    expect(() => schemaJson('t', { columnFamilies: [{ name: 'a:b' }] })).toThrow(TypeError);
    expect(() => schemaJson('t', { columnFamilies: [{ name: 'a' }], attributes: { ColumnSchema: 'x' } })).toThrow(
      TypeError,
    );
  });

  it('reads the server description back', () => {
    const schema = parseTableSchema(
      '{"name":"t","ColumnSchema":[{"name":"cf","VERSIONS":"3"}],"IS_META":"false","X":"y"}',
    );
    expect(schema).toEqual({
      columnFamilies: [{ name: 'cf', VERSIONS: '3' }],
      attributes: { IS_META: 'false', X: 'y' },
    });
  });
});
