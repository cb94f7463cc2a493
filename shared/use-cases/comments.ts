// shared/use-cases/comments.ts — comments (评论) on a post, with one level of reply-to.
// Create: the write quota, the post, the reply-to comment, the mentioned users and a block
// between the commenter and the post's author (403) are checked in parallel → the comment row is
// written put-if-absent (with the delayed notify beside it) → only that writer counts +1 and
// queues the notifications (post author, replied-to author, mentioned users). The author's index
// entry (W) and the mentions' (N/n) are written before the row, beside the checks. Delete (the
// comment's author or the post's author): tombstone put-if-absent → only the winner counts −1.
// Every list reads the post in parallel with the comments: a deleted post's comments are gone at
// once (the rows themselves are removed later by the worker, purge-comments).
import { COMMENT_ID_PATTERN, newCommentId, type Comment } from '../domain/comment.js';
import { ForbiddenError, NotFoundError } from '../domain/errors.js';
import { authorOfPostId } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import type { CommentOrder } from '../ports/reaction-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { faceOf, readFaces, type Face } from './faces.js';
import type { NotificationFact } from '../domain/notification.js';
import { mentionedHandles, type MentionSpan } from '../domain/text-entities.js';
import { refuseIfBlocked } from './block-guard.js';
import { entitiesOf } from './entities.js';
import { notifyLater, notifyNow } from './notifications.js';
import { atStep } from './steps.js';
import { takeWriteQuota } from './write-limits.js';

const MAX_ID_ATTEMPTS = 3;

/** What a comment notifies by: the post's author, the replied-to author, the mentioned users. */
export const commentFact = (c: Comment): NotificationFact => ({
  kind: 'comment',
  actor: c.author,
  postId: c.postId,
  commentId: c.id,
  since: c.createdAt,
  ...(c.replyTo ? { replyTo: c.replyTo.author } : {}),
  mentions: c.mentions ? mentionedHandles(c.mentions) : [],
});

const postNotFound = (id: string) => new NotFoundError(`No post "${id}"`, 'post_not_found');
const commentNotFound = (id: string) => new NotFoundError(`No comment "${id}" on this post`, 'comment_not_found');

export async function addComment(
  deps: FeedDeps,
  actor: string,
  postId: string,
  input: { body: string; replyTo?: string },
  now = Date.now(),
): Promise<Comment & { face: Face }> {
  // The author's index entry (export, erasure) goes beside the checks: written before the comment
  // (K), it costs no round trip. A request that is refused, or loses its id, deletes its own
  // entry before it answers (bad input leaves nothing behind); one cut in between leaves an
  // entry whose comment never landed, which every read skips.
  // The mentions' index entries (R) the same way: right after the mentions' check, beside the
  // quota's second round trip.
  const firstId = newCommentId(now);
  const entry = (id: string) => ({ author: actor, postId, id, createdAt: now });
  const firstListed = deps.comments.listWritten(entry(firstId));
  const named = (e: { mentions?: MentionSpan[] }) => (e.mentions ? mentionedHandles(e.mentions) : []);
  const listMentions = (id: string, e: { mentions?: MentionSpan[] }) => deps.posts.listMentions({ postId, commentId: id }, named(e), now);
  const unlisted = (id: string, e: { mentions?: MentionSpan[] }) =>
    Promise.all([deps.comments.unlistWritten(entry(id)), deps.posts.unlistMentions({ postId, commentId: id }, named(e), now)]);
  const mentioned = entitiesOf(deps, input.body, { topics: false }).then(async (entities) => {
    await listMentions(firstId, entities);
    return entities;
  });
  let checked;
  try {
    checked = await Promise.all([
      takeWriteQuota(deps, actor, 'comment', now),
      deps.posts.get(postId),
      input.replyTo === undefined ? Promise.resolve(null) : deps.comments.lookup(postId, input.replyTo),
      mentioned,
      refuseIfBlocked(deps, actor, authorOfPostId(postId)),
      readFaces(deps, [actor]), // for the answer, beside the checks
      firstListed,
    ]);
    if (!checked[1]) throw postNotFound(postId);
    if (checked[2] && checked[2].state !== 'live') throw commentNotFound(input.replyTo!);
  } catch (err) {
    const entities = await mentioned.catch(() => ({}));
    await firstListed.then(() => unlisted(firstId, entities)).catch(() => undefined);
    throw err;
  }
  const [, , target, entities, , faces] = checked;
  await atStep(deps, 'comment.checked', { actor, postId });
  const replyTo = target?.state === 'live' ? { replyTo: { id: target.comment.id, author: target.comment.author } } : {};
  for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
    const id = attempt === 0 ? firstId : newCommentId(now);
    if (attempt > 0) await Promise.all([deps.comments.listWritten(entry(id)), listMentions(id, entities)]);
    const comment: Comment = { id, postId, author: actor, body: input.body, createdAt: now, ...replyTo, ...(entities.mentions ? { mentions: entities.mentions } : {}) };
    const fact = commentFact(comment);
    // The delayed notify first, before the row (notifications.ts; it also tallies the count,
    // invariant M); a lost id race leaves it naming an id that never existed, which the worker
    // finds absent and ignores.
    await notifyLater(deps, fact, { at: now, removal: false });
    if (await deps.comments.create(comment)) {
      await atStep(deps, 'comment.created', { actor, postId });
      await Promise.all([deps.posts.count(postId, 'comments', 1, comment.id), notifyNow(deps, fact)]);
      return { ...comment, face: faceOf(faces, actor) };
    }
    // The id was taken (8 random hex digits in one millisecond: practically never): its entries go.
    await unlisted(id, entities);
  }
  throw new Error('Could not allocate a comment id');
}

/** The comment's author or the post's author; exactly once in its effects (a racing repeat is 404). */
export async function deleteComment(deps: FeedDeps, actor: string, postId: string, commentId: string, now = Date.now()): Promise<void> {
  const found = await deps.comments.lookup(postId, commentId);
  if (found.state !== 'live') throw commentNotFound(commentId);
  if (actor !== found.comment.author && actor !== authorOfPostId(postId)) {
    throw new ForbiddenError('Only the comment’s author or the post’s author can delete a comment');
  }
  const fact = commentFact(found.comment);
  await notifyLater(deps, fact, { at: now, removal: true });
  if (!(await deps.comments.markDeleted(postId, commentId, now))) throw commentNotFound(commentId);
  await atStep(deps, 'comment.deleted', { actor, postId });
  // Its author's index entry (kind W) goes with it: the export and the erasure read only live comments' entries.
  await Promise.all([deps.posts.count(postId, 'comments', -1, commentId), notifyNow(deps, fact), deps.comments.unlistWritten(found.comment)]);
}

/** The post and a page of its comments in one round trip, then their authors' faces (one multi-get). */
export async function listComments(deps: FeedDeps, postId: string, order: CommentOrder, limit: number, cursor?: string): Promise<Page<Comment & { face: Face }>> {
  const after = decodeCursor(cursor, (id) => COMMENT_ID_PATTERN.test(id));
  const [post, page] = await Promise.all([deps.posts.get(postId), deps.comments.list(postId, order, limit, after)]);
  if (!post) throw postNotFound(postId);
  const faces = await readFaces(deps, page.items.map((c) => c.author));
  // A comment whose author left (no face) is left out, as a deleted one is.
  const items = page.items.flatMap((c) => (faces.has(c.author) ? [{ ...c, face: faceOf(faces, c.author) }] : []));
  return { items, ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}) };
}
