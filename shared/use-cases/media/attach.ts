// shared/use-cases/media/attach.ts — pictures in a post (up to nine): each must be the author's
// own post picture, processed (ready), and in no other post. A picture belongs to at most one
// post: publish claims each with a check-and-put on its record (tables.ts media, m:a), so of two
// posts racing for one picture exactly one gets it, and the loser gives back the others it had
// claimed (invariant L, docs/consistency.md).
import { ConflictError, InvalidInputError } from '../../domain/errors.js';
import { isMediaId } from '../../domain/media-id.js';
import type { PostMedia } from '../../domain/post.js';
import type { PrivateVariantSigner } from '../../ports/media-objects.js';
import type { MediaQueue } from '../../ports/media-queue.js';
import type { MediaRecord, MediaStore } from '../../ports/media-store.js';

/**
 * What the feed use cases need of pictures: the records, where a variant is served, and the
 * media queue (a deleted post's pictures are discarded through it: ./discard.ts). The functions
 * that show private messages also sign their pictures' URLs (`signer`: the S3 client, wired in
 * shared/wiring/message-pictures.ts); every other function has none, and no S3 client.
 */
export interface Pictures {
  media: MediaStore;
  variantUrl(id: string, name: string): string;
  queue: MediaQueue;
  signer?: PrivateVariantSigner;
}

export interface PictureRequest {
  id: string;
  alt?: string;
}

/**
 * The requested pictures' records, in order, after the checks: the author's post pictures
 * (422 `media_not_found` otherwise: an id says nothing about whose it is), ready (409
 * `media_not_ready`: still processing, or failed), and in no post but `forPost` (409
 * `media_in_use`). One multi-get.
 */
export async function checkPictures(
  pictures: Pictures | undefined,
  author: string,
  wanted: readonly PictureRequest[],
  forPost?: string,
): Promise<MediaRecord[]> {
  if (wanted.length === 0) return [];
  if (!pictures) throw new Error('pictures are not configured (MEDIA_BUCKET, MEDIA_BASE_URL)');
  const ids = wanted.map((w) => w.id);
  const found = ids.every(isMediaId) ? await pictures.media.getMany(ids) : new Map<string, MediaRecord>();
  return ids.map((id) => {
    const m = found.get(id);
    // One being discarded is as good as gone. Only a post picture: an avatar, a cover or a
    // private message's picture (stored apart, never public) cannot go in a post.
    if (!m || m.discarding || m.owner !== author || m.purpose !== 'post')
      throw new InvalidInputError(`No picture ${id} of yours to post`, 'media_not_found');
    if (m.state !== 'ready')
      throw new ConflictError(
        `Picture ${id} is ${m.state === 'failed' ? 'refused' : 'not processed yet'}`,
        'media_not_ready',
      );
    if (m.attachedTo !== undefined && m.attachedTo !== forPost)
      throw new ConflictError(`Picture ${id} is already in another post`, 'media_in_use');
    return m;
  });
}

/**
 * Claims every picture for `postId` at `at` (the check-and-puts in parallel: one round trip; a
 * retry claims again at its own time, see MediaStore.attach). If another
 * post holds one of them, the ones claimed here are given back and the answer is 409
 * `media_in_use`: nothing is left half-claimed by a publish that fails.
 */
export async function attachPictures(
  pictures: Pictures | undefined,
  records: readonly MediaRecord[],
  postId: string,
  at: number,
): Promise<void> {
  if (records.length === 0) return;
  const media = pictures!.media;
  const won = await Promise.all(records.map((m) => media.attach(m.id, postId, at)));
  if (won.every(Boolean)) return;
  await releasePictures(
    pictures,
    records.filter((_, i) => won[i]),
    postId,
  );
  throw new ConflictError('One of these pictures is already in another post', 'media_in_use');
}

/** Gives back pictures claimed for a post that will not exist (a publish that stopped). */
export async function releasePictures(
  pictures: Pictures | undefined,
  records: readonly MediaRecord[],
  postId: string,
): Promise<void> {
  if (records.length === 0) return;
  await Promise.all(records.map((m) => pictures!.media.detach(m.id, postId)));
}

/**
 * Queues the discard of a deleted post's pictures (one message each; the worker removes each
 * only if it is still unreferenced when it runs). Nothing is sent where pictures are not configured.
 */
export async function discardPictures(pictures: Pictures | undefined, mediaIds: readonly string[]): Promise<void> {
  if (!pictures || mediaIds.length === 0) return;
  await Promise.all(mediaIds.map((mediaId) => pictures.queue.send({ v: 1, type: 'discard', mediaId })));
}

/** The pictures as the post carries them, in the author's order, with their alt text. */
export function postMediaOf(
  pictures: Pictures | undefined,
  records: readonly MediaRecord[],
  wanted: readonly PictureRequest[],
): PostMedia[] {
  return records.map((m, i) => {
    const d = m.descriptor!;
    const alt = wanted[i]?.alt;
    return {
      id: m.id,
      ...(alt ? { alt } : {}),
      width: d.width,
      height: d.height,
      animated: d.animated,
      placeholder: d.placeholder,
      variants: Object.fromEntries(
        d.variants.map((v) => [v.name, { width: v.width, height: v.height, url: pictures!.variantUrl(m.id, v.name) }]),
      ),
    };
  });
}
