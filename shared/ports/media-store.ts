// shared/ports/media-store.ts — the media records (an upload and what became of it), in the
// words of the upload flow. HBase in production (adapters/hbase/hbase-media-store.ts); layout,
// requests and interleavings in shared/schema/tables.ts (media).
import type { MediaPurpose } from '../domain/media-id.js';

/** uploading → processing → ready | failed; each move is conditional on the state before it. */
export type MediaState = 'uploading' | 'processing' | 'ready' | 'failed';

/** One stored size of a processed image (its object is `media/<id>/<name>.webp`). */
export interface VariantInfo {
  name: string;
  width: number;
  height: number;
}

/** What processing found, recorded with the move to `ready`: enough to reserve the space. */
export interface MediaDescriptor {
  width: number;
  height: number;
  animated: boolean;
  /** `#rrggbb`, shown until the bytes arrive. */
  placeholder: string;
  variants: VariantInfo[];
}

export interface MediaRecord {
  id: string;
  owner: string;
  purpose: MediaPurpose;
  /** What the client declared (the presigned upload holds it to both). */
  declaredType: string;
  declaredBytes: number;
  createdAt: number;
  state: MediaState;
  /** Why it failed (a MediaRefusal, or 'upload_missing' / 'size_mismatch'). */
  reason?: string;
  descriptor?: MediaDescriptor;
  /** The post it belongs to, once attached (a picture is in at most one post). */
  attachedTo?: string;
}

export type NewMedia = Omit<MediaRecord, 'state' | 'reason' | 'descriptor'>;

export interface MediaStore {
  /** A new record in `uploading` (its id is fresh and random: nothing to race). */
  create(media: NewMedia): Promise<void>;
  get(id: string): Promise<MediaRecord | null>;
  /** The records that exist, by id (one multi-get). */
  getMany(ids: string[]): Promise<Map<string, MediaRecord>>;
  /**
   * Claims the picture for `postId` if it belongs to no post yet (check-and-put on absent): of
   * racing posts exactly one wins. True also when it already belongs to `postId` (a retry).
   */
  attach(id: string, postId: string): Promise<boolean>;
  /** Gives it back if it still belongs to `postId` (a publish that lost another of its pictures). */
  detach(id: string, postId: string): Promise<void>;
  /** `from` → `to` if the record is still in `from`; false when it is not (another move won). */
  move(id: string, from: MediaState, to: 'processing'): Promise<boolean>;
  /** processing → ready, with what processing found; false when it was not processing. */
  finish(id: string, descriptor: MediaDescriptor): Promise<boolean>;
  /** uploading | processing → failed, with the reason; false when it was in neither. */
  fail(id: string, from: 'uploading' | 'processing', reason: string): Promise<boolean>;
}
