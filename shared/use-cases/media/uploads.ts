// shared/use-cases/media/uploads.ts — the upload flow, as the API runs it: declare (a media
// record and a presigned upload), complete (the bytes are there: queue the processing), read.
// The browser sends the bytes straight to object storage; no function ever carries them.
//
// Why an explicit completion call rather than an S3 event: it behaves the same against S3 and
// the local object store (which sends no bucket notifications), the API checks with a HEAD
// that the bytes really arrived and have the declared size before anything is queued, and the
// client learns at once whether processing started. Redelivery and repeats are safe: every
// state move is conditional (tables.ts media), a repeated completion answers the state as it is.
import { DECLARABLE_TYPES, MAX_UPLOAD_BYTES } from '../../domain/media.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { isMediaId, newMediaId, type MediaPurpose } from '../../domain/media-id.js';
import type { PresignedUpload } from '../../ports/media-objects.js';
import type { MediaRecord } from '../../ports/media-store.js';
import { takeWriteQuota } from '../write-limits.js';
import type { MediaDeps } from './media-deps.js';

export interface UploadRequest {
  contentType: string;
  /** The exact size in bytes. */
  size: number;
  purpose: MediaPurpose;
}

/**
 * Steps: the declared type must be one a picture can have and the size at most 20 MB (422) →
 * the write limit (429) → the record, `uploading` → the presigned PUT, which signs the type and
 * the exact length (storage refuses any other upload). The declared type is only the client's
 * word: the worker decides the format by the bytes.
 */
export async function startUpload(deps: MediaDeps, owner: string, req: UploadRequest, now = Date.now()): Promise<{ media: MediaRecord; upload: PresignedUpload }> {
  if (!(DECLARABLE_TYPES as readonly string[]).includes(req.contentType)) {
    throw new InvalidInputError(`Pictures are JPEG, PNG, WebP or GIF; "${req.contentType}" is not accepted`, 'media_type_refused');
  }
  if (req.size > MAX_UPLOAD_BYTES) {
    throw new InvalidInputError(`A picture is at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`, 'media_too_large');
  }
  await takeWriteQuota(deps, owner, 'upload', now);
  const media = { id: newMediaId(), owner, purpose: req.purpose, declaredType: req.contentType, declaredBytes: req.size, createdAt: now };
  await deps.media.create(media);
  const upload = await deps.objects.presignUpload(media.id, req.contentType, req.size, deps.limits.uploadUrlSeconds);
  return { media: { ...media, state: 'uploading' }, upload };
}

/** The record of `id` if `reader` owns it; 404 otherwise (an id says nothing about whose it is). */
async function owned(deps: Pick<MediaDeps, 'media'>, reader: string, id: string): Promise<MediaRecord> {
  const media = isMediaId(id) ? await deps.media.get(id) : null;
  // One being discarded is as good as gone (its objects may be already).
  if (!media || media.discarding || media.owner !== reader) throw new NotFoundError('No such media', 'media_not_found');
  return media;
}

/**
 * The owner says the upload is done. Steps: the record (404) → not `uploading` any more: its
 * state as it is (a repeat) → HEAD the upload: nothing there, 409 `upload_missing` (the record
 * stays uploading: upload, then call again); another size than declared → failed → queue the
 * processing, THEN move uploading → processing (a call that dies in between leaves the message
 * on its way, and the worker makes the move itself: tables.ts media).
 */
export async function completeUpload(deps: MediaDeps, owner: string, id: string): Promise<MediaRecord> {
  const media = await owned(deps, owner, id);
  if (media.state !== 'uploading') return media;
  const size = await deps.objects.uploadedBytes(id);
  if (size === null) throw new ConflictError('Nothing has been uploaded for this media yet', 'upload_missing');
  if (size !== media.declaredBytes) {
    await deps.media.fail(id, 'uploading', 'size_mismatch');
    return (await deps.media.get(id)) ?? media;
  }
  await deps.queue.send({ v: 1, type: 'process', mediaId: id });
  if (await deps.media.move(id, 'uploading', 'processing')) return { ...media, state: 'processing' };
  return (await deps.media.get(id)) ?? media;
}

/** The owner's view of an upload: its state, and once ready its sizes and placeholder. */
export function readMedia(deps: Pick<MediaDeps, 'media'>, reader: string, id: string): Promise<MediaRecord> {
  return owned(deps, reader, id);
}
