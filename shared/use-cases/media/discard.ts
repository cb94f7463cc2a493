// shared/use-cases/media/discard.ts — pictures nothing refers to any more are removed: a deleted
// post's pictures (its delete queues one `discard` each), uploads no post claimed within a day,
// claims whose post never appeared (both queued by the media-cleanup job). SQS delivers at least
// once, late and out of order, so the message is only a hint: the worker decides again on what
// it reads when it runs, and keeps anything still referenced (invariant L, docs/consistency.md).
import { VARIANT_NAMES } from '../../ports/image-processor.js';
import type { PostLookup } from '../../ports/feed-store.js';
import type { MediaClaim, MediaRecord } from '../../ports/media-store.js';
import type { DiscardDeps } from './media-deps.js';
import { UNCLAIMED_FOR_MS } from '../../domain/limits.js';
import { isMessageClaim, variantAccess } from '../../domain/media.js';

export type PostState = PostLookup['state'];

export type DiscardReason =
  | 'being-discarded'
  | 'post-deleted'
  | 'post-never-written'
  | 'avatar-replaced'
  | 'never-attached'
  | 'failed';
export type KeepReason = 'in-live-post' | 'avatar' | 'in-message' | 'claim-young' | 'young';

/** What the verdict reads about a picture's holder: the claiming post's state, a user's current profile pictures. */
export interface Holders {
  postState(postId: string): Promise<PostState>;
  /** The media ids of `handle`'s current avatar and cover (none, or no such user: empty). */
  profilePicturesOf(handle: string): Promise<string[]>;
}
export type DiscardVerdict = { discard: DiscardReason } | { keep: KeepReason };

/**
 * Whether a picture is unreferenced, from its record and (for a picture claimed by a post) that
 * post's state. A discard already under way is finished. In a live post, or claimed by a private
 * message: kept, always. Claimed by
 * a deleted post: discarded (a tombstone is for good, nothing can bring the post back). Claimed
 * by a post that does not exist: kept while the claim is younger than UNCLAIMED_FOR_MS (a
 * publish may be between its claims and its post row), discarded after. Never claimed:
 * discarded once older than UNCLAIMED_FOR_MS, or when it failed (nothing can ever claim it).
 */
export async function discardVerdict(m: MediaRecord, holders: Holders, now: number): Promise<DiscardVerdict> {
  if (m.discarding) return { discard: 'being-discarded' };
  const holder = m.attachedTo;
  if (holder !== undefined) {
    const claimOld = now - (m.attachedAt ?? m.createdAt) >= UNCLAIMED_FOR_MS;
    // A profile picture's claim ('@<handle>', use-cases/avatar.ts: an avatar or a cover): kept
    // while it is the user's current avatar or cover, and while the claim is young (a change
    // claims first and swaps the user row after); an old claim that is neither was left by a
    // change that stopped half-way.
    if (holder.startsWith('@')) {
      if ((await holders.profilePicturesOf(holder.slice(1))).includes(m.id)) return { keep: 'avatar' };
      return claimOld ? { discard: 'avatar-replaced' } : { keep: 'claim-young' };
    }
    // A private message's claim ('dm:…', message-pictures.ts): kept, always. Only the message's
    // recall or erasure gives it back (releaseMessagePictures), and then it is free.
    if (isMessageClaim(holder)) return { keep: 'in-message' };
    const state = await holders.postState(holder);
    if (state === 'live') return { keep: 'in-live-post' };
    if (state === 'deleted') return { discard: 'post-deleted' };
    return claimOld ? { discard: 'post-never-written' } : { keep: 'claim-young' };
  }
  if (now - m.createdAt >= UNCLAIMED_FOR_MS) return { discard: 'never-attached' };
  return m.state === 'failed' ? { discard: 'failed' } : { keep: 'young' };
}

export type DiscardOutcome =
  | { outcome: 'discarded'; reason: DiscardReason }
  | { outcome: 'kept'; reason: KeepReason | 'claim-changed' }
  /** No record: a repeat after a discard that finished (or an id that never was). */
  | { outcome: 'skipped'; state: 'absent' };

/** A claim landed between the read and the mark this many times in a row: left to the next message or job run. */
const MARK_ATTEMPTS = 3;

/**
 * Steps: the record (none: a repeat, nothing to do) → the verdict, on the post's state as it is
 * now → kept: nothing written → mark it discarding, conditional on the claim as read (a claim
 * made since wins, and the verdict is taken again) → delete every object (the original and each
 * variant the purpose has or the descriptor names) → THEN delete the record. A worker that dies
 * after the mark leaves a record marked discarding, which a redelivery, or the job, finishes; it
 * never leaves an object without a record, which nothing would ever find.
 */
export async function discardMedia(deps: DiscardDeps, id: string, now = Date.now()): Promise<DiscardOutcome> {
  const holders = holdersFrom(deps);
  for (let attempt = 0; attempt < MARK_ATTEMPTS; attempt++) {
    const m = await deps.media.get(id);
    if (!m) return { outcome: 'skipped', state: 'absent' };
    const verdict = await discardVerdict(m, holders, now);
    if ('keep' in verdict) return { outcome: 'kept', reason: verdict.keep };
    if (!m.discarding && !(await deps.media.markDiscarding(id, claimOf(m), now))) continue;
    await Promise.all([
      deps.objects.removeUpload(id),
      ...variantNames(m).map((name) => deps.objects.removeVariant(id, name, variantAccess(m.purpose))),
    ]);
    await deps.media.remove(id);
    return { outcome: 'discarded', reason: verdict.discard };
  }
  return { outcome: 'kept', reason: 'claim-changed' };
}

/** The holders' lookups, one read each: the post (live, deleted, absent), the user's avatar and cover. */
export const holdersFrom = (deps: Pick<DiscardDeps, 'posts' | 'users'>): Holders => ({
  postState: async (postId) => (await deps.posts.lookup(postId)).state,
  profilePicturesOf: (handle) => profilePicturesOf(deps.users, handle),
});

/** A user's current avatar and cover (media ids), from one read of the profile. */
export async function profilePicturesOf(users: DiscardDeps['users'], handle: string): Promise<string[]> {
  const profile = await users.profile(handle);
  return [profile?.avatar, profile?.cover].filter((id): id is string => id !== undefined);
}

const claimOf = (m: MediaRecord): MediaClaim =>
  m.attachedTo === undefined
    ? null
    : { postId: m.attachedTo, ...(m.attachedAt === undefined ? {} : { at: m.attachedAt }) };

/** Every variant object the record may have: its purpose's, and any its descriptor names. */
function variantNames(m: MediaRecord): string[] {
  return [...new Set([...VARIANT_NAMES[m.purpose], ...(m.descriptor?.variants.map((v) => v.name) ?? [])])];
}
