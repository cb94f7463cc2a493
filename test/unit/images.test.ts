// test/unit/images.test.ts — pictures made safe: the format from magic bytes
// (shared/domain/media.ts) and the libvips processor (shared/adapters/images/), on real image
// bytes generated here with sharp or built byte by byte (a PNG bomb, a HEIC header, a GIF with
// a script inside). Outputs are checked by parsing their bytes, not by trusting sharp's word.
import { randomBytes } from 'node:crypto';
import { createDeflate } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { classifyImageError, SharpImageProcessor } from '../../shared/adapters/images/sharp-image-processor.js';
import {
  DECLARABLE_TYPES,
  MEDIA_REFUSALS,
  formatRefusal,
  pixelRefusal,
  refusalMessage,
  sniffFormat,
  type MediaRefusal,
} from '../../shared/domain/media.js';
import {
  isRefusal,
  VARIANT_NAMES,
  type ImageRefusal,
  type ProcessedImage,
} from '../../shared/ports/image-processor.js';
import { MAX_PIXELS, MAX_UPLOAD_BYTES } from '../../shared/domain/limits.js';
import type { MediaPurpose } from '../../shared/domain/media-id.js';

const processor = new SharpImageProcessor();
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

async function processed(input: Uint8Array, purpose: MediaPurpose = 'post'): Promise<ProcessedImage> {
  const r = await processor.process(input, purpose);
  if (isRefusal(r)) throw new Error(`refused: ${r.refused}`);
  return r;
}

async function refusal(input: Uint8Array, purpose: 'post' | 'avatar' = 'post'): Promise<MediaRefusal | 'accepted'> {
  const r: ProcessedImage | ImageRefusal = await processor.process(input, purpose);
  return isRefusal(r) ? r.refused : 'accepted';
}

const variant = (p: ProcessedImage, name: string) => {
  const v = p.variants.find((x) => x.name === name);
  if (!v) throw new Error(`no variant ${name}`);
  return v;
};

// ---------- fixtures ----------

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

/** A photo-like JPEG: two halves of different colours, so orientation shows in the pixels. */
async function twoHalvesJpeg(width: number, height: number): Promise<sharp.Sharp> {
  const right = await solid(Math.floor(width / 2), height, '#0000ff')
    .png()
    .toBuffer();
  return solid(width, height, '#ff0000').composite([{ input: right, left: Math.floor(width / 2), top: 0 }]);
}

const GPS_LATITUDE = '39/1 54/1 2700/100';

/** A 400×200 JPEG as a phone stores a portrait shot: orientation 6 (turn 90° clockwise), GPS in EXIF. */
async function phoneJpeg(): Promise<Buffer> {
  return (await twoHalvesJpeg(400, 200))
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'WeiboTestCam', Model: 'Secret Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: GPS_LATITUDE, GPSLongitudeRef: 'E', GPSLongitude: '116/1 23/1 0/1' },
    })
    .toBuffer();
}

