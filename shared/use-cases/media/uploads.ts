// shared/use-cases/media/uploads.ts — the upload flow, as the API runs it: declare (a media
// record and a presigned upload), complete (the bytes are there: queue the processing), read.
// The browser sends the bytes straight to object storage; no function ever carries them.
//
// Why an explicit completion call rather than an S3 event: it behaves the same against S3 and
// the local object store (which sends no bucket notifications), the API checks with a HEAD
// that the bytes really arrived and have the declared size before anything is queued, and the
// client learns at once whether processing started. Redelivery and repeats are safe: every
// state move is conditional (tables.ts media), a repeated completion answers the state as it is.
//
// Starting an upload takes an Idempotency-Key (Stripe's semantics, ../idempotency.ts): the key is
// claimed for the media id beside the write limit; a retry with the same declaration answers the
// first upload as it is now with a fresh presigned PUT (200), or 410 `media_deleted` once it was
// removed; another declaration is 422. A record is removed without a tombstone, so the claim is
// marked once its record is made: a retry that finds no record tells "removed since" (marked: 410)
// from "never made" (the first request was refused, died, or is between its claim and its create
// right now: made under the claimed id, put-if-absent, one of the two creates wins).
import { DECLARABLE_TYPES } from '../../domain/media.js';
import { ConflictError, GoneError, InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { isMediaId, newMediaId, type MediaPurpose } from '../../domain/media-id.js';
import type { PresignedUpload } from '../../ports/media-objects.js';
import type { MediaRecord, NewMedia } from '../../ports/media-store.js';
import { keyMismatch, requestFingerprint } from '../idempotency.js';
import { atStep } from '../steps.js';
import { takeWriteQuota } from '../write-limits.js';
import type { MediaDeps } from './media-deps.js';
import { MAX_UPLOAD_BYTES } from '../../domain/limits.js';

export interface UploadRequest {
  contentType: string;
  /** The exact size in bytes. */
  size: number;
  purpose: MediaPurpose;
}

/** A started upload: the record and where to PUT the bytes; `replayed` when an earlier request with the same Idempotency-Key started it. */
export interface StartedUpload {
  media: MediaRecord;
  upload: PresignedUpload;
  replayed?: true;
}

const mediaDeleted = () => new GoneError('The upload this Idempotency-Key started has been removed', 'media_deleted');

/**
 * Steps: the declared type must be one a picture can have and the size at most 20 MB (422) →
 * the write limit (429) [∥ the Idempotency-Key's claim] → the record, `uploading`
 * (put-if-absent) [→ the claim marked made] → the presigned PUT, which signs the type and the
 * exact length (storage refuses any other upload). The declared type is only the client's
 * word: the worker decides the format by the bytes.
 */
export async function startUpload(
  deps: MediaDeps,
  owner: string,
  req: UploadRequest & { idempotencyKey?: string },
  now = Date.now(),
): Promise<StartedUpload> {
  if (!(DECLARABLE_TYPES as readonly string[]).includes(req.contentType)) {
    throw new InvalidInputError(
      `Pictures are JPEG, PNG, WebP or GIF; "${req.contentType}" is not accepted`,
      'media_type_refused',
    );
  }
  if (req.size > MAX_UPLOAD_BYTES) {
    throw new InvalidInputError(`A picture is at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`, 'media_too_large');
  }
  const key = req.idempotencyKey;
  const record = (id: string): NewMedia => ({
    id,
    owner,
    purpose: req.purpose,
    declaredType: req.contentType,
    declaredBytes: req.size,
    createdAt: now,
  });
  const started = async (media: MediaRecord, replayed: boolean): Promise<StartedUpload> => ({
    media,
    upload: await deps.objects.presignUpload(
      media.id,
      media.declaredType,
      media.declaredBytes,
      deps.limits.uploadUrlSeconds,
    ),
    ...(replayed ? { replayed: true as const } : {}),
  });

  if (key === undefined) {
    await takeWriteQuota(deps, owner, 'upload', now);
    const media = record(newMediaId());
    // A fresh random id (16 bytes): nothing else can have made it.
    if (!(await deps.media.create(media))) throw new Error(`media id ${media.id} was taken`);
    return started({ ...media, state: 'uploading' }, false);
  }

  const fingerprint = requestFingerprint('upload', [req.purpose, req.contentType, req.size]);
  const candidate = newMediaId();
  const [quota, claim] = await Promise.allSettled([
    takeWriteQuota(deps, owner, 'upload', now),
    deps.idempotency.claim(owner, key, { id: candidate, fingerprint }),
  ]);
  if (claim.status === 'rejected') throw quota.status === 'rejected' ? quota.reason : claim.reason;
  const earlier = claim.value;
  if (earlier) {
    if (earlier.fingerprint !== fingerprint || !isMediaId(earlier.id)) throw keyMismatch();
    const found = await deps.media.get(earlier.id);
    // The first outcome, whatever the write limit says now.
    if (found) return replay(found, earlier.created === true);
    if (earlier.created) throw mediaDeleted();
  }
  // A refusal keeps the claim: a retry makes the upload under the claimed id.
  if (quota.status === 'rejected') throw quota.reason;
  const id = earlier ? earlier.id : candidate;
  await atStep(deps, 'upload.claimed', { owner, mediaId: id });
  const media = record(id);
  if (!(await deps.media.create(media))) {
    // A request with the same key made it inside our gap: that upload is the answer.
    const found = await deps.media.get(id);
    if (!found)
      throw new ConflictError('A request with this idempotency key is in progress', 'idempotency_in_progress');
    return replay(found, true);
  }
  await deps.idempotency.markCreated(owner, key, id);
  return started({ ...media, state: 'uploading' }, false);

  /** An upload the key's first request started: as it is now (410 once being discarded), with a fresh presigned PUT. */
  async function replay(found: MediaRecord, marked: boolean): Promise<StartedUpload> {
    if (found.discarding) throw mediaDeleted();
    // A first request that died between its create and its mark: marked now, so that a retry
    // after a removal answers 410 rather than making it again.
    if (!marked) await deps.idempotency.markCreated(owner, key!, found.id);
    return started(found, true);
  }
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
