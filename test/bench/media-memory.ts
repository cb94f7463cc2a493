// test/bench/media-memory.ts — `npx tsx test/bench/media-memory.ts`: how much memory and time the
// media worker's image processing takes for a 12-megapixel photo and for the largest picture
// allowed (just under MAX_PIXELS), so the function's memory setting can be chosen from figures.
// Also a module: the pictures benchmark (media.bench.ts) imports its fixtures and its one-case
// child-process measurement (measureInChild), so both measure memory the same way.
//
// Each case runs in a child process of its own (peak RSS is per process and never goes down):
// the child loads the processor, notes its RSS before any image (the floor: Node, the loader,
// libvips), processes the same file REPEAT times (MEDIA_BENCH_REPEAT, default 5) as a warm
// container would, and reports its peak RSS after the first image and after all, and the time
// per image. Peak RSS is process.resourceUsage().maxRSS; on Linux that figure survives fork and
// exec (a child starts from its parent's peak), so the fixtures are made in a child too, the
// parent stays small, and the kernel's VmHWM (/proc/self/status, reset by exec) is printed beside it.
// Two ways to make the variants are compared on the same files:
//   from-bytes   — what SharpImageProcessor does: each variant from the encoded bytes
//                  (libvips streams the decode; JPEG shrink-on-load decodes at 1/2..1/8 scale);
//   decode-once  — decode the whole picture to pixels once, then every variant from them.
// Fixtures (photo-like noise JPEGs, q85; an animated GIF at the pixel limit) are generated once
// into the OS temp dir and reused. glibc's malloc arenas make a warm process grow image after
// image: run with MALLOC_ARENA_MAX=2 (the worker's setting) to see the difference.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { SharpImageProcessor } from '../../shared/adapters/images/sharp-image-processor.js';
import { isRefusal } from '../../shared/ports/image-processor.js';
import { MAX_PIXELS, MAX_UPLOAD_BYTES } from '../../shared/domain/limits.js';

const REPEAT = Number(process.env.MEDIA_BENCH_REPEAT ?? 5);
const SELF = fileURLToPath(import.meta.url);

export interface Case {
  name: string;
  width: number;
  height: number;
  /** An animated GIF of this many frames (every frame counts against the limit); a JPEG when absent. */
  frames?: number;
  /** A phone photo's EXIF (camera, GPS position, orientation 6: stored sideways) — a JPEG only. */
  exif?: boolean;
}

export const CASES: Case[] = [
  { name: '12 MP', width: 4000, height: 3000 },
  // 39,990,016 pixels: the largest 3:2 picture under the limit.
  { name: '40 MP', width: 7744, height: 5164 },
  // 800 × 500 × 99 frames = 39.6 megapixels decoded: the largest animation, all frames kept.
  { name: 'GIF', width: 800, height: 500, frames: 99 },
];
/** The pipeline benchmark's upload: a 12-megapixel phone photo carrying EXIF (GPS above all). */
export const PHOTO_12MP: Case = { name: '12 MP EXIF', width: 4000, height: 3000, exif: true };
export const MODES = ['from-bytes', 'decode-once'] as const;
export type Mode = (typeof MODES)[number];

export interface ChildReport {
  node: string;
  floorMB: number;
  firstPeakMB: number;
  peakMB: number;
  hwmMB: number | null;
  msPerImage: number[];
  variants: string;
}

const mb = (kb: number) => Math.round(kb / 1024);

/** The kernel's high-water mark of this process image's RSS, in MB (Linux only). */
function vmHwmMB(): number | null {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? mb(Number(m[1])) : null;
  } catch {
    return null;
  }
}

export const fixtureFile = (c: Case) =>
  join(
    tmpdir(),
    `weibo-media-bench-${c.width}x${c.height}${c.frames ? `x${c.frames}.gif` : c.exif ? '-exif.jpg' : '.jpg'}`,
  );

// What a phone writes (sharp's withExif: IFD0 the camera, IFD2 the shot, IFD3 the GPS position).
const PHONE_EXIF = {
  IFD0: { Make: 'BenchPhone', Model: 'Model 12', Software: 'bench 1.0', DateTime: '2025:05:01 10:20:30' },
  IFD2: { ExposureTime: '1/120', FNumber: '1.8', ISOSpeedRatings: '100', DateTimeOriginal: '2025:05:01 10:20:30' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '39/1 54/1 2700/100',
    GPSLongitudeRef: 'E',
    GPSLongitude: '116/1 23/1 3000/100',
  },
};

