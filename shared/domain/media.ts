// shared/domain/media.ts — domain floor: the product's rules for pictures. What a client may
// declare, what the worker accepts, the limits, and the words for every refusal. The format is
// decided here from the file's first bytes only: a client's declared type and a file name are
// its word, and an HTML page renamed .jpg must not become a "picture" served from our domain.
import { MAX_PIXELS, MAX_UPLOAD_BYTES } from './limits.js';
import type { MediaPurpose } from './media-id.js';

/**
 * Who may fetch a picture's variants: anyone who has the URL (`public`: a post's pictures, avatars
 * and covers, served by the CDN under media/), or only the holder of a short-lived signed URL
 * (`private`: a picture in a private message, stored under private/ and never behind the CDN).
 */
export type VariantAccess = 'public' | 'private';
export const variantAccess = (purpose: MediaPurpose): VariantAccess => (purpose === 'message' ? 'private' : 'public');

/**
 * How long a signed URL of a message picture stays valid: long enough to read a conversation and
 * open a picture, short enough that a copied link stops working soon. A conversation read again
 * gets fresh URLs.
 */
export const MESSAGE_PICTURE_URL_SECONDS = 600;

/**
 * A picture in a private message is claimed (the media row's m:a) as
 * `dm:<conversation id>:<sender>:<clientId>`: not a post id, nor an avatar's `@<handle>`. Such a
 * claim is kept by the cleanup job and the discard worker until the message's recall or erasure
 * gives it back (use-cases/media/message-pictures.ts).
 */
export const MESSAGE_CLAIM_PREFIX = 'dm:';
export const isMessageClaim = (holder: string): boolean => holder.startsWith(MESSAGE_CLAIM_PREFIX);

/** The content types a client may declare for an upload (the presigned request enforces it). */
export const DECLARABLE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type DeclarableType = (typeof DECLARABLE_TYPES)[number];

export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'gif'] as const;
/** A format the worker accepts, as sniffed from the bytes. */
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
/** What the first bytes say: an accepted format, one refused for a reason of its own, or neither. */
export type SniffedFormat = ImageFormat | 'heic' | 'svg' | 'unknown';

export const isImageFormat = (f: string): f is ImageFormat => (IMAGE_FORMATS as readonly string[]).includes(f);

/**
 * How many leading bytes sniffFormat looks at, at most (enough for markup behind a little
 * whitespace); a caller that reads a ranged head of an object reads this many.
 */
export const SNIFF_BYTES = 512;

export const MEDIA_REFUSALS = [
  'unsupported_format',
  'heic_unsupported',
  'svg_refused',
  'too_many_pixels',
  'too_large',
  'corrupt_image',
] as const;
/** Why an upload will never become a picture (the media record's `failed` reason). */
export type MediaRefusal = (typeof MEDIA_REFUSALS)[number];

const MESSAGES: Record<MediaRefusal, string> = {
  unsupported_format: 'This file is not a picture we accept: use JPEG, PNG, WebP or GIF.',
  heic_unsupported: 'HEIC/HEIF photos are not supported yet: export the photo as JPEG and try again.',
  svg_refused: 'SVG and other markup (XML, HTML) are refused: they can carry scripts.',
  too_many_pixels: `The picture is too big: at most ${MAX_PIXELS / 1_000_000} megapixels (all frames of an animation together).`,
  too_large: `The file is too large: at most ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.`,
  corrupt_image: 'The picture is damaged or incomplete and cannot be read.',
};

export const refusalMessage = (reason: MediaRefusal): string => MESSAGES[reason];

/**
 * The refusal a picture's header earns by its size alone: every decoded frame costs memory, so
 * an animation counts all of them (`frames` from the header; 1 for a still picture).
 */
export function pixelRefusal(width: number, height: number, frames = 1): MediaRefusal | null {
  return width * height * Math.max(1, frames) > MAX_PIXELS ? 'too_many_pixels' : null;
}

/** The refusal a sniffed format earns by itself, or null when the format is accepted. */
export function formatRefusal(format: SniffedFormat): MediaRefusal | null {
  switch (format) {
    case 'heic':
      return 'heic_unsupported';
    case 'svg':
      return 'svg_refused';
    case 'unknown':
      return 'unsupported_format';
    default:
      return null;
  }
}

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0): boolean =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

const ascii = (b: Uint8Array, from: number, to: number): string => String.fromCharCode(...b.subarray(from, to));

// ISO-BMFF brands of HEIF images from phones (HEVC-coded). AVIF shares the container but is
// another codec: it stays `unknown` rather than being told it is HEIC.
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const HEIF_GENERIC_BRANDS = new Set(['mif1', 'msf1']);

function isHeic(b: Uint8Array): boolean {
  if (b.length < 12 || ascii(b, 4, 8) !== 'ftyp') return false;
  const major = ascii(b, 8, 12);
  if (HEIC_BRANDS.has(major)) return true;
  if (!HEIF_GENERIC_BRANDS.has(major)) return false;
  // A generic major brand: the compatible brands (after the minor version) say which codec.
  const boxEnd = Math.min(b.length, ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0);
  for (let at = 16; at + 4 <= boxEnd; at += 4) if (HEIC_BRANDS.has(ascii(b, at, at + 4))) return true;
  return false;
}

// How markup starts: an SVG may open with an XML declaration, a doctype, a comment or the
// element itself; an HTML page with any of the tags a browser's sniffer takes for HTML (the
// WHATWG MIME Sniffing list). All of it is a script vector once a browser renders it.
const MARKUP_START =
  /^<(?:!--|(?:\?xml|!doctype|svg|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p)(?:[\s>/:]|$))/i;

/** The head as text with a BOM and leading whitespace dropped (UTF-8, or UTF-16 by its BOM). */
function leadingText(b: Uint8Array): string {
  let text: string;
  if (startsWith(b, [0xfe, 0xff]) || startsWith(b, [0xff, 0xfe])) {
    const le = b[0] === 0xff;
    const units: number[] = [];
    for (let i = 2; i + 1 < b.length; i += 2) units.push(le ? b[i]! | (b[i + 1]! << 8) : (b[i]! << 8) | b[i + 1]!);
    text = String.fromCharCode(...units);
  } else {
    text = new TextDecoder('utf-8', { fatal: false }).decode(startsWith(b, [0xef, 0xbb, 0xbf]) ? b.subarray(3) : b);
  }
  return text.replace(/^[\s\uFEFF]+/, '');
}

/**
 * The format of a file from its first bytes (pass at least the first SNIFF_BYTES when the file
 * is longer): magic numbers only, never a declared type or a name.
 */
export function sniffFormat(head: Uint8Array): SniffedFormat {
  const b = head.subarray(0, SNIFF_BYTES);
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 16 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' && /^VP8[ LX]$/.test(ascii(b, 12, 16)))
    return 'webp';
  if (isHeic(b)) return 'heic';
  if (MARKUP_START.test(leadingText(b))) return 'svg';
  return 'unknown';
}
