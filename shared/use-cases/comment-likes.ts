// shared/use-cases/comment-likes.ts — like (赞) and unlike a comment.
// The likes live on the comment's own row: each liker's cell (its since, '' once taken back) and
// the count, changed together by ONE check-and-put on the likes' state read (invariant E2 in
// docs/consistency.md): count and likers can never disagree, and a delete, which replaces that
// state in its own check-and-put, makes every like that read the comment live before it fail its
// swap, read again and find the comment gone (404). A swap lost to another liker reads again.
// Steps of a like: the write quota, the post, the comment with its likes and the liker's cell,
// and a block between the liker and the post's author (403) in parallel → a block with the
// comment's author → the swap. The comment's author is notified through the queue, as a
// post's like notifies (a delayed notify before the swap, an immediate one after it).
import { NotFoundError } from '../domain/errors.js';
import type { NotificationFact } from '../domain/notification.js';
import { authorOfPostId } from '../domain/post.js';
import type { CommentLikeState } from '../ports/reaction-store.js';
import { refuseIfBlocked } from './block-guard.js';
import type { FeedDeps } from './feed-deps.js';
import { notifyLater, notifyNow } from './notifications.js';
import { atStep } from './steps.js';
import { takeWriteQuota } from './write-limits.js';

export type CommentLikeDeps = Pick<FeedDeps, 'posts' | 'comments' | 'quota' | 'blocks' | 'queue' | 'limits' | 'step'>;

/** Swaps lost in a row before giving up (each lost swap means another change landed). */
const SWAP_ATTEMPTS = 50;

const commentNotFound = (id: string) => new NotFoundError(`No comment "${id}" on this post`, 'comment_not_found');
const postNotFound = (id: string) => new NotFoundError(`No post "${id}"`, 'post_not_found');

const likeFact = (actor: string, state: CommentLikeState, since: number): NotificationFact => ({
  kind: 'commentLike',
  actor,
  postId: state.comment.postId,
  commentId: state.comment.id,
  author: state.comment.author,
  since,
});

export interface CommentLikeOutcome {
  liked: boolean;
  count: number;
}

/** Idempotent: liking a liked comment changes nothing. A deleted or unknown comment (or post) is 404. */
export async function likeComment(
  deps: CommentLikeDeps,
  actor: string,
  postId: string,
  commentId: string,
  now = Date.now(),
): Promise<CommentLikeOutcome> {
  const [, post, first] = await Promise.all([
    takeWriteQuota(deps, actor, 'like', now),
    deps.posts.get(postId),
    deps.comments.likeState(postId, commentId, actor),
    refuseIfBlocked(deps, actor, authorOfPostId(postId)),
  ]);
  if (!post) throw postNotFound(postId);
  if (!first) throw commentNotFound(commentId);
  await refuseIfBlocked(deps, actor, first.comment.author);
  let state: CommentLikeState | null = first;
  let queued = false;
  for (let attempt = 1; ; attempt++) {
    if (!state) throw commentNotFound(commentId);
    if (state.since !== null) return { liked: true, count: state.count };
    const fact = likeFact(actor, state, now);
    // The delayed notify before the write (notifications.ts): it puts the notification right
    // whatever happens to this request after the swap.
    if (!queued) {
      await notifyLater(deps, fact, { at: now, removal: false });
      queued = true;
    }
    await atStep(deps, 'comment-like.read', { actor, postId });
    if (await deps.comments.swapLike(postId, commentId, actor, { since: now, count: state.count + 1 }, state)) {
      await atStep(deps, 'comment-like.won', { actor, postId });
      await notifyNow(deps, fact);
      return { liked: true, count: state.count + 1 };
    }
    if (attempt >= SWAP_ATTEMPTS) throw new Error('comment like: the swap lost too many races in a row');
    state = await deps.comments.likeState(postId, commentId, actor);
  }
}

/** Idempotent: unliking a comment not liked, deleted or unknown changes nothing. */
export async function unlikeComment(
  deps: Omit<CommentLikeDeps, 'blocks'>,
  actor: string,
  postId: string,
  commentId: string,
  now = Date.now(),
): Promise<CommentLikeOutcome> {
  const [, first] = await Promise.all([
    takeWriteQuota(deps, actor, 'like', now),
    deps.comments.likeState(postId, commentId, actor),
  ]);
  let state = first;
  let queuedFor: number | null = null;
  for (let attempt = 1; ; attempt++) {
    // Gone: its likes went with it (nothing shows them); not liked: nothing to take back.
    if (!state) return { liked: false, count: 0 };
    if (state.since === null) return { liked: false, count: state.count };
    const fact = likeFact(actor, state, state.since);
    if (queuedFor !== state.since) {
      await notifyLater(deps, fact, { at: now, removal: true });
      queuedFor = state.since;
    }
    await atStep(deps, 'comment-unlike.read', { actor, postId });
    if (await deps.comments.swapLike(postId, commentId, actor, { since: null, count: state.count - 1 }, state)) {
      await notifyNow(deps, fact);
      return { liked: false, count: Math.max(0, state.count - 1) };
    }
    if (attempt >= SWAP_ATTEMPTS) throw new Error('comment unlike: the swap lost too many races in a row');
    state = await deps.comments.likeState(postId, commentId, actor);
  }
}
