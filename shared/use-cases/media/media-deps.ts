// shared/use-cases/media/media-deps.ts — what the picture use cases are built from: the media
// records, the object storage, the media queue, the write limits, the idempotency keys, and (in the worker) the image
// processor and the posts' states. Composed in shared/wiring/media.ts and
// shared/wiring/media-worker.ts.
import type { ImageProcessor } from '../../ports/image-processor.js';
import type { MediaObjects } from '../../ports/media-objects.js';
import type { MediaQueue } from '../../ports/media-queue.js';
import type { MediaStore } from '../../ports/media-store.js';
import type { IdempotencyStore, PostStore } from '../../ports/feed-store.js';
import type { WriteQuota } from '../../ports/reaction-store.js';
import type { UserStore } from '../../ports/user-store.js';
import type { StepHook } from '../steps.js';
import type { Announcer } from '../live.js';

export interface MediaLimits {
  /** Uploads a user may start per one-minute window (429 + Retry-After past it). */
  writesPerMinute: { upload: number };
  /** How long a presigned upload stays valid. */
  uploadUrlSeconds: number;
}

export interface MediaDeps {
  media: MediaStore;
  objects: MediaObjects;
  queue: MediaQueue;
  quota: WriteQuota;
  /** An upload's Idempotency-Key (uploads.ts). */
  idempotency: IdempotencyStore;
  limits: MediaLimits;
  /** Tests hold an upload at a named point (shared/use-cases/steps.ts); production leaves it unset. */
  step?: StepHook;
}

/** What a discard reads and removes: the record, the state of the post that claims it, the objects. */
export interface DiscardDeps {
  media: MediaStore;
  objects: MediaObjects;
  /** Who may hold a picture: a post, or a user (as their avatar). */
  posts: Pick<PostStore, 'lookup'>;
  users: Pick<UserStore, 'profile'>;
}

/** The worker's: no queue to send to, an image processor instead (and the posts, for discards). */
export interface MediaWorkerDeps extends DiscardDeps {
  images: ImageProcessor;
  /** The live channel: the uploader's clients are told when a picture is ready or failed. */
  announcer?: Pick<Announcer, 'live' | 'push' | 'positions'>;
}
