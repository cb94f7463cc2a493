// test/unit/hbase-codec.test.ts — the HBase client's byte codec: UTF-8, base64 flavours, longs, key ranges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesEqual,
  bytesToString,
  compareBytes,
  concatBytes,
  decodeLong,
  encodeLong,
  fromBase64,
  fromBase64Url,
  prefixEnd,
  toBase64,
  toBase64Url,
  toBytes,
} from '../../shared/hbase/codec.js';

const u8 = (...b: number[]) => new Uint8Array(b);

describe('toBytes / bytesToString', () => {
  it('treats a string as its UTF-8 bytes', () => {
    expect(toBytes('é/日')).toEqual(u8(0xc3, 0xa9, 0x2f, 0xe6, 0x97, 0xa5));
    expect(bytesToString(u8(0xc3, 0xa9))).toBe('é');
  });

  it('passes bytes through untouched', () => {
    const b = u8(0xff, 0x00, 0x80);
    expect(toBytes(b)).toBe(b);
  });
});

describe('base64', () => {
  it('body encoding is standard and padded, as Jackson writes byte[]', () => {
    expect(toBase64('cf:a')).toBe('Y2Y6YQ==');
    expect(toBase64(u8(0xfb, 0xff))).toBe('+/8=');
    expect(fromBase64('+/8=')).toEqual(u8(0xfb, 0xff));
  });

  it('rejects malformed base64 instead of guessing', () => {
    expect(() => fromBase64('a b')).toThrow(TypeError);
    expect(() => fromBase64('abc')).toThrow(TypeError);
    expect(() => fromBase64('-_8=')).toThrow(TypeError);
  });

  it('URL encoding is base64url and keeps its padding', () => {
    expect(toBase64Url(u8(0xfb, 0xff))).toBe('-_8=');
    expect(toBase64Url('row1')).toBe('cm93MQ==');
    expect(toBase64Url('abc')).toBe('YWJj');
  });

  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        expect(fromBase64(toBase64(b))).toEqual(b);
        expect(fromBase64Url(toBase64Url(b))).toEqual(b);
        expect(toBase64Url(b).length % 4).toBe(0);
      }),
    );
  });

  it('hands out plain Uint8Arrays, not Buffers', () => {
    expect(Object.getPrototypeOf(fromBase64('YQ=='))).toBe(Uint8Array.prototype);
  });
});

describe('longs (HBase counters)', () => {
  it('decodes 8-byte big-endian signed values', () => {
    expect(decodeLong(fromBase64('AAAAAAAAAAE='))).toBe(1n);
    expect(decodeLong(u8(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe))).toBe(-2n);
    expect(decodeLong(u8(0x80, 0, 0, 0, 0, 0, 0, 0))).toBe(-(2n ** 63n));
  });

  it('round-trips through encodeLong', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
        expect(decodeLong(encodeLong(n))).toBe(n);
      }),
    );
  });

  it('refuses anything but 8 bytes', () => {
    expect(() => decodeLong(u8(1, 2, 3))).toThrow(RangeError);
  });

  it('reads a long from a view into a larger buffer', () => {
    const big = u8(9, 0, 0, 0, 0, 0, 0, 0, 7, 9);
    expect(decodeLong(big.subarray(1, 9))).toBe(7n);
  });
});

describe('key ranges', () => {
  it('prefixEnd increments the last byte that can be incremented', () => {
    expect(prefixEnd('abc')).toEqual(toBytes('abd'));
    expect(prefixEnd(u8(0x61, 0xff, 0xff))).toEqual(u8(0x62));
    expect(prefixEnd(u8(0xff, 0xff))).toBeNull();
    expect(prefixEnd('')).toBeNull();
  });

  it('prefixEnd bounds exactly the keys with the prefix', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 6 }), fc.uint8Array({ maxLength: 6 }), (prefix, rest) => {
        const end = prefixEnd(prefix);
        const key = concatBytes(prefix, rest);
        if (end !== null) expect(compareBytes(key, end)).toBeLessThan(0);
      }),
    );
  });

  it('compares unsigned, like HBase', () => {
    expect(compareBytes(u8(0x7f), u8(0x80))).toBeLessThan(0);
    expect(compareBytes(u8(1, 2), u8(1))).toBeGreaterThan(0);
    expect(bytesEqual(u8(1, 2), toBytes('\x01\x02'))).toBe(true);
    expect(bytesEqual(u8(1), u8(1, 0))).toBe(false);
  });
});