async function makeFixture(c: Case): Promise<void> {
  let bytes: Buffer;
  if (c.frames) {
    // Moving diagonal bands: smooth enough for GIF's LZW to stay under the size limit.
    const frame = c.width * c.height * 3;
    const raw = Buffer.alloc(frame * c.frames);
    for (let f = 0; f < c.frames; f++)
      for (let y = 0; y < c.height; y++)
        for (let x = 0; x < c.width; x++) {
          const at = f * frame + (y * c.width + x) * 3;
          raw[at] = (x + y + f * 8) & 0xff;
          raw[at + 1] = (x - y) & 0xff;
          raw[at + 2] = (y + f * 4) & 0xff;
        }
    bytes = await sharp(raw, {
      raw: { width: c.width, height: c.height * c.frames, channels: 3, pageHeight: c.height },
    })
      .gif({ delay: Array(c.frames).fill(40), loop: 0 })
      .toBuffer();
  } else {
    let photo = sharp({
      create: {
        width: c.width,
        height: c.height,
        channels: 3,
        background: '#4477aa',
        noise: { type: 'gaussian', mean: 128, sigma: 18 },
      },
    });
    if (c.exif) photo = photo.withMetadata({ orientation: 6 }).withExif(PHONE_EXIF);
    bytes = await photo.jpeg({ quality: 85 }).toBuffer();
  }
  if (c.width * c.height * (c.frames ?? 1) > MAX_PIXELS || bytes.length > MAX_UPLOAD_BYTES)
    throw new Error(`fixture ${c.name} is over a limit (${bytes.length} bytes)`);
  writeFileSync(fixtureFile(c), bytes);
}

/** The alternative measured against the processor: one full decode, the variants from its pixels. */
async function decodeOnce(bytes: Uint8Array): Promise<string> {
  const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS, autoOrient: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const side = Math.min(360, info.width, info.height);
  const out = [
    await sharp(data, raw).resize({ width: side, height: side, fit: 'cover' }).webp({ quality: 80 }).toBuffer(),
    await sharp(data, raw)
      .resize({ width: 690, height: 16_383, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer(),
    await sharp(data, raw)
      .resize({ width: 2048, height: 2048, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer(),
  ];
  await sharp(out[1]!).stats();
  return out.map((b) => `${Math.round(b.length / 1024)} KB`).join(' / ');
}

async function child(file: string, mode: Mode): Promise<void> {
  const processor = new SharpImageProcessor();
  const bytes = new Uint8Array(readFileSync(file));
  const floorMB = mb(process.resourceUsage().maxRSS);
  const msPerImage: number[] = [];
  let firstPeakMB = 0;
  let variants = '';
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    if (mode === 'from-bytes') {
      const r = await processor.process(bytes, 'post');
      if (isRefusal(r)) throw new Error(`refused: ${r.refused}`);
      variants = r.variants
        .map((v) => `${v.name} ${v.width}×${v.height} ${Math.round(v.bytes.length / 1024)} KB`)
        .join(' / ');
    } else {
      variants = await decodeOnce(bytes);
    }
    msPerImage.push(Math.round(performance.now() - t0));
    if (i === 0) firstPeakMB = mb(process.resourceUsage().maxRSS);
  }
  const report: ChildReport = {
    node: process.version,
    floorMB,
    firstPeakMB,
    peakMB: mb(process.resourceUsage().maxRSS),
    hwmMB: vmHwmMB(),
    msPerImage,
    variants,
  };
  process.stdout.write(JSON.stringify(report));
}

/** The fixture's path, generated first (in a child: see the header) when it is not there yet. */
export function ensureFixture(c: Case): string {
  const file = fixtureFile(c);
  if (!existsSync(file)) {
    process.stderr.write(`generating ${file}…\n`);
    const made = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--fixture', c.name], { stdio: 'inherit' });
    if (made.status !== 0) throw new Error(`fixture ${c.name} failed`);
  }
  return file;
}

/**
 * One case in a child process of its own: `repeat` images one after another, as a warm
 * container; `env` is added to the child's environment (the function's MALLOC_ARENA_MAX, read
 * at process start).
 */
export function measureInChild(
  c: Case,
  mode: Mode,
  opts: { repeat?: number; env?: Record<string, string> } = {},
): ChildReport {
  const file = ensureFixture(c);
  const run = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--child', file, mode], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    env: { ...process.env, ...opts.env, MEDIA_BENCH_REPEAT: String(opts.repeat ?? REPEAT) },
  });
  if (run.status !== 0) throw new Error(`child ${c.name} ${mode} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as ChildReport;
}

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const c of CASES) {
    const file = ensureFixture(c);
    const size = (readFileSync(file).length / 1048576).toFixed(1);
    // Decoding an animation once means every frame at full size: only the processor's way is measured.
    for (const mode of c.frames ? (['from-bytes'] as const) : MODES) {
      const r = measureInChild(c, mode);
      rows.push(
        `${c.name.padEnd(6)} ${`${c.width}×${c.height}${c.frames ? `×${c.frames}` : ''}`.padEnd(13)} ${`${size} MB`.padEnd(8)} ${mode.padEnd(12)} ` +
          `floor ${String(r.floorMB).padStart(4)} MB  peak after 1st ${String(r.firstPeakMB).padStart(4)} MB  after ${REPEAT} ${String(r.peakMB).padStart(4)} MB (VmHWM ${r.hwmMB ?? '?'})  ` +
          `ms/image ${r.msPerImage.join(', ')}  (${r.node})`,
      );
      process.stderr.write(`${rows.at(-1)}\n    ${r.variants}\n`);
    }
  }
  process.stdout.write(`\nparent peak RSS ${mb(process.resourceUsage().maxRSS)} MB\n${rows.join('\n')}\n`);
}

// Run as a script (or as one of its own children); imported, it only lends its functions.
if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4] as Mode);
else if (process.argv[2] === '--fixture')
  await makeFixture([...CASES, PHOTO_12MP].find((c) => c.name === process.argv[3])!);
else if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(SELF)) await main();
