// test/unit/media-fakes.ts — in-memory fakes of the picture ports (records, objects, queue,
// image processor), for unit tests of the upload flow and the worker. The state moves are
// conditional exactly as the port says; `hooks` let a test stop or fail one step.
import type { MediaPurpose } from '../../shared/domain/media-id.js';
import type { ImageProcessor, ImageRefusal, ProcessedImage } from '../../shared/ports/image-processor.js';
import type { MediaObjects, PresignedUpload } from '../../shared/ports/media-objects.js';
import type { MediaMessage, MediaQueue } from '../../shared/ports/media-queue.js';
import type { MediaDescriptor, MediaRecord, MediaState, MediaStore, NewMedia } from '../../shared/ports/media-store.js';
import type { MediaDeps, MediaWorkerDeps } from '../../shared/use-cases/media/media-deps.js';
import { FakeQuota } from './feed-fakes.js';

export class FakeMediaStore implements MediaStore {
  readonly rows = new Map<string, MediaRecord>();
  /** Called before a move is applied (a test throws here to stop the caller between steps). */
  beforeMove?: (id: string, to: MediaState) => void | Promise<void>;
  async create(m: NewMedia) {
    this.rows.set(m.id, { ...m, state: 'uploading' });
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
  async attach(id: string, postId: string) {
    await this.beforeAttach?.(id, postId);
    const r = this.rows.get(id);
    if (!r) return false;
    if (r.attachedTo === undefined) {
      this.rows.set(id, { ...r, attachedTo: postId });
      return true;
    }
    return r.attachedTo === postId;
  }
  async detach(id: string, postId: string) {
    const r = this.rows.get(id);
    if (r?.attachedTo === postId) {
      const { attachedTo: _, ...rest } = r;
      this.rows.set(id, rest);
    }
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
    return { method: 'PUT', url: `https://storage.test/uploads/${id}?signed`, headers: { 'content-type': contentType }, expiresAt: seconds * 1000 };
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
  const variant = (name: string, width: number, height: number) => ({ name, contentType: 'image/webp' as const, width, height, bytes: new Uint8Array([1, 2, 3]) });
  return {
    format: 'jpeg',
    width: 1200,
    height: 800,
    animated: false,
    placeholder: '#336699',
    variants: [variant('thumb', 360, 360), variant('feed', 690, 460), variant('large', 1200, 800)],
  };
}

export function fakeMedia() {
  const media = new FakeMediaStore();
  const objects = new FakeMediaObjects();
  const queue = new FakeMediaQueue();
  const images = new FakeImages();
  const api: MediaDeps = { media, objects, queue, quota: new FakeQuota(), limits: { writesPerMinute: { upload: 3 }, uploadUrlSeconds: 300 } };
  const worker: MediaWorkerDeps = { media, objects, images };
  return { media, objects, queue, images, api, worker };
}