/** Three frames of different colours, 100 ms apart. */
async function animation(format: 'gif' | 'webp', width = 60, height = 40): Promise<Buffer> {
  const frames = await Promise.all(
    ['#ff0000', '#00ff00', '#0000ff'].map((c) => solid(width, height, c).raw().toBuffer()),
  );
  const stacked = sharp(Buffer.concat(frames), { raw: { width, height: height * 3, channels: 3, pageHeight: height } });
  return format === 'gif'
    ? stacked.gif({ delay: [100, 100, 100], loop: 0 }).toBuffer()
    : stacked.webp({ delay: [100, 100, 100], loop: 0 }).toBuffer();
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A one-colour PNG of any size, built by hand: 1 bit per pixel, one palette entry, every row
 * zero (filter 0). The IDAT is complete and valid; deflate squeezes the rows ~1000:1.
 */
async function oneColourPng(width: number, height: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 3, 0, 0, 0], 8); // bit depth 1, palette, deflate, filter 0, no interlace
  const rowBytes = 1 + Math.ceil(width / 8);
  const block = Buffer.alloc(rowBytes * Math.min(height, 1000));
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (d: Buffer) => out.push(d));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  for (let row = 0; row < height; row += 1000)
    deflate.write(block.subarray(0, rowBytes * Math.min(1000, height - row)));
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('PLTE', Buffer.from([0x33, 0x66, 0x99])),
    pngChunk('IDAT', Buffer.concat(out)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF built by hand: a `width`×`height` screen and `frames` frames of one pixel each (libvips renders every frame at screen size). */
function sparseGif(width: number, height: number, frames: number): Buffer {
  const lsd = Buffer.alloc(7);
  lsd.writeUInt16LE(width, 0);
  lsd.writeUInt16LE(height, 2);
  lsd[4] = 0x80; // a global colour table of 2 entries
  const parts = [Buffer.from('GIF89a', 'latin1'), lsd, Buffer.from([0, 0, 0, 0xff, 0xff, 0xff])];
  for (let f = 0; f < frames; f++) {
    parts.push(Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00])); // graphic control: 100 ms
    parts.push(Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0])); // a 1×1 image at 0,0
    parts.push(Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00])); // LZW min size 2: clear, index 0, end
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** `gif` with a comment extension carrying `text` right after its global colour table: the script inside a valid GIF. */
function withGifComment(gif: Buffer, text: string): Buffer {
  const packed = gif[10]!;
  const at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  const body = Buffer.from(text, 'latin1');
  const blocks: Buffer[] = [];
  for (let i = 0; i < body.length; i += 255) {
    const piece = body.subarray(i, i + 255);
    blocks.push(Buffer.from([piece.length]), piece);
  }
  return Buffer.concat([gif.subarray(0, at), Buffer.from([0x21, 0xfe]), ...blocks, Buffer.from([0]), gif.subarray(at)]);
}

// ---------- byte-level readers (no library: what the bytes say) ----------

/** The top-level chunks of a WebP file (RIFF), and the VP8X flags when extended. */
function webpChunks(file: Uint8Array): { fourccs: string[]; vp8xFlags: number | null } {
  const b = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  expect(b.toString('latin1', 0, 4)).toBe('RIFF');
  expect(b.toString('latin1', 8, 12)).toBe('WEBP');
  expect(b.readUInt32LE(4)).toBe(b.length - 8);
  const fourccs: string[] = [];
  let vp8xFlags: number | null = null;
  for (let at = 12; at + 8 <= b.length; ) {
    const fourcc = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (fourcc === 'VP8X') vp8xFlags = b[at + 8]!;
    fourccs.push(fourcc);
    at += 8 + size + (size & 1);
  }
  return { fourccs, vp8xFlags };
}

interface ExifFacts {
  orientation?: number;
  gpsTags: number[];
  latitude?: string;
}

/** Reads an EXIF block ("Exif\0\0" + TIFF): IFD0's orientation and the GPS IFD's tags and latitude. */
function readExif(exif: Buffer): ExifFacts {
  expect(exif.toString('latin1', 0, 6)).toBe('Exif\0\0');
  const t = exif.subarray(6);
  const le = t.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? t.readUInt16LE(o) : t.readUInt16BE(o));
  const u32 = (o: number) => (le ? t.readUInt32LE(o) : t.readUInt32BE(o));
  const entries = (ifd: number) =>
    Array.from({ length: u16(ifd) }, (_, i) => {
      const e = ifd + 2 + i * 12;
      return { tag: u16(e), type: u16(e + 2), count: u32(e + 4), value: e + 8 };
    });
  const facts: ExifFacts = { gpsTags: [] };
  for (const e of entries(u32(4))) {
    if (e.tag === 0x0112) facts.orientation = u16(e.value);
    if (e.tag !== 0x8825) continue;
    for (const g of entries(u32(e.value))) {
      facts.gpsTags.push(g.tag);
      if (g.tag === 0x0002 && g.type === 5) {
        const at = u32(g.value);
        facts.latitude = Array.from({ length: g.count }, (_, i) => `${u32(at + i * 8)}/${u32(at + i * 8 + 4)}`).join(
          ' ',
        );
      }
    }
  }
  return facts;
}

