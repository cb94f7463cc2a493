// test/support/fakes/media.ts — in-memory fakes of the picture ports (records, objects, queue,
// image processor), for unit tests of the upload flow and the worker. The state moves are
// conditional exactly as the port says; `hooks` let a test stop or fail one step.
import type { MediaPurpose } from '../../../shared/domain/media-id.js';
import type { ImageProcessor, ImageRefusal, ProcessedImage } from '../../../shared/ports/image-processor.js';
import type { MediaObjects, PresignedUpload } from '../../../shared/ports/media-objects.js';
import type { MediaMessage, MediaQueue } from '../../../shared/ports/media-queue.js';
import type {
  MediaClaim,
  MediaDescriptor,
  MediaRecord,
  MediaState,
  MediaStore,
  MediaWalkPage,
  NewMedia,
} from '../../../shared/ports/media-store.js';
import type { PostLookup } from '../../../shared/ports/feed-store.js';
import type { MediaDeps, MediaWorkerDeps } from '../../../shared/use-cases/media/media-deps.js';
import type { UserStore } from '../../../shared/ports/user-store.js';
import { FakeIdempotency, FakeQuota, FakeUsers } from './feed.js';

export class FakeMediaStore implements MediaStore {
  readonly rows = new Map<string, MediaRecord>();
  /** Called before a move is applied (a test throws here to stop the caller between steps). */
  beforeMove?: (id: string, to: MediaState) => void | Promise<void>;
  async create(m: NewMedia) {
    if (this.rows.has(m.id)) return false;
    this.rows.set(m.id, { ...m, state: 'uploading' });
    return true;
  }
  async get(id: string) {
    const r = this.rows.get(id);
    return r ? structuredClone(r) : null;
  }
  async getMany(ids: string[]) {
    const out = new Map<string, MediaRecord>();
    for (const id of ids) {
      const r = await this.get(id);
      if (r) out.set(id, r);
    }
    return out;
  }
  /** Called before an attach is applied (a test holds or stops a publish there). */
  beforeAttach?: (id: string, postId: string) => void | Promise<void>;
  async attach(id: string, postId: string, at: number) {
    await this.beforeAttach?.(id, postId);
    const r = this.rows.get(id);
    if (!r || r.discarding) return false;
    if (r.attachedTo !== undefined && r.attachedTo !== postId) return false;
    // Free, or ours already (a retry): claimed (again) at `at`.
    this.rows.set(id, { ...r, attachedTo: postId, attachedAt: at });
    return true;
  }
  async detach(id: string, postId: string) {
    const r = this.rows.get(id);
    if (r?.attachedTo === postId) {
      const { attachedTo: _, attachedAt: __, ...rest } = r;
      this.rows.set(id, rest);
    }
  }
  /** Called before a mark is applied (a test holds a discard between its read and its mark). */
  beforeMark?: (id: string) => void | Promise<void>;
  async markDiscarding(id: string, claim: MediaClaim, _at: number) {
    await this.beforeMark?.(id);
    const r = this.rows.get(id);
    if (!r || r.discarding) return false;
    const same =
      claim === null ? r.attachedTo === undefined : r.attachedTo === claim.postId && r.attachedAt === claim.at;
    if (!same) return false;
    const { attachedTo: _, attachedAt: __, ...rest } = r;
    this.rows.set(id, { ...rest, discarding: true });
    return true;
  }
  /** Called before a record is removed (a test stops the worker between objects and record). */
  beforeRemove?: (id: string) => void | Promise<void>;
  async remove(id: string) {
    await this.beforeRemove?.(id);
    this.rows.delete(id);
  }
  /** In id order, like the table's key order (any fixed order would do). */
  async walk(opts: { start?: string; limit: number }): Promise<MediaWalkPage> {
    const ids = [...this.rows.keys()].sort().filter((id) => opts.start === undefined || id >= opts.start);
    const taken = ids.slice(0, opts.limit);
    const next = ids[opts.limit];
    return {
      records: taken.map((id) => structuredClone(this.rows.get(id)!)),
      ...(taken.length === opts.limit && next !== undefined ? { next } : {}),
    };
  }
  private async cas(id: string, from: MediaState, to: MediaState, extra: Partial<MediaRecord> = {}) {
    await this.beforeMove?.(id, to);
    const r = this.rows.get(id);
    if (!r || r.state !== from) return false;
    this.rows.set(id, { ...r, ...extra, state: to });
    return true;
  }
  move(id: string, from: MediaState, to: 'processing') {
    return this.cas(id, from, to);
  }
  finish(id: string, descriptor: MediaDescriptor) {
    return this.cas(id, 'processing', 'ready', { descriptor });
  }
  fail(id: string, from: 'uploading' | 'processing', reason: string) {
    return this.cas(id, from, 'failed', { reason });
  }
}

