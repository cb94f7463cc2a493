// test/unit/hbase-url.test.ts — the HBase client's URL builder: table names, binary-safe segments, routing collisions, queries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBytes } from '../../shared/hbase/codec.js';
import {
  buildQuery,
  chunkRowSpecs,
  encodedSegment,
  multigetRowSpec,
  rowPath,
  scannerPathFromLocation,
  tablePath,
  validateTableName,
} from '../../shared/hbase/url.js';

const u8 = (...b: number[]) => new Uint8Array(b);

// How the server reads a segment under ?e=b64: URL-decode, then base64url-decode.
const serverDecode = (segment: string) => fromBase64Url(decodeURIComponent(segment));

// The routes of TableResource that a row segment must not match (A1).
const collides = (segment: string) =>
  ['exists', 'regions', 'schema', 'scanner'].includes(segment) || /^multiget/.test(segment) || segment.includes('*');

describe('table names', () => {
  it.each(['users', 'ns:users', 'a.b-c_d', '_x', 'default:version', 'T1'])('accepts %s', (name) => {
    expect(() => validateTableName(name)).not.toThrow();
  });

  it.each(['', 'a/b', 'a b', '.hidden', '-x', 'ns:', ':t', 'a:b:c', 'ns-x:t', 'é', 'a%2F', 't?x', '..'])(
    'rejects %j',
    (name) => {
      expect(() => validateTableName(name)).toThrow(TypeError);
    },
  );

  it('routes names that RootResource owns through the default namespace', () => {
    expect(tablePath('version')).toBe('/default:version');
    expect(tablePath('status')).toBe('/default:status');
    expect(tablePath('namespaces')).toBe('/default:namespaces');
    expect(tablePath('users')).toBe('/users');
    expect(tablePath('ns:version')).toBe('/ns:version');
  });
});

describe('row segments', () => {
  it('are padded base64url', () => {
    expect(encodedSegment(toBytes('row1'))).toBe('cm93MQ==');
    expect(encodedSegment(u8(0xff, 0x00, 0x80))).toBe('_wCA');
    expect(encodedSegment(toBytes('a/b+c*'))).toBe('YS9iK2Mq');
  });

  it('escape the first character of a segment that would start with "multiget"', () => {
    const key = fromBase64Url('multigetAAAA');
    expect(encodedSegment(key)).toBe('%6DultigetAAAA');
    expect(serverDecode(encodedSegment(key))).toEqual(key);
  });

  it('never collide with a sub-resource and always decode back to the key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (key) => {
        const seg = encodedSegment(key);
        expect(collides(seg)).toBe(false);
        expect(seg).toMatch(/^(%[0-9A-F]{2})?[A-Za-z0-9_=-]*$/);
        expect(serverDecode(seg)).toEqual(key);
      }),
      { numRuns: 2000 },
    );
  });

  it('cover keys that spell the reserved words themselves', () => {
    for (const word of ['exists', 'regions', 'schema', 'scanner', 'multiget', 'multigetx', 'abc*']) {
      expect(collides(encodedSegment(toBytes(word)))).toBe(false);
    }
  });

  it('refuse empty keys', () => {
    expect(() => encodedSegment(u8())).toThrow(TypeError);
  });
});

describe('rowPath', () => {
  it('joins key, columns and timestamp', () => {
    expect(rowPath('t', toBytes('r'), [toBytes('cf:a'), toBytes('cf')], 42)).toBe('/t/cg==/Y2Y6YQ==,Y2Y=/42');
    expect(rowPath('ns:t', toBytes('r'))).toBe('/ns:t/cg==');
  });

  it('refuses a timestamp without a column (the empty segment means every column)', () => {
    expect(() => rowPath('t', toBytes('r'), [], 42)).toThrow(TypeError);
  });

  it('refuses bad timestamps and table names', () => {
    expect(() => rowPath('t', toBytes('r'), [toBytes('cf:a')], -1)).toThrow(RangeError);
    expect(() => rowPath('t', toBytes('r'), [toBytes('cf:a')], 1.5)).toThrow(RangeError);
    expect(() => rowPath('a/b', toBytes('r'))).toThrow(TypeError);
  });
});

describe('queries', () => {
  it('percent-encode values', () => {
    expect(
      buildQuery([
        ['e', 'b64'],
        ['row', 'YQ==/Y2Y6YQ==,Y2Y='],
      ]),
    ).toBe('?e=b64&row=YQ%3D%3D%2FY2Y6YQ%3D%3D%2CY2Y%3D');
    expect(buildQuery([])).toBe('');
  });

  it('multiget row specs carry the columns of each row', () => {
    expect(multigetRowSpec(toBytes('r'), [toBytes('cf:a'), toBytes('cf')])).toBe('cg==/Y2Y6YQ==,Y2Y=');
    expect(multigetRowSpec(fromBase64Url('multigetAAAA'))).toBe('multigetAAAA');
  });

  it('chunks multiget rows by count and by URL length', () => {
    const specs = Array.from({ length: 7 }, (_, i) => `k${i}`);
    expect(chunkRowSpecs(specs, 3, 10_000).map((c) => c.length)).toEqual([3, 3, 1]);
    const long = Array.from({ length: 10 }, () => 'x'.repeat(100));
    const chunks = chunkRowSpecs(long, 100, 350);
    expect(chunks.map((c) => c.length)).toEqual([3, 3, 3, 1]);
    expect(chunks.flat()).toEqual(long);
    // A single oversized spec still goes out, alone.
    expect(chunkRowSpecs(['y'.repeat(500), 'z'], 100, 100).map((c) => c.length)).toEqual([1, 1]);
  });
});

describe('scanner Location', () => {
  it('keeps only the id, so an internal host or missing path prefix is never followed', () => {
    expect(scannerPathFromLocation('t', 'http://10.0.0.5:8080/t/scanner/17952485513446fec55dc')).toBe(
      '/t/scanner/17952485513446fec55dc',
    );
    expect(scannerPathFromLocation('ns:t', 'https://gw/hbase/ns:t/scanner/abc123/')).toBe('/ns:t/scanner/abc123');
    expect(scannerPathFromLocation('t', '/t/scanner/abc')).toBe('/t/scanner/abc');
  });

  it('rejects a Location without a plausible id', () => {
    expect(scannerPathFromLocation('t', undefined)).toBeNull();
    expect(scannerPathFromLocation('t', 'http://h/t/regions')).toBeNull();
    expect(scannerPathFromLocation('t', 'http://h/t/scanner/../../schema')).toBeNull();
    expect(scannerPathFromLocation('t', 'http://h/t/scanner/a%2Fb')).toBeNull();
  });
});
