// shared/use-cases/likes.ts — like (赞) and unlike a post, and "who liked".
// Steps of a like: the write quota and the post's existence (in parallel) → the post-side entry
// ("who liked") with this like's since, written FIRST so that every true like has its entry and
// a recount from the post side is complete → put-if-absent of the user's like with the same
// since (the source of truth: of racing likes, the author's own included, exactly one wins) →
// only the winner counts +1; a loser puts the entry back to the truth's since. An unlike:
// check-and-delete of the truth on the since it read → only the winner counts −1 and removes the
// entry while it holds that since (an entry a later like rewrote survives). So an entry may be
// stale (its truth gone), never missing; "who liked" and the recount check entries against the
// truth. Invariant E in docs/consistency.md. The post's author is notified through the
// queue (notifications.ts): a delayed notify before the truth is written, an immediate one after
// the win; an unlike queues the same pair for the since it removes. A block between the two
// users, either way, refuses the like (403).
import { NotFoundError } from '../domain/errors.js';
import { authorOfPostId } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import type { Liker } from '../ports/reaction-store.js';
import type { FeedDeps } from './feed-deps.js';
import { readFaces, withFaces, type Face } from './faces.js';
import { decodeListCursor, shownPage } from './lists.js';
import { atStep } from './steps.js';
import { refuseIfBlocked } from './block-guard.js';
import { notifyLater, notifyNow } from './notifications.js';
import { takeWriteQuota } from './write-limits.js';
import { likeFact } from './background/tally.js';

/** An unlike: the write quota, the like rows, the post's count, the notify messages. */
export type UnlikeDeps = Pick<FeedDeps, 'posts' | 'reactions' | 'quota' | 'queue' | 'limits' | 'step'>;
/** A like: the same ports, and the blocks (no like across a block). */
export type LikeDeps = UnlikeDeps & Pick<FeedDeps, 'blocks'>;
export type LikersDeps = Pick<FeedDeps, 'users' | 'posts' | 'reactions' | 'pictures'>;

const notFound = (id: string) => new NotFoundError(`No post "${id}"`, 'post_not_found');

/** Idempotent: liking a liked post changes nothing. A deleted or unknown post is 404. */
export async function likePost(deps: LikeDeps, actor: string, postId: string, now = Date.now()): Promise<void> {
  const [, post] = await Promise.all([
    takeWriteQuota(deps, actor, 'like', now),
    deps.posts.get(postId),
    refuseIfBlocked(deps, actor, authorOfPostId(postId)),
  ]);
  if (!post) throw notFound(postId);
  const fact = { kind: 'like', actor, postId, since: now } as const;
  // The delayed notify goes before the truth is written (notifications.ts), beside the entry.
  await Promise.all([
    deps.reactions.addLiker(postId, actor, now),
    notifyLater(deps, fact, { at: now, removal: false }),
  ]);
  await atStep(deps, 'like.listed', { actor, postId });
  if (await deps.reactions.like(actor, postId, now)) {
    await atStep(deps, 'like.won', { actor, postId });
    // Tallied: a request cut before this count is found out by the delayed notify (invariant M).
    await Promise.all([deps.posts.count(postId, 'likes', 1, likeFact(actor, now)), notifyNow(deps, fact)]);
    return;
  }
  // Liked already: the entry goes back to the since the truth holds (what an unlike removes on),
  // and the list entry this request wrote at `now` goes.
  const since = await deps.reactions.likeSince(actor, postId);
  if (since !== null && since !== now) await deps.reactions.addLiker(postId, actor, since, now);
}

/** Idempotent: unliking a post not liked changes nothing. Allowed on a deleted post (it tidies your own state); 404 only for an id never used. */
export async function unlikePost(deps: UnlikeDeps, actor: string, postId: string, now = Date.now()): Promise<void> {
  const [, found] = await Promise.all([takeWriteQuota(deps, actor, 'like', now), deps.posts.lookup(postId)]);
  if (found.state === 'absent') throw notFound(postId);
  const since = await deps.reactions.likeSince(actor, postId);
  if (since === null) return;
  const fact = { kind: 'like', actor, postId, since } as const;
  await notifyLater(deps, fact, { at: now, removal: true });
  if (!(await deps.reactions.unlike(actor, postId, since))) return;
  await atStep(deps, 'unlike.won', { actor, postId });
  await Promise.all([
    deps.posts.count(postId, 'likes', -1, likeFact(actor, since)),
    deps.reactions.removeLiker(postId, actor, since),
    notifyNow(deps, fact),
  ]);
}

/**
 * Who liked a post, newest first, cursor-paged. The post and a page of the likers index in one
 * round trip, then the page's likes by the source of truth in one multi-get: an entry shows only
 * while the like holds its since (lists.ts), so an entry whose truth is not there (a like stopped
 * between its entry and its truth, an unlike between its truth delete and its entry removal), or
 * one a later like replaced, is never shown.
 */
export async function listLikers(
  deps: LikersDeps,
  postId: string,
  limit: number,
  cursor?: string,
): Promise<Page<Liker & { face: Face }>> {
  const after = decodeListCursor(cursor);
  const [post, page] = await Promise.all([deps.posts.get(postId), deps.reactions.likers(postId, limit, after)]);
  if (!post) throw notFound(postId);
  const handles = page.items.map((l) => l.handle);
  // The likers' faces beside the truth check: no round trip of their own.
  const [sinces, faces] = await Promise.all([deps.reactions.likeSinces(postId, handles), readFaces(deps, handles)]);
  const shown = shownPage(
    page,
    page.items.map((l) => sinces.get(l.handle)),
  );
  return { ...shown, items: withFaces(shown.items, faces) };
}
