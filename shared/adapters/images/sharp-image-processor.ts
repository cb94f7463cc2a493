// shared/adapters/images/sharp-image-processor.ts — secondary adapter: the ImageProcessor port on
// libvips (sharp). The order is the point: size, then the format from the magic bytes, then the
// header (dimensions without decoding a pixel), and only then a decode — so a hostile file is
// refused before it can cost memory. Every variant is WebP with no metadata at all.
import sharp from 'sharp';
import { formatRefusal, pixelRefusal, sniffFormat, type ImageFormat, type MediaRefusal } from '../../domain/media.js';
import type { MediaPurpose } from '../../domain/media-id.js';
import type { ImageProcessor, ImageRefusal, ImageVariant, ProcessedImage } from '../../ports/image-processor.js';
import { MAX_PIXELS, MAX_UPLOAD_BYTES } from '../../domain/limits.js';

/** How a variant is cut: a centred square, or the whole picture fitted inside a box. */
type Cut = { kind: 'square'; side: number } | { kind: 'inside'; width: number; height: number };

interface VariantSpec {
  name: string;
  cut: Cut;
  /** Keeps every frame of an animation; otherwise the first frame only. */
  animate: boolean;
}

// WebP cannot encode a side over 16383 px: a long screenshot (Weibo's 长图) 690 px wide could
// exceed it, so the feed size is also bounded in height.
const WEBP_MAX_SIDE = 16_383;

// The grid thumbnail is the first frame: nine animated tiles would cost every reader of a grid
// the bytes and CPU of nine animations; the card marks an animation (`animated`) and the feed
// and large sizes play it, as Weibo's grid does. Avatars are still pictures for the same reason.
const VARIANTS: Record<MediaPurpose, readonly VariantSpec[]> = {
  post: [
    { name: 'thumb', cut: { kind: 'square', side: 360 }, animate: false },
    { name: 'feed', cut: { kind: 'inside', width: 690, height: WEBP_MAX_SIDE }, animate: true },
    { name: 'large', cut: { kind: 'inside', width: 2048, height: 2048 }, animate: true },
  ],
  avatar: [
    { name: 'avatar-96', cut: { kind: 'square', side: 96 }, animate: false },
    { name: 'avatar-400', cut: { kind: 'square', side: 400 }, animate: false },
  ],
  // A profile's banner: the whole picture at most 1500 px wide (the page crops it to its band).
  cover: [{ name: 'cover', cut: { kind: 'inside', width: 1500, height: 1500 }, animate: false }],
  // A picture in a private message: the conversation's tile (a post's grid size) and the whole
  // picture opened (a post's large size). No feed size: a conversation shows tiles only.
  message: [
    { name: 'thumb', cut: { kind: 'square', side: 360 }, animate: false },
    { name: 'large', cut: { kind: 'inside', width: 2048, height: 2048 }, animate: true },
  ],
};

// The variant the placeholder colour is taken from: small, and the whole picture (the thumb is a crop).
const PLACEHOLDER_FROM: Record<MediaPurpose, string> = {
  post: 'feed',
  avatar: 'avatar-96',
  cover: 'cover',
  message: 'large',
};

// libvips' loader names for the formats we accept (they sniff too; both must agree).
const LOADER: Record<ImageFormat, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif' };

const WEBP_QUALITY = 80;

export interface SharpImageProcessorOptions {
  /** libvips worker threads per image (default 1; see the constructor). */
  threads?: number;
}

const refuse = (refused: MediaRefusal): ImageRefusal => ({ refused });

const hex = (n: number) =>
  Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0');

export class SharpImageProcessor implements ImageProcessor {
  constructor(opts: SharpImageProcessorOptions = {}) {
    // A worker handles one image after another and never the same one twice: libvips' operation
    // cache would only hold decoded pixels between invocations, so memory returns after each image.
    sharp.cache(false);
    // One thread: a function's memory is sized for one image in flight, and each libvips thread
    // keeps buffers of its own; with glibc's allocator, fewer threads also fragment less (sharp
    // picks 1 there by itself; saying so makes it independent of the allocator). glibc's arenas
    // still let a warm process grow image after image; MALLOC_ARENA_MAX=2 in the function's
    // environment (read at process start, so not settable here) holds it: see the bench.
    sharp.concurrency(opts.threads ?? 1);
  }

