// test/integration/hbase-delete-columns.test.ts — HBaseRestClient.deleteColumns against the real
// gateway: several columns (and a timestamp) in one DELETE do what RowSpec promises.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  HBaseRestClient,
  bytesToString,
  concatBytes,
  type HBaseRequestEvent,
  type HBaseRow,
} from '../../shared/hbase/index.js';

const url = inject('hbaseRestUrl');
const TABLE = `it_delcols_${randomBytes(4).toString('hex')}`;
const events: HBaseRequestEvent[] = [];
const hb = new HBaseRestClient({ baseUrl: url, timeoutMs: 60_000, onRequest: (e) => events.push(e) });

/** column -> values of every stored version, newest first. */
const versionsOf = (row: HBaseRow | null): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const c of row?.cells ?? []) {
    const column = bytesToString(c.column);
    const values = out[column] ?? [];
    values.push(bytesToString(c.value));
    out[column] = values;
  }
  return out;
};

async function sent(fn: () => Promise<unknown>): Promise<HBaseRequestEvent[]> {
  const before = events.length;
  await fn();
  return events.slice(before);
}

beforeAll(async () => {
  await hb.createTable(TABLE, {
    columnFamilies: [
      { name: 'cf', VERSIONS: 5 },
      { name: 'g', VERSIONS: 5 },
    ],
  });
});

afterAll(async () => {
  await hb.deleteTable(TABLE);
  await hb.close();
});

describe('deleteColumns', () => {
  it('with upToTimestamp: one DELETE removes, in each listed column, every version <= TS and keeps newer ones', async () => {
    const versions = (col: string) =>
      [100, 200, 300].map((ts) => ({ column: col, value: `${col}@${ts}`, timestamp: ts }));
    await hb.put(TABLE, [
      { key: 'r1', cells: versions('cf:a') },
      { key: 'r1', cells: versions('cf:b') },
      { key: 'r1', cells: versions('g:c') },
      { key: 'r1', cells: versions('cf:untouched') },
    ]);
    const requests = await sent(() => hb.deleteColumns(TABLE, 'r1', ['cf:a', 'cf:b', 'g:c'], { upToTimestamp: 200 }));
    expect(requests.map((e) => `${e.method} ${e.status}`)).toEqual(['DELETE 200']);
    // /<row>/<col>,<col>,<col>/200 — three columns and the timestamp in one path.
    expect(requests[0]?.path).toMatch(/^\/it_delcols_[0-9a-f]+\/[^/]+\/[^/,]+,[^/,]+,[^/,]+\/200\?e=b64$/);
    expect(versionsOf(await hb.getRow(TABLE, 'r1', { versions: 5 }))).toEqual({
      'cf:a': ['cf:a@300'],
      'cf:b': ['cf:b@300'],
      'cf:untouched': ['cf:untouched@300', 'cf:untouched@200', 'cf:untouched@100'],
      'g:c': ['g:c@300'],
    });
  });

  it('the timestamp bound is inclusive and a later write at a newer timestamp stays visible', async () => {
    await hb.put(TABLE, [
      {
        key: 'r2',
        cells: [
          { column: 'cf:x', value: 'old', timestamp: 1_000 },
          { column: 'cf:y', value: 'old', timestamp: 999 },
        ],
      },
    ]);
    await hb.deleteColumns(TABLE, 'r2', ['cf:x', 'cf:y'], { upToTimestamp: 1_000 });
    expect(await hb.getRow(TABLE, 'r2')).toBeNull();
    // The delete marker covers <= 1000 only: a re-write (server time, now) is not masked.
    await hb.put(TABLE, [{ key: 'r2', cells: [{ column: 'cf:x', value: 'new' }] }]);
    expect(versionsOf(await hb.getRow(TABLE, 'r2'))).toEqual({ 'cf:x': ['new'] });
    // ...while a re-write at or below the marker's timestamp is (HBASE-3300, why we never write old timestamps).
    await hb.put(TABLE, [{ key: 'r2', cells: [{ column: 'cf:y', value: 'masked', timestamp: 1_000 }] }]);
    expect(versionsOf(await hb.getRow(TABLE, 'r2'))).toEqual({ 'cf:x': ['new'] });
  });

  it('without a timestamp removes every version of every listed column', async () => {
    await hb.put(TABLE, [
      {
        key: 'r3',
        cells: [
          { column: 'cf:a', value: 'a1', timestamp: 1 },
          { column: 'cf:b', value: 'b' },
          { column: 'g:k', value: 'kept' },
        ],
      },
      { key: 'r3', cells: [{ column: 'cf:a', value: 'a2' }] },
    ]);
    const requests = await sent(() => hb.deleteColumns(TABLE, 'r3', ['cf:a', 'cf:b']));
    expect(requests).toHaveLength(1);
    expect(versionsOf(await hb.getRow(TABLE, 'r3', { versions: 5 }))).toEqual({ 'g:k': ['kept'] });
  });

  it('binary qualifiers with bytes special to RowSpec (, / * + % 0x00 0xff) are deleted exactly', async () => {
    const specials = [',', '/', '*', '+', '%', '\u0000', 'multiget'].map((s, i) =>
      concatBytes('cf:', Uint8Array.of(i, 0xff), s),
    );
    const kept = concatBytes('cf:', Uint8Array.of(9, 0xff), ',');
    await hb.put(TABLE, [{ key: 'r4', cells: [...specials, kept].map((column) => ({ column, value: 'v' })) }]);
    await hb.deleteColumns(TABLE, 'r4', specials);
    const row = await hb.getRow(TABLE, 'r4');
    expect(row?.cells.map((c) => Buffer.from(c.column).toString('hex'))).toEqual([Buffer.from(kept).toString('hex')]);
  });

  it('splits a long column list into several DELETEs, each URL far below 64 KiB, and deletes them all', async () => {
    const columns = Array.from({ length: 600 }, (_, i) => `cf:${String(i).padStart(4, '0')}-${'q'.repeat(60)}`);
    await hb.put(TABLE, [{ key: 'r5', cells: [...columns, 'cf:zz-kept'].map((column) => ({ column, value: 'v' })) }]);
    const requests = await sent(() => hb.deleteColumns(TABLE, 'r5', columns, { upToTimestamp: Date.now() + 60_000 }));
    expect(requests.length).toBeGreaterThan(1);
    for (const r of requests) {
      expect(r.method).toBe('DELETE');
      expect(r.status).toBe(200);
      expect(r.path.length).toBeLessThan(9_000);
    }
    expect(versionsOf(await hb.getRow(TABLE, 'r5'))).toEqual({ 'cf:zz-kept': ['v'] });
  });

  it('sends nothing for no columns and refuses bare families or bad timestamps before any request', async () => {
    expect(await sent(() => hb.deleteColumns(TABLE, 'r6', []))).toEqual([]);
    const before = hb.requestCount;
    await expect(hb.deleteColumns(TABLE, 'r6', ['cf:a', 'cf'])).rejects.toThrow(TypeError);
    await expect(hb.deleteColumns(TABLE, 'r6', ['cf:a'], { upToTimestamp: -1 })).rejects.toThrow(RangeError);
    expect(hb.requestCount).toBe(before);
  });
});