/** Asserts a stored variant carries no metadata at all, by its bytes and by libvips' reading. */
async function expectNoMetadata(file: Uint8Array) {
  const b = Buffer.from(file);
  const { fourccs, vp8xFlags } = webpChunks(file);
  for (const chunk of ['EXIF', 'XMP ', 'ICCP']) expect(fourccs).not.toContain(chunk);
  // VP8X flags: ICC 0x20, EXIF 0x08, XMP 0x04.
  if (vp8xFlags !== null) expect(vp8xFlags & 0x2c).toBe(0);
  expect(b.includes('Exif\0\0')).toBe(false);
  expect(b.includes('WeiboTestCam')).toBe(false);
  expect(b.includes('Secret Phone')).toBe(false);
  const meta = await sharp(b).metadata();
  expect(meta.format).toBe('webp');
  expect(meta.exif).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
}

// ---------- the media rules ----------

describe('the format comes from the magic bytes', () => {
  it('knows the accepted formats by their signatures, not by a name or a declared type', async () => {
    expect(sniffFormat(await solid(8, 8, '#123456').jpeg().toBuffer())).toBe('jpeg');
    expect(sniffFormat(await solid(8, 8, '#123456').png().toBuffer())).toBe('png');
    expect(sniffFormat(await solid(8, 8, '#123456').webp().toBuffer())).toBe('webp');
    expect(sniffFormat(await solid(8, 8, '#123456').webp({ lossless: true }).toBuffer())).toBe('webp');
    expect(sniffFormat(await animation('webp'))).toBe('webp');
    expect(sniffFormat(await solid(8, 8, '#123456').gif().toBuffer())).toBe('gif');
    expect(sniffFormat(bytes('GIF87a\x01\x00\x01\x00'))).toBe('gif');
    // A RIFF that is not WebP (a WAV) is not a picture.
    expect(sniffFormat(bytes('RIFF\x24\x00\x00\x00WAVEfmt '))).toBe('unknown');
    expect(sniffFormat(new Uint8Array(0))).toBe('unknown');
    expect(sniffFormat(bytes('\xff\xd8'))).toBe('unknown');
  });

  it('tells HEIC from its ISO-BMFF brands, and leaves AVIF (same box, other codec) unknown', () => {
    expect(sniffFormat(bytes('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic'))).toBe('heic');
    expect(sniffFormat(bytes('\x00\x00\x00\x1cftyphevc\x00\x00\x00\x00mif1msf1hevc'))).toBe('heic');
    expect(sniffFormat(bytes('\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00mif1heic'))).toBe('heic');
    expect(sniffFormat(bytes('\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf'))).toBe('unknown');
    expect(sniffFormat(bytes('\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00mif1avif'))).toBe('unknown');
    // An MP4 is not a picture either.
    expect(sniffFormat(bytes('\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2'))).toBe('unknown');
  });

  it('takes SVG, XML and HTML for markup however they start', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    for (const text of [
      svg,
      `<?xml version="1.0" encoding="UTF-8"?>\n${svg}`,
      `\n\n \t ${svg}`,
      `\uFEFF${svg}`,
      `\uFEFF  \r\n<?xml version="1.0"?>${svg}`,
      `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">${svg}`,
      `<!--a comment-->${svg}`,
      '<SVG>',
      '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>',
      '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>',
      '<html>',
      '  <script>alert(1)</script>',
      '<p>hello',
    ]) {
      expect(sniffFormat(utf8(text)), JSON.stringify(text)).toBe('svg');
    }
    // UTF-16 with its BOM, both byte orders.
    expect(
      sniffFormat(new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`  ${svg}`, 'utf16le')]))),
    ).toBe('svg');
    expect(
      sniffFormat(
        new Uint8Array(Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(svg, 'utf16le').swap16()]))),
      ),
    ).toBe('svg');
    // Text that is not markup, and a tag name that merely starts like one.
    expect(sniffFormat(utf8('hello <svg>'))).toBe('unknown');
    expect(sniffFormat(utf8('<svgx>'))).toBe('unknown');
    expect(sniffFormat(utf8('<pre>'))).toBe('unknown');
  });

  it('counts every frame of an animation against the pixel limit', () => {
    expect(pixelRefusal(8000, 5000)).toBeNull();
    expect(pixelRefusal(8000, 5001)).toBe('too_many_pixels');
    expect(pixelRefusal(30_000, 30_000)).toBe('too_many_pixels');
    expect(pixelRefusal(2000, 2000, 10)).toBeNull();
    expect(pixelRefusal(2000, 2000, 11)).toBe('too_many_pixels');
    expect(pixelRefusal(2000, 2000, 0)).toBeNull();
  });

  it('names a refusal for every format it will not take, and a message for every refusal', () => {
    expect(formatRefusal('heic')).toBe('heic_unsupported');
    expect(formatRefusal('svg')).toBe('svg_refused');
    expect(formatRefusal('unknown')).toBe('unsupported_format');
    for (const f of ['jpeg', 'png', 'webp', 'gif'] as const) expect(formatRefusal(f)).toBeNull();
    const messages = MEDIA_REFUSALS.map(refusalMessage);
    for (const m of messages) expect(m.length).toBeGreaterThan(20);
    expect(new Set(messages).size).toBe(MEDIA_REFUSALS.length);
    expect(refusalMessage('too_large')).toContain('20 MB');
    expect(refusalMessage('too_many_pixels')).toContain('40 megapixels');
    expect(DECLARABLE_TYPES).toEqual(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
  });
});

