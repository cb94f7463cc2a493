// shared/ports/image-processor.ts — what the media worker needs to turn an upload into pictures
// we can serve: the bytes in, either the variants to store or the reason they will never exist.
// One implementation on libvips (shared/adapters/images/sharp-image-processor.ts); unit tests of
// the worker may fake it.
import type { ImageFormat, MediaRefusal } from '../domain/media.js';
import type { MediaPurpose } from '../domain/media-id.js';

/** One stored size of a picture. Always WebP, and carries no metadata (no EXIF, no GPS). */
export interface ImageVariant {
  /** post: `thumb` | `feed` | `large`; avatar: `avatar-96` | `avatar-400`; cover: `cover`; message: `thumb` | `large`. */
  name: string;
  contentType: 'image/webp';
  width: number;
  height: number;
  bytes: Uint8Array;
}

export interface ProcessedImage {
  /** The input's format, from its bytes. */
  format: ImageFormat;
  /** The picture as shown: after EXIF orientation is applied (a portrait photo is taller than wide). */
  width: number;
  height: number;
  /** More than one frame: the feed and large variants are animated WebP, the thumbnail is the first frame. */
  animated: boolean;
  /** The dominant colour, `#rrggbb` lowercase: what the client paints before the bytes arrive. */
  placeholder: string;
  variants: ImageVariant[];
}

/** The upload will never become a picture; the same bytes always earn the same refusal. */
export interface ImageRefusal {
  refused: MediaRefusal;
}

export interface ImageProcessor {
  /**
   * Decides the format from the bytes, checks the limits before decoding, and makes the
   * purpose's variants. A refusal is an answer; a thrown error is not about the image (a
   * resource ran out) and is worth a retry.
   */
  process(bytes: Uint8Array, purpose: MediaPurpose): Promise<ProcessedImage | ImageRefusal>;
}

export const isRefusal = (r: ProcessedImage | ImageRefusal): r is ImageRefusal => 'refused' in r;

/** The variants each purpose gets, in the order process() returns them. */
export const VARIANT_NAMES: Record<MediaPurpose, readonly string[]> = {
  post: ['thumb', 'feed', 'large'],
  avatar: ['avatar-96', 'avatar-400'],
  cover: ['cover'],
  message: ['thumb', 'large'],
};
