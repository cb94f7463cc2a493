// shared/ports/media-objects.ts — where the bytes of pictures live (S3 in production, a local
// S3-compatible server in development): the original a browser uploads, and the variants the
// worker makes. Functions never carry image bytes through the API: the browser sends them
// straight to storage with a presigned request. A variant is public (anyone with its URL) or
// private (a message picture: only a presigned GET reads it), by its purpose (domain/media.ts).
import type { VariantAccess } from '../domain/media.js';

/** A request the browser makes itself to upload the original: method, URL and the headers it must send. */
export interface PresignedUpload {
  method: 'PUT';
  url: string;
  /** Signed: the upload must carry exactly these (content type and length). */
  headers: Record<string, string>;
  expiresAt: number;
}

export interface MediaObjects {
  /** A PUT of exactly `bytes` bytes of `contentType` to the upload of `id`, valid for `seconds`. */
  presignUpload(id: string, contentType: string, bytes: number, seconds: number): Promise<PresignedUpload>;
  /** The size of the uploaded original, or null when nothing was uploaded (yet). */
  uploadedBytes(id: string): Promise<number | null>;
  /** The uploaded original's bytes, or null when it is gone. */
  readUpload(id: string): Promise<Uint8Array | null>;
  /**
   * Stores one processed variant (same id and name: the same object, so a redelivery rewrites
   * it), public unless `access` says private.
   */
  putVariant(id: string, name: string, contentType: string, bytes: Uint8Array, access?: VariantAccess): Promise<void>;
  removeUpload(id: string): Promise<void>;
  /** Deletes one variant object; nothing there is no error (a repeat). */
  removeVariant(id: string, name: string, access?: VariantAccess): Promise<void>;
  /** Where a browser fetches a public variant. */
  variantUrl(id: string, name: string): string;
}

/**
 * What showing a message picture needs of storage: a GET of a private variant, signed for
 * `seconds` from `now`. Computed in the function (no request to storage, nothing to await);
 * implemented by adapters/s3/private-variant-signer.ts.
 */
export interface PrivateVariantSigner {
  signedVariantUrl(id: string, name: string, seconds: number, now?: number): string;
}