// ---------- the processor ----------

describe('metadata never leaves with the picture', () => {
  it('turns a phone photo upright and drops its EXIF, GPS above all, from every variant', async () => {
    const input = await phoneJpeg();
    // The fixture really carries what must disappear (so this test can fail).
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.width).toBe(400);
    expect(inputMeta.height).toBe(200);
    const exif = readExif(inputMeta.exif!);
    expect(exif.orientation).toBe(6);
    expect(exif.gpsTags).toEqual(expect.arrayContaining([0x0001, 0x0002, 0x0003, 0x0004]));
    expect(exif.latitude).toBe(GPS_LATITUDE);
    expect(input.includes('WeiboTestCam')).toBe(true);

    const p = await processed(new Uint8Array(input));
    expect(p.format).toBe('jpeg');
    // Upright: a portrait, 200 wide and 400 high.
    expect([p.width, p.height]).toEqual([200, 400]);
    expect(p.variants.map((v) => v.name)).toEqual(VARIANT_NAMES.post);
    for (const v of p.variants) await expectNoMetadata(v.bytes);
    const large = variant(p, 'large');
    expect([large.width, large.height]).toEqual([200, 400]);
    // Turned 90° clockwise: the left (red) half is now on top, the right (blue) one below.
    const { data, info } = await sharp(Buffer.from(large.bytes)).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) =>
      Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
    const [tr, , tb] = px(100, 50);
    const [br, , bb] = px(100, 350);
    expect(tr).toBeGreaterThan(200);
    expect(tb).toBeLessThan(60);
    expect(br).toBeLessThan(60);
    expect(bb).toBeGreaterThan(200);
  });

  it('drops ICC profiles and XMP too', async () => {
    const input = await solid(300, 200, '#808080')
      .jpeg()
      .withIccProfile('p3')
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>',
      )
      .toBuffer();
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.icc).toBeDefined();
    expect(inputMeta.xmp).toBeDefined();
    const p = await processed(new Uint8Array(input));
    for (const v of p.variants) await expectNoMetadata(v.bytes);
  });
});

