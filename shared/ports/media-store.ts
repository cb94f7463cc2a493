// shared/ports/media-store.ts — the media records (an upload and what became of it), in the
// words of the upload flow. Implemented by adapters/hbase/hbase-media-store.ts; how its moves
// race, and why that is safe: docs/consistency.md L.
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
  /** When that claim was (last) made: a publish's retry claims again. */
  attachedAt?: number;
  /**
   * Being discarded (use-cases/media/discard.ts): no post can claim it any more, its objects are
   * going and the record goes last. Reads treat it as gone.
   */
  discarding?: true;
}

/** A claim as one read saw it (the post and when), or null for a picture no post has claimed. */
export type MediaClaim = { postId: string; at?: number } | null;

/** One bounded stretch of the walk over every record; `next` is absent once the walk is over. */
export interface MediaWalkPage {
  records: MediaRecord[];
  next?: string;
}

export type NewMedia = Omit<
  MediaRecord,
  'state' | 'reason' | 'descriptor' | 'attachedTo' | 'attachedAt' | 'discarding'
>;

export interface MediaStore {
  /**
   * A new record in `uploading`, unless one of that id exists: false then (a request with the
   * same Idempotency-Key made it; a fresh random id has nothing to race).
   */
  create(media: NewMedia): Promise<boolean>;
  get(id: string): Promise<MediaRecord | null>;
  /** The records that exist, by id (one read). */
  getMany(ids: string[]): Promise<Map<string, MediaRecord>>;
  /**
   * Claims the picture for `postId` at `at` if it belongs to no post yet: of racing posts
   * exactly one wins. True also when it already belongs to `postId` (a retry), whose claim time
   * becomes `at`. False for a record that is gone or being discarded: a claim never brings a
   * record back.
   */
  attach(id: string, postId: string, at: number): Promise<boolean>;
  /** Gives it back if it still belongs to `postId` (a publish that lost another of its pictures). */
  detach(id: string, postId: string): Promise<void>;
  /**
   * Marks it as being discarded, if it is still claimed exactly as `claim` says (the same post
   * and claim time; null = by no post): of a discard and a claim racing, one wins. From then on
   * no post can claim it. False when the claim changed since it was read (or the record is gone).
   */
  markDiscarding(id: string, claim: MediaClaim, at: number): Promise<boolean>;
  /** Deletes the record (only ever after markDiscarding, and after its objects). */
  remove(id: string): Promise<void>;
  /** Up to `limit` records from a position of an earlier page (absent: the start). */
  walk(opts: { start?: string; limit: number }): Promise<MediaWalkPage>;
  /** `from` → `to` if the record is still in `from`; false when it is not (another move won). */
  move(id: string, from: MediaState, to: 'processing'): Promise<boolean>;
  /** processing → ready, with what processing found; false when it was not processing. */
  finish(id: string, descriptor: MediaDescriptor): Promise<boolean>;
  /** uploading | processing → failed, with the reason; false when it was in neither. */
  fail(id: string, from: 'uploading' | 'processing', reason: string): Promise<boolean>;
}
