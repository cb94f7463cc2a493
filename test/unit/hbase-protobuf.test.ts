// test/unit/hbase-protobuf.test.ts — the client's protobuf CellSet codec (shared/hbase/protobuf.ts) against bytes the real gateway sent.
import { describe, expect, it } from 'vitest';
import { parseCellSet } from '../../shared/hbase/cellset.js';
import { bytesToString } from '../../shared/hbase/codec.js';
import { decodeCellSet, encodeCellSet } from '../../shared/hbase/protobuf.js';

/**
 * Recorded from the HBase 2.6.1 REST gateway: a scanner page (Accept: application/x-protobuf,
 * `?n=10`) over rows r00000..r00004 of family `e` with FirstKeyOnlyFilter, the fan-out's scan
 * shape — r00003 answers its `e:away` cell, the others `e:t`. JSON is the same page asked for
 * as application/json.
 */
const GATEWAY_PAGE_HEX =
  '0a250a06723030303030121b1203653a7418f0d9e0faa034220d31373030303030303030303030' +
  '0a250a06723030303031121b1203653a7418f0d9e0faa034220d31373030303030303030303031' +
  '0a250a06723030303032121b1203653a7418f0d9e0faa034220d31373030303030303030303032' +
  '0a1d0a0672303030303312131206653a6177617918b8dae0faa034220231370a250a06723030303034121b1203653a7418f0d9e0faa034220d31373030303030303030303034';
const GATEWAY_PAGE_JSON =
  '{"Row":[{"key":"cjAwMDAw","Cell":[{"column":"ZTp0","timestamp":1795553766640,"$":"MTcwMDAwMDAwMDAwMA=="}]},' +
  '{"key":"cjAwMDAx","Cell":[{"column":"ZTp0","timestamp":1795553766640,"$":"MTcwMDAwMDAwMDAwMQ=="}]},' +
  '{"key":"cjAwMDAy","Cell":[{"column":"ZTp0","timestamp":1795553766640,"$":"MTcwMDAwMDAwMDAwMg=="}]},' +
  '{"key":"cjAwMDAz","Cell":[{"column":"ZTphd2F5","timestamp":1795553766712,"$":"MTc="}]},' +
  '{"key":"cjAwMDA0","Cell":[{"column":"ZTp0","timestamp":1795553766640,"$":"MTcwMDAwMDAwMDAwNA=="}]}]}';

const hex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
/** Plain arrays, so rows decoded from views and from copies compare equal. */
const plain = (rows: ReturnType<typeof decodeCellSet>) =>
  rows.map((r) => ({
    key: [...r.key],
    cells: r.cells.map((c) => ({ ...c, column: [...c.column], qualifier: [...c.qualifier], value: [...c.value] })),
  }));

describe('decodeCellSet', () => {
  it('reads a page the gateway sent exactly as the JSON of the same page', () => {
    const rows = decodeCellSet(hex(GATEWAY_PAGE_HEX));
    expect(rows.map((r) => bytesToString(r.key))).toEqual(['r00000', 'r00001', 'r00002', 'r00003', 'r00004']);
    expect(
      rows[3]!.cells.map((c) => [c.family, bytesToString(c.qualifier), bytesToString(c.value), c.timestamp]),
    ).toEqual([['e', 'away', '17', 1795553766712]]);
    expect(plain(rows)).toEqual(plain(parseCellSet(GATEWAY_PAGE_JSON)));
  });

  it('reads an empty body as no rows', () => {
    expect(decodeCellSet(new Uint8Array(0))).toEqual([]);
  });

  it('skips fields it does not know, of every wire type', () => {
    // Row{key 'k', field 9 varint 1, Cell{field 7 fixed32, column 'f:q', field 8 fixed64, data 'v'}}, then a CellSet field 5 (LEN).
    const cell = '0d01020304' + '1203663a71' + '090102030405060708' + '220176';
    const length = (bytes: string) => (bytes.length / 2).toString(16).padStart(2, '0');
    const row = ['0a016b', '4801', '12', length(cell), cell].join('');
    const rows = decodeCellSet(hex(['0a', length(row), row, '2a0178'].join('')));
    expect(
      rows.map((r) => [
        bytesToString(r.key),
        r.cells.map((c) => `${c.family}:${bytesToString(c.qualifier)}=${bytesToString(c.value)}`),
      ]),
    ).toEqual([['k', ['f:q=v']]]);
  });

  it('refuses truncated or malformed bytes instead of guessing', () => {
    const good = hex(GATEWAY_PAGE_HEX);
    expect(() => decodeCellSet(good.subarray(0, good.byteLength - 3))).toThrow(RangeError);
    expect(() => decodeCellSet(hex('0aff'))).toThrow(RangeError); // unterminated varint
    expect(() => decodeCellSet(hex('0a021203'))).toThrow(RangeError); // a cell longer than its row
    expect(() => decodeCellSet(hex('0a00'))).toThrow(TypeError); // a row without key
  });
});

describe('encodeCellSet → decodeCellSet', () => {
  it('round-trips binary keys, qualifiers and values, and timestamps past 2^32', () => {
    const key = Uint8Array.of(0x00, 0xff, 0x3a, 0x80, 0x0a);
    const value = new Uint8Array(300).map((_, i) => i % 256); // a length that takes a 2-byte varint
    const [row] = decodeCellSet(
      encodeCellSet([
        { key, cells: [{ column: Uint8Array.of(0x69, 0x3a, 0x00, 0xfe), value, timestamp: 1_795_553_766_640 }] },
      ]),
    );
    expect([...row!.key]).toEqual([...key]);
    expect(row!.cells[0]!.family).toBe('i');
    expect([...row!.cells[0]!.qualifier]).toEqual([0x00, 0xfe]);
    expect([...row!.cells[0]!.value]).toEqual([...value]);
    expect(row!.cells[0]!.timestamp).toBe(1_795_553_766_640);
  });
});
