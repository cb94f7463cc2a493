// shared/use-cases/media/process-media.ts — the media worker's one job: make an upload safe and
// small. Idempotent under redelivery and duplicate delivery (tables.ts media, interleavings):
// every object it writes has a fixed key, and every state move is conditional.
import { variantAccess } from '../../domain/media.js';
import type { MediaDescriptor, MediaRecord } from '../../ports/media-store.js';
import { announce } from '../live.js';
import type { MediaWorkerDeps } from './media-deps.js';

export type ProcessOutcome =
  | { outcome: 'ready'; variants: number }
  | { outcome: 'failed'; reason: string }
  /** Nothing to do: no such record, it is already ready or failed (a repeat), or being discarded. */
  | { outcome: 'skipped'; state: string };

/**
 * Steps: the record → ready or failed already: nothing → `uploading` (the completion call died
 * before its move): move it to processing here → the original's bytes (gone: failed
 * `upload_missing`) → the processor (it decides the format by the bytes, refuses bombs from the
 * header, strips metadata) → a refusal: failed with its reason → every variant object, THEN
 * processing → ready with what was found → the original is removed (never served: it may carry
 * GPS). A loser of any move leaves the record as the winner left it.
 */
export async function processMedia(deps: MediaWorkerDeps, id: string): Promise<ProcessOutcome> {
  const media = await deps.media.get(id);
  if (!media) return { outcome: 'skipped', state: 'absent' };
  const outcome = await processRecord(deps, id, media);
  // The uploader's clients are told the picture finished (once, however often this runs: a
  // repeat after a cut before the telling tells it then).
  const state = outcome.outcome === 'skipped' ? outcome.state : outcome.outcome;
  if (deps.announcer && (state === 'ready' || state === 'failed'))
    await announce(deps.announcer, [media.owner], { kind: 'media', mediaId: id, state }, Date.now());
  return outcome;
}

async function processRecord(deps: MediaWorkerDeps, id: string, media: MediaRecord): Promise<ProcessOutcome> {
  if (media.state === 'ready' || media.state === 'failed') return { outcome: 'skipped', state: media.state };
  if (media.discarding) return { outcome: 'skipped', state: 'discarding' };
  if (media.state === 'uploading' && !(await deps.media.move(id, 'uploading', 'processing'))) {
    const now = await deps.media.get(id);
    if (now?.state !== 'processing') return { outcome: 'skipped', state: now?.state ?? 'absent' };
  }
  const bytes = await deps.objects.readUpload(id);
  if (!bytes) return failed(deps, id, 'upload_missing');
  // The declared size is at most 20 MB (startUpload); anything else is not the upload that was declared.
  if (bytes.length !== media.declaredBytes) return failed(deps, id, 'size_mismatch');
  const result = await deps.images.process(bytes, media.purpose);
  if ('refused' in result) {
    const outcome = await failed(deps, id, result.refused);
    await deps.objects.removeUpload(id);
    return outcome;
  }
  const access = variantAccess(media.purpose);
  await Promise.all(result.variants.map((v) => deps.objects.putVariant(id, v.name, v.contentType, v.bytes, access)));
  const descriptor: MediaDescriptor = {
    width: result.width,
    height: result.height,
    animated: result.animated,
    placeholder: result.placeholder,
    variants: result.variants.map((v) => ({ name: v.name, width: v.width, height: v.height })),
  };
  if (!(await deps.media.finish(id, descriptor))) return lost(deps, id);
  await deps.objects.removeUpload(id);
  return { outcome: 'ready', variants: result.variants.length };
}

async function failed(deps: MediaWorkerDeps, id: string, reason: string): Promise<ProcessOutcome> {
  return (await deps.media.fail(id, 'processing', reason)) ? { outcome: 'failed', reason } : lost(deps, id);
}

/** Another delivery moved the record first: it stays as that one left it. */
async function lost(deps: MediaWorkerDeps, id: string): Promise<ProcessOutcome> {
  return { outcome: 'skipped', state: (await deps.media.get(id))?.state ?? 'absent' };
}
