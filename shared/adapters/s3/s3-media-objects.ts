// shared/adapters/s3/s3-media-objects.ts — secondary adapter: MediaObjects on S3 (deployed) or
// the local S3-compatible server (infra/local/object-store.ts). Keys: the uploaded original is
// `uploads/<id>` (private; a lifecycle rule expires what is never processed), the variants
// `media/<id>/<name>.webp` (served under /media/* by CloudFront; locally straight from the
// bucket), a message picture's `private/<id>/<name>.webp` (no CloudFront path: only a GET signed
// by ./private-variant-signer.ts, on the bucket's regional endpoint, reads it). Ids are random, so keys cannot be guessed. Data exports live in the same bucket under
// `exports/<handle>/…` (ports/export-files.ts): private, read only through a presigned GET.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { VariantAccess } from '../../domain/media.js';
import type { MediaObjects, PresignedUpload } from '../../ports/media-objects.js';
import type { ExportFiles } from '../../ports/export-files.js';
import { awsEndpointConfig, LOCAL_S3_CREDENTIALS } from '../aws-endpoint.js';
import { variantKey, variantUrls } from './variant-urls.js';

export interface S3MediaObjectsOptions {
  bucket: string;
  /** Where a browser fetches `media/<id>/<name>.webp`: the CDN's origin, or the local bucket's URL. */
  publicBaseUrl: string;
  /** Only for the local object store (path-style, its own static keys). */
  endpoint?: string;
  region?: string;
}

const uploadKey = (id: string) => `uploads/${id}`;

/** Variants never change under their key (a new picture is a new id): cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const PRIVATE_IMMUTABLE = 'private, max-age=31536000, immutable';

export class S3MediaObjects implements MediaObjects, ExportFiles {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #variantUrl: (id: string, name: string) => string;

  constructor(opts: S3MediaObjectsOptions) {
    this.#bucket = opts.bucket;
    this.#variantUrl = variantUrls(opts.publicBaseUrl);
    this.#client = new S3Client({
      ...awsEndpointConfig(opts),
      ...(opts.endpoint ? { credentials: LOCAL_S3_CREDENTIALS, forcePathStyle: true } : {}),
      maxAttempts: 3,
      // Checksums only where S3 requires them: by default (SDK ≥ 3.729) a presigned PutObject
      // carries the CRC32 of an EMPTY body, and S3 refuses every real upload to it
      // (aws-sdk-js-v3#6994). The local object store ignores checksums, so no local test sees it.
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
  }

  async presignUpload(id: string, contentType: string, bytes: number, seconds: number): Promise<PresignedUpload> {
    const command = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: uploadKey(id),
      ContentType: contentType,
      ContentLength: bytes,
    });
    // Both headers are signed: storage refuses an upload of another type or length.
    const url = await getSignedUrl(this.#client, command, {
      expiresIn: seconds,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    return { method: 'PUT', url, headers: { 'content-type': contentType }, expiresAt: Date.now() + seconds * 1000 };
  }

  async uploadedBytes(id: string): Promise<number | null> {
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: uploadKey(id) }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async readUpload(id: string): Promise<Uint8Array | null> {
    try {
      const res = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: uploadKey(id) }));
      return res.Body ? await res.Body.transformToByteArray() : new Uint8Array();
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async putVariant(
    id: string,
    name: string,
    contentType: string,
    bytes: Uint8Array,
    access: VariantAccess = 'public',
  ): Promise<void> {
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: variantKey(id, name, access),
        Body: bytes,
        ContentType: contentType,
        // A private picture is kept by no shared cache; the browser may keep it (its URL changes
        // with every signature anyway).
        CacheControl: access === 'private' ? PRIVATE_IMMUTABLE : IMMUTABLE,
      }),
    );
  }

  async removeUpload(id: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: uploadKey(id) }));
  }

  // One DeleteObject per key, by name: a DeleteObjects batch or a listing of media/<id>/ would
  // need ListBucket on the whole bucket, and the worker's role holds DeleteObject on the two key
  // prefixes only. Deleting a key that is not there succeeds (204), so a repeat is a no-op.
  async removeVariant(id: string, name: string, access: VariantAccess = 'public'): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: variantKey(id, name, access) }));
  }

  variantUrl(id: string, name: string): string {
    return this.#variantUrl(id, name);
  }

  async putExport(key: string, json: string): Promise<void> {
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: key,
        Body: json,
        ContentType: 'application/json; charset=utf-8',
        CacheControl: 'private, no-store',
      }),
    );
  }

  async exportUrl(key: string, seconds: number): Promise<{ url: string; expiresAt: number }> {
    // Saved as a file named for the export, not shown in the tab.
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: key,
      ResponseContentDisposition: `attachment; filename="${key.split('/').at(-1)}"`,
    });
    return {
      url: await getSignedUrl(this.#client, command, { expiresIn: seconds }),
      expiresAt: Date.now() + seconds * 1000,
    };
  }
}

const isNotFound = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound' || err.name === 'NoSuchKey');