  async process(bytes: Uint8Array, purpose: MediaPurpose): Promise<ProcessedImage | ImageRefusal> {
    if (bytes.byteLength > MAX_UPLOAD_BYTES) return refuse('too_large');
    const format = sniffFormat(bytes);
    const refused = formatRefusal(format);
    if (refused) return refuse(refused);
    const accepted = format as ImageFormat;

    // The header only: metadata() parses dimensions and frame count without decoding pixels.
    let meta: sharp.Metadata;
    try {
      meta = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
    } catch (err) {
      return classifyImageError(err);
    }
    if (meta.format !== LOADER[accepted]) return refuse('unsupported_format');
    const frames = meta.pages ?? 1;
    const tooBig = pixelRefusal(meta.width, meta.height, frames);
    if (tooBig) return refuse(tooBig);
    const animated = frames > 1;
    const { width, height } = meta.autoOrient;

    try {
      const variants: ImageVariant[] = [];
      // One variant after another, each from the bytes: a JPEG is then decoded at 1/2, 1/4 or
      // 1/8 scale straight to the size needed (shrink-on-load), and libvips streams it, so the
      // whole full-size picture is never in memory at once. Measured (test/bench/media-memory.ts)
      // on a 40-megapixel JPEG: a peak RSS of ~135 MB this way, ~245 MB decoding once and
      // deriving every variant from the pixels, for about the same time.
      for (const spec of VARIANTS[purpose]) variants.push(await this.#variant(bytes, spec, animated, width, height));
      const from = variants.find((v) => v.name === PLACEHOLDER_FROM[purpose])!;
      return { format: accepted, width, height, animated, placeholder: await dominantColour(from.bytes), variants };
    } catch (err) {
      return classifyImageError(err);
    }
  }

  async #variant(
    bytes: Uint8Array,
    spec: VariantSpec,
    animated: boolean,
    width: number,
    height: number,
  ): Promise<ImageVariant> {
    const image = sharp(bytes, {
      // 'error', not 'truncated': a file the decoder calls broken is refused rather than stored
      // half grey; warnings (recoverable corrupt data, stray bytes before the end marker, which
      // cameras and editors do write) still pass, as the default 'warning' would refuse them.
      failOn: 'error',
      // The second guard, in libvips itself: it refuses to decode past the limit even if the
      // header check above were wrong about the frames.
      limitInputPixels: MAX_PIXELS,
      // Applies the EXIF orientation before any resize (and drops the tag).
      autoOrient: true,
      animated: animated && spec.animate,
    });
    if (spec.cut.kind === 'square') {
      // Never upscaled: a small picture gets a smaller square, the client scales it in CSS.
      const side = Math.min(spec.cut.side, width, height);
      image.resize({ width: side, height: side, fit: 'cover', position: 'centre' });
    } else {
      image.resize({ width: spec.cut.width, height: spec.cut.height, fit: 'inside', withoutEnlargement: true });
    }
    // No keepMetadata / keepExif / withMetadata / withIccProfile: sharp then writes no EXIF, XMP,
    // IPTC or ICC at all (pixels are converted to sRGB first). GPS coordinates in a photo's EXIF
    // must never reach a served file; test/unit/images.test.ts parses the output to prove it.
    const { data, info } = await image.webp({ quality: WEBP_QUALITY }).toBuffer({ resolveWithObject: true });
    return {
      name: spec.name,
      contentType: 'image/webp',
      width: info.width,
      // An animation comes back as its frames stacked: the picture's height is one frame's.
      height: info.pageHeight ?? info.height,
      bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    };
  }
}

/** `#rrggbb` of the most frequent colour, transparency flattened onto white (the page's background). */
async function dominantColour(webp: Uint8Array): Promise<string> {
  // stats() reads the input, not the pipeline: flatten first, into raw pixels of the small variant.
  const { data, info } = await sharp(webp)
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { dominant } = await sharp(data, {
    raw: { width: info.width, height: info.height, channels: info.channels },
  }).stats();
  return `#${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`;
}

/**
 * What a libvips failure means. Decoding is deterministic, so an error about the input will
 * recur on every retry: it is a refusal. Errors that are not about the input are rethrown on
 * purpose, for the worker's retry and, past it, the dead-letter queue: resources running out
 * (memory, a timeout) may pass on a fresh instance; an argument sharp rejects, or an exception
 * that is not libvips' (a TypeError...), is a bug of ours and must not be recorded as the
 * user's broken file.
 */
export function classifyImageError(err: unknown): ImageRefusal {
  if (!(err instanceof Error) || err.constructor !== Error) throw err;
  const message = err.message;
  if (/^Expected /.test(message)) throw err;
  if (/out of memory|insufficient memory|(cannot|unable to) allocate|ENOMEM|timeout/i.test(message)) throw err;
  if (/pixel limit/i.test(message)) return refuse('too_many_pixels');
  return refuse('corrupt_image');
}