describe('accepted formats become WebP variants of the right sizes', () => {
  it('post: a 360 square thumb, a feed size 690 wide, a large size within 2048', async () => {
    const p = await processed(new Uint8Array(await (await twoHalvesJpeg(3000, 2000)).jpeg({ quality: 80 }).toBuffer()));
    expect([p.width, p.height, p.animated]).toEqual([3000, 2000, false]);
    const sizes = Object.fromEntries(p.variants.map((v) => [v.name, [v.width, v.height]]));
    expect(sizes).toEqual({ thumb: [360, 360], feed: [690, 460], large: [2048, 1365] });
    for (const v of p.variants) {
      expect(v.contentType).toBe('image/webp');
      const meta = await sharp(Buffer.from(v.bytes)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', v.width, v.height]);
    }
  });

  it('never upscales a small picture, and keeps a tall one within what WebP can encode', async () => {
    const small = await processed(new Uint8Array(await solid(300, 200, '#ffcc00').png().toBuffer()));
    expect(small.format).toBe('png');
    expect(Object.fromEntries(small.variants.map((v) => [v.name, [v.width, v.height]]))).toEqual({
      thumb: [200, 200],
      feed: [300, 200],
      large: [300, 200],
    });

    // A long screenshot: 100 × 20,000 (2 megapixels), taller than WebP's 16,383.
    const tall = await processed(new Uint8Array(await oneColourPng(100, 20_000)));
    expect(variant(tall, 'feed').height).toBeLessThanOrEqual(16_383);
    expect(variant(tall, 'large').height).toBe(2048);
    expect(variant(tall, 'thumb').width).toBe(100);
  });

  it('message: the post sizes a conversation shows, a 360 square thumb and a large size within 2048 (animated), no feed size', async () => {
    const p = await processed(
      new Uint8Array(await (await twoHalvesJpeg(3000, 2000)).jpeg({ quality: 80 }).toBuffer()),
      'message',
    );
    expect(p.variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ['thumb', 360, 360],
      ['large', 2048, 1365],
    ]);
    expect(p.variants.map((v) => v.name)).toEqual(VARIANT_NAMES.message);
    expect(p.placeholder).toMatch(/^#[0-9a-f]{6}$/);
    const gif = await processed(new Uint8Array(await animation('gif')), 'message');
    expect(gif.animated).toBe(true);
    expect((await sharp(Buffer.from(variant(gif, 'large').bytes)).metadata()).pages).toBe(3);
    expect((await sharp(Buffer.from(variant(gif, 'thumb').bytes)).metadata()).pages ?? 1).toBe(1);
  });

  it('avatar: two squares, 96 and 400, never upscaled', async () => {
    const p = await processed(new Uint8Array(await solid(1000, 600, '#00aa00').webp().toBuffer()), 'avatar');
    expect(p.format).toBe('webp');
    expect(p.variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ['avatar-96', 96, 96],
      ['avatar-400', 400, 400],
    ]);
    const tiny = await processed(new Uint8Array(await solid(50, 80, '#00aa00').png().toBuffer()), 'avatar');
    expect(tiny.variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ['avatar-96', 50, 50],
      ['avatar-400', 50, 50],
    ]);
  });

  it('keeps an animated GIF animated (all frames, their timing) and makes its thumbnail the first frame', async () => {
    const gif = await animation('gif');
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const p = await processed(new Uint8Array(gif));
    expect([p.format, p.width, p.height, p.animated]).toEqual(['gif', 60, 40, true]);
    for (const name of ['feed', 'large']) {
      const v = variant(p, name);
      const meta = await sharp(Buffer.from(v.bytes)).metadata();
      expect([meta.format, meta.pages, meta.delay, meta.loop]).toEqual(['webp', 3, [100, 100, 100], 0]);
      expect([v.width, v.height]).toEqual([60, 40]);
      expect(webpChunks(v.bytes).fourccs).toContain('ANIM');
    }
    const thumb = variant(p, 'thumb');
    expect((await sharp(Buffer.from(thumb.bytes)).metadata()).pages).toBeUndefined();
    expect(webpChunks(thumb.bytes).fourccs).not.toContain('ANIM');
    // The first frame is the red one.
    expect(p.placeholder).toMatch(/^#f[0-9a-f]0[0-9a-f]0[0-9a-f]$/);
  });

  it('keeps an animated WebP animated; a one-frame GIF is a still picture', async () => {
    const p = await processed(new Uint8Array(await animation('webp')));
    expect([p.format, p.animated]).toEqual(['webp', true]);
    expect((await sharp(Buffer.from(variant(p, 'large').bytes)).metadata()).pages).toBe(3);
    const still = await processed(new Uint8Array(await solid(40, 40, '#ff0000').gif().toBuffer()));
    expect([still.format, still.animated]).toEqual(['gif', false]);
  });

  it('gives a placeholder colour, #rrggbb, near the picture’s own and light for a transparent one', async () => {
    const p = await processed(new Uint8Array(await solid(500, 300, '#336699').jpeg().toBuffer()));
    expect(p.placeholder).toMatch(/^#[0-9a-f]{6}$/);
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(p.placeholder.slice(i, i + 2), 16));
    expect(Math.abs(r! - 0x33)).toBeLessThanOrEqual(16);
    expect(Math.abs(g! - 0x66)).toBeLessThanOrEqual(16);
    expect(Math.abs(b! - 0x99)).toBeLessThanOrEqual(16);
    // Transparent pixels are black underneath; the placeholder shows what the page will (white).
    const clear = await sharp({
      create: { width: 100, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const t = await processed(new Uint8Array(clear));
    expect(t.placeholder).toMatch(/^#f[0-9a-f]f[0-9a-f]f[0-9a-f]$/);
  });
});

describe('hostile and broken files get a reason, never an exception', () => {
  it('refuses an HTML page renamed .jpg, and SVG with or without an XML declaration', async () => {
    expect(
      await refusal(
        utf8(
          '<!DOCTYPE html><html><head><title>x.jpg</title></head><body><script>fetch("/steal")</script></body></html>',
        ),
      ),
    ).toBe('svg_refused');
    expect(await refusal(utf8('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))).toBe('svg_refused');
    expect(await refusal(utf8('\uFEFF\n  <?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(
      'svg_refused',
    );
    // Even for an avatar.
    expect(await refusal(utf8('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'avatar')).toBe('svg_refused');
  });

  it('refuses HEIC with its own reason', async () => {
    expect(await refusal(bytes('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic\x00\x00\x00\x08free'))).toBe(
      'heic_unsupported',
    );
  });

  it('re-encodes a GIF/HTML polyglot: the script survives in no variant', async () => {
    const script = '<script>alert(document.cookie)</script>';
    const gif = await solid(64, 48, '#00ff00').gif().toBuffer();
    for (const hostile of [
      Buffer.concat([gif, Buffer.from(`<html><body>${script}</body></html>`)]),
      withGifComment(gif, `*/=1;${script}/*`),
    ]) {
      expect(hostile.includes(script)).toBe(true);
      expect(sniffFormat(hostile)).toBe('gif');
      const p = await processed(new Uint8Array(hostile));
      expect([p.format, p.width, p.height]).toEqual(['gif', 64, 48]);
      for (const v of p.variants) {
        const out = Buffer.from(v.bytes);
        expect(out.includes(script)).toBe(false);
        expect(out.includes('<script')).toBe(false);
        expect(out.includes('alert')).toBe(false);
        await expectNoMetadata(v.bytes);
      }
    }
  });

  it('refuses a truncated or damaged file as corrupt', async () => {
    const jpeg = await (await twoHalvesJpeg(800, 600)).jpeg().toBuffer();
    // The header is intact, the scan data stops halfway: the decoder's error, not a half-grey picture.
    expect(await refusal(new Uint8Array(jpeg.subarray(0, jpeg.length >> 1)))).toBe('corrupt_image');
    // A JPEG signature and then nothing readable: the header itself fails.
    expect(
      await refusal(new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 0x41)]))),
    ).toBe('corrupt_image');
    const png = await sharp({
      create: {
        width: 300,
        height: 300,
        channels: 3,
        background: '#000000',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    expect(await refusal(new Uint8Array(png.subarray(0, png.length >> 1)))).toBe('corrupt_image');
    expect(await refusal(bytes('GIF89a'))).toBe('corrupt_image');
  });

  it('still takes a JPEG with stray bytes before its end marker (cameras write them)', async () => {
    const jpeg = await solid(200, 100, '#336699').jpeg().toBuffer();
    const stray = Buffer.concat([jpeg.subarray(0, -2), Buffer.from([0x00, 0x01, 0x02, 0x03]), jpeg.subarray(-2)]);
    expect(await refusal(new Uint8Array(stray))).toBe('accepted');
  });

  it('refuses random bytes and an empty file as not a picture', async () => {
    const noise = randomBytes(4096);
    noise[0] = 0x00; // no signature can start with it
    expect(await refusal(new Uint8Array(noise))).toBe('unsupported_format');
    expect(await refusal(new Uint8Array(0))).toBe('unsupported_format');
    expect(await refusal(new Uint8Array(await solid(10, 10, '#000000').tiff().toBuffer()))).toBe('unsupported_format');
  });

  it('refuses a file over 20 MB before looking at it', async () => {
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    expect(await refusal(big)).toBe('too_large');
  });

  it('refuses a 30,000 × 30,000 one-colour PNG from its header, before decoding a pixel', async () => {
    // The builder makes valid PNGs: a small one decodes to its one colour.
    const sample = await sharp(await oneColourPng(300, 200)).stats();
    expect(sample.dominant).toEqual({ r: 56, g: 104, b: 152 }); // #336699's histogram bin
    const bomb = await oneColourPng(30_000, 30_000);
    expect(bomb.length).toBeLessThan(200 * 1024); // ~110 KB for 900 megapixels
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([meta.width, meta.height]).toEqual([30_000, 30_000]);
    const t0 = performance.now();
    expect(await refusal(new Uint8Array(bomb))).toBe('too_many_pixels');
    // Decoding 900 megapixels takes seconds and gigabytes; reading a header takes milliseconds.
    expect(performance.now() - t0).toBeLessThan(250);
  });

  it('counts every frame of an animation against the pixel limit', async () => {
    // 2,000 × 2,000 × 11 frames = 44 megapixels decoded, in a file of a few hundred bytes.
    const frames = sparseGif(2000, 2000, 11);
    expect(frames.length).toBeLessThan(500);
    const meta = await sharp(frames).metadata();
    expect([meta.width, meta.height, meta.pages]).toEqual([2000, 2000, 11]);
    expect(2000 * 2000 * 11).toBeGreaterThan(MAX_PIXELS);
    const t0 = performance.now();
    expect(await refusal(new Uint8Array(frames))).toBe('too_many_pixels');
    expect(performance.now() - t0).toBeLessThan(250);
    // The same screen with a single frame is fine.
    expect(await refusal(new Uint8Array(sparseGif(2000, 2000, 1)))).toBe('accepted');
  });
});

describe('a libvips failure is a refusal only when it is about the file', () => {
  const errorOf = (message: string) => {
    try {
      return classifyImageError(new Error(message));
    } catch (err) {
      return err instanceof Error ? `thrown: ${err.message}` : 'thrown';
    }
  };

  it('refuses what the file caused: it would fail the same way on every retry', () => {
    expect(errorOf('VipsJpeg: premature end of JPEG image')).toEqual({ refused: 'corrupt_image' });
    expect(errorOf('pngload_buffer: libspng read error')).toEqual({ refused: 'corrupt_image' });
    expect(errorOf('Input buffer has corrupt header: gifload_buffer: Unexpected end of GIF source data')).toEqual({
      refused: 'corrupt_image',
    });
    expect(errorOf('Input image exceeds pixel limit')).toEqual({ refused: 'too_many_pixels' });
  });

  it('rethrows what may pass on a fresh instance, and our own mistakes', () => {
    for (const message of [
      'vips_malloc: out of memory',
      'VipsJpeg: Insufficient memory (case 4)',
      'unable to allocate 120 MB',
      'timeout: 42% complete',
      'Expected positive integer for width but received -1 of type number',
    ]) {
      expect(errorOf(message)).toBe(`thrown: ${message}`);
    }
    expect(() => classifyImageError(new TypeError('x is undefined'))).toThrow(TypeError);
    expect(() => classifyImageError(new RangeError('Array buffer allocation failed'))).toThrow(RangeError);
    expect(() => classifyImageError('a string')).toThrow();
  });
});
