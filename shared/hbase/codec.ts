// shared/hbase/codec.ts — the one byte codec of the HBase REST client: UTF-8, base64 (JSON bodies), base64url (URLs), longs, key ranges.

/** Bytes as the caller holds them; a string stands for its UTF-8 bytes. */
export type Bytes = Uint8Array | string;

const utf8Encoder = new TextEncoder();
// Not fatal: a key that is not UTF-8 should still print as something in logs and errors.
const utf8Decoder = new TextDecoder('utf-8');

export function toBytes(b: Bytes): Uint8Array {
  return typeof b === 'string' ? utf8Encoder.encode(b) : b;
}

export function bytesToString(b: Uint8Array): string {
  return utf8Decoder.decode(b);
}

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

// Callers compare with toEqual against plain Uint8Arrays, so never hand out Buffer instances.
function asPlain(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Standard, padded base64: what Jackson reads and writes for byte[] in CellSet JSON. */
export function toBase64(b: Bytes): string {
  return asBuffer(toBytes(b)).toString('base64');
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function fromBase64(s: string): Uint8Array {
  // Buffer silently skips junk; a malformed server field should fail loudly instead.
  if (!BASE64_RE.test(s)) throw new TypeError(`not standard base64: ${s.slice(0, 40)}`);
  return asPlain(Buffer.from(s, 'base64'));
}

/**
 * URL-safe base64 WITH padding, for `?e=b64` path segments and query values. Padding keeps every
 * encoded segment a multiple of 4 characters long, so it can never spell the 6- and 7-letter
 * sub-resource names (exists, schema, regions, scanner).
 */
export function toBase64Url(b: Bytes): string {
  const s = asBuffer(toBytes(b)).toString('base64url');
  return s + '='.repeat((4 - (s.length % 4)) % 4);
}

export function fromBase64Url(s: string): Uint8Array {
  return asPlain(Buffer.from(s, 'base64url'));
}

/** 8-byte big-endian signed long, the format HBase counters are stored in. */
export function decodeLong(b: Uint8Array): bigint {
  if (b.byteLength !== 8) throw new RangeError(`a long is 8 bytes, got ${b.byteLength}`);
  return new DataView(b.buffer, b.byteOffset, 8).getBigInt64(0, false);
}

export function encodeLong(n: bigint | number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt.asIntN(64, BigInt(n)), false);
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && asBuffer(a).equals(asBuffer(b));
}

/** Unsigned lexicographic order, the order HBase sorts row keys in. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return asBuffer(a).compare(asBuffer(b));
}

export function concatBytes(...parts: Bytes[]): Uint8Array {
  return asPlain(Buffer.concat(parts.map((p) => asBuffer(toBytes(p)))));
}

/**
 * The smallest key greater than every key that starts with `prefix` (the exclusive stop row of a
 * prefix scan), or null when no such key exists (empty prefix or all 0xff bytes).
 */
export function prefixEnd(prefix: Bytes): Uint8Array | null {
  const p = toBytes(prefix);
  for (let i = p.byteLength - 1; i >= 0; i--) {
    const byte = p[i] as number;
    if (byte !== 0xff) {
      const end = p.slice(0, i + 1);
      end[i] = byte + 1;
      return end;
    }
  }
  return null;
}

/** Index of the first ':' in a `family:qualifier` column, or -1. */
export function columnSeparatorIndex(column: Uint8Array): number {
  return column.indexOf(0x3a);
}