export class FakeMediaObjects implements MediaObjects {
  readonly uploads = new Map<string, Uint8Array>();
  readonly variants = new Map<string, { contentType: string; bytes: Uint8Array }>();
  readonly presigned: { id: string; contentType: string; bytes: number; seconds: number }[] = [];
  async presignUpload(id: string, contentType: string, bytes: number, seconds: number): Promise<PresignedUpload> {
    this.presigned.push({ id, contentType, bytes, seconds });
    return {
      method: 'PUT',
      url: `https://storage.test/uploads/${id}?signed`,
      headers: { 'content-type': contentType },
      expiresAt: seconds * 1000,
    };
  }
  async uploadedBytes(id: string) {
    return this.uploads.get(id)?.length ?? null;
  }
  async readUpload(id: string) {
    return this.uploads.get(id) ?? null;
  }
  async putVariant(id: string, name: string, contentType: string, bytes: Uint8Array) {
    this.variants.set(`${id}/${name}`, { contentType, bytes });
  }
  async removeUpload(id: string) {
    this.uploads.delete(id);
  }
  async removeVariant(id: string, name: string) {
    this.variants.delete(`${id}/${name}`);
  }
  variantUrl(id: string, name: string) {
    return `https://cdn.test/media/${id}/${name}.webp`;
  }
}

export class FakeMediaQueue implements MediaQueue {
  readonly sent: MediaMessage[] = [];
  /** Called with each message as it is sent (a test records what the world looked like then). */
  onSend?: (m: MediaMessage) => void;
  async send(m: MediaMessage) {
    this.onSend?.(m);
    this.sent.push(m);
  }
}

/** Answers a fixed result; counts its calls. */
export class FakeImages implements ImageProcessor {
  calls = 0;
  constructor(public result: ProcessedImage | ImageRefusal = picture()) {}
  async process(_bytes: Uint8Array, _purpose: MediaPurpose) {
    this.calls++;
    return this.result;
  }
}

export function picture(): ProcessedImage {
  const variant = (name: string, width: number, height: number) => ({
    name,
    contentType: 'image/webp' as const,
    width,
    height,
    bytes: new Uint8Array([1, 2, 3]),
  });
  return {
    format: 'jpeg',
    width: 1200,
    height: 800,
    animated: false,
    placeholder: '#336699',
    variants: [variant('thumb', 360, 360), variant('feed', 690, 460), variant('large', 1200, 800)],
  };
}

/** Post states by id, for the worker's discards (a feed test passes its own post store instead). */
export class FakePostStates {
  readonly states = new Map<string, PostLookup['state']>();
  async lookup(id: string): Promise<PostLookup> {
    const state = this.states.get(id) ?? 'absent';
    return state === 'live' ? { state, post: { id } as never } : { state };
  }
}

export function fakeMedia(
  posts: { lookup(id: string): Promise<PostLookup> } = new FakePostStates(),
  users: Pick<UserStore, 'profile'> = new FakeUsers(),
) {
  const media = new FakeMediaStore();
  const objects = new FakeMediaObjects();
  const queue = new FakeMediaQueue();
  const images = new FakeImages();
  const api: MediaDeps = {
    media,
    objects,
    queue,
    quota: new FakeQuota(),
    idempotency: new FakeIdempotency(),
    limits: { writesPerMinute: { upload: 3 }, uploadUrlSeconds: 300 },
  };
  const worker: MediaWorkerDeps = { media, objects, images, posts, users };
  return { media, objects, queue, images, api, worker, posts, users };
}
