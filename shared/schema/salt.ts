// shared/schema/salt.ts — the two salt bytes of a user key (row-keys.ts userKey): the first two
// bytes of the MD5 of the handle. Computed here in plain JavaScript for a handle (ASCII, at most
// 55 bytes: one MD5 block) because the fan-out builds one key per follower — 100,000 for a big
// author's post — and node:crypto's one-shot hash costs about 1.8 µs a call on this machine
// (the call into the native side dominates a 9-byte input), a third of the raw put of the same
// cells; this costs a tenth of that. Byte-for-byte node:crypto's MD5 (test/unit/salt.test.ts).

/** Per-round shift amounts (RFC 1321, 3.4). */
const S = [
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4,
  11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];
/** K[i] = floor(|sin(i + 1)| · 2^32) (RFC 1321, 3.4). */
const K = Int32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);
/** Message word index per round. */
const G = Int8Array.from({ length: 64 }, (_, i) =>
  i < 16 ? i : i < 32 ? (5 * i + 1) % 16 : i < 48 ? (3 * i + 5) % 16 : (7 * i) % 16,
);
const block = new Int32Array(16);

/** The first two bytes of md5(ascii) for an ASCII string of at most 55 characters. */
export function md5Salt(ascii: string, out: Uint8Array): void {
  const n = ascii.length;
  if (n > 55) throw new RangeError('md5Salt: more than one block');
  block.fill(0);
  for (let i = 0; i < n; i++) block[i >> 2]! |= (ascii.charCodeAt(i) & 0xff) << ((i & 3) * 8);
  block[n >> 2]! |= 0x80 << ((n & 3) * 8);
  block[14] = n * 8;
  let a = 0x67452301;
  let b = 0xefcdab89 | 0;
  let c = 0x98badcfe | 0;
  let d = 0x10325476;
  for (let i = 0; i < 64; i++) {
    let f: number;
    if (i < 16) f = (b & c) | (~b & d);
    else if (i < 32) f = (d & b) | (~d & c);
    else if (i < 48) f = b ^ c ^ d;
    else f = c ^ (b | ~d);
    f = (f + a + K[i]! + block[G[i]!]!) | 0;
    a = d;
    d = c;
    c = b;
    b = (b + ((f << S[i]!) | (f >>> (32 - S[i]!)))) | 0;
  }
  const first = (a + 0x67452301) | 0;
  out[0] = first & 0xff;
  out[1] = (first >>> 8) & 0xff;
}
