// shared/use-cases/comments.ts — comments (评论) on a post, with one level of reply-to.
// Create: the write quota, the post, the reply-to comment, the mentioned users and a block
// between the commenter and the post's author (403) are checked in parallel → the comment row is
// written put-if-absent (with the delayed notify beside it) → only that writer counts +1 and
// queues the notifications (post author, replied-to author, mentioned users). The author's index
// entry (W) and the mentions' (N/n) are written before the row, beside the checks. Delete (the
// comment's author or the post's author): tombstone put-if-absent → only the winner counts −1.
// Every list reads the post in parallel with the comments: a deleted post's comments are gone at
// once (the rows themselves are removed later by the worker, purge-comments).
//
// With an Idempotency-Key (Stripe's semantics, as for publish: idempotency.ts), the key is claimed
// for the comment's id beside the checks. A retry with the same key and body answers the first
// outcome: the comment (200), or 410 `comment_deleted` once it was deleted (its tombstone keeps
// the id taken, so nothing brings it back); another body is 422. A retry that finds the claimed
// comment absent (the first request was refused, died, or is between its claim and its create
// right now) makes it under the claimed id, with that id's time: of the two creates exactly one
// wins (put-if-absent) and counts, and the other answers the winner's comment.
import { COMMENT_ID_PATTERN, commentCreatedAt, newCommentId, type Comment } from '../domain/comment.js';
import { ConflictError, ForbiddenError, GoneError, NotFoundError } from '../domain/errors.js';
import { authorOfPostId } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import type { CommentOrder } from '../ports/reaction-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { faceOf, readFaces, type Face } from './faces.js';
import type { NotificationFact } from '../domain/notification.js';
import { mentionedHandles, type MentionSpan } from '../domain/text-entities.js';
import { refuseIfBlocked } from './block-guard.js';
import { hiddenFrom } from './visibility.js';
import { entitiesOf } from './entities.js';
import { keyMismatch, requestFingerprint } from './idempotency.js';
import { notifyLater, notifyNow } from './notifications.js';
import { atStep } from './steps.js';
import { takeWriteQuota } from './write-limits.js';

export type AddCommentDeps = Pick<
  FeedDeps,
  'users' | 'posts' | 'idempotency' | 'comments' | 'quota' | 'blocks' | 'queue' | 'limits' | 'pictures' | 'step'
>;
export type DeleteCommentDeps = Pick<FeedDeps, 'posts' | 'comments' | 'queue' | 'limits' | 'step'>;
export type CommentsReadDeps = Pick<FeedDeps, 'users' | 'posts' | 'comments' | 'blocks' | 'pictures'>;

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
const commentDeleted = () =>
  new GoneError('The comment this Idempotency-Key created has been deleted', 'comment_deleted');

/** A comment as its request answers it: `replayed` when an earlier request with the same Idempotency-Key made it. */
export type AddedComment = Comment & { face: Face; replayed?: true };

export async function addComment(
  deps: AddCommentDeps,
  actor: string,
  postId: string,
  input: { body: string; replyTo?: string; idempotencyKey?: string },
  now = Date.now(),
): Promise<AddedComment> {
  // The author's index entry (export, erasure) goes beside the checks: written before the comment
  // (K), it costs no round trip. A request that is refused, or loses its id, deletes its own
  // entry before it answers (bad input leaves nothing behind); one cut in between leaves an
  // entry whose comment never landed, which every read skips.
  // The mentions' index entries (R) the same way: right after the mentions' check, beside the
  // quota's second round trip.
  // An Idempotency-Key's claim goes beside the checks too, for this request's id: a retry finds
  // it and makes (or answers) the comment under the id the first request claimed.
  const key = input.idempotencyKey;
  const firstId = newCommentId(now);
  const entry = (id: string) => ({ author: actor, postId, id, createdAt: commentCreatedAt(id) });
  const named = (e: { mentions?: MentionSpan[] }) => (e.mentions ? mentionedHandles(e.mentions) : []);
  const listMentions = (id: string, e: { mentions?: MentionSpan[] }) =>
    deps.posts.listMentions({ postId, commentId: id }, named(e), commentCreatedAt(id));
  const unlisted = (id: string, e: { mentions?: MentionSpan[] }) =>
    Promise.all([
      deps.comments.unlistWritten(entry(id)),
      deps.posts.unlistMentions({ postId, commentId: id }, named(e), commentCreatedAt(id)),
    ]);
  const mentioned = entitiesOf(deps, input.body, { topics: false }).then(async (entities) => {
    await listMentions(firstId, entities);
    return entities;
  });
  const fingerprint = requestFingerprint('comment', [postId, input.replyTo ?? '', input.body]);
  const [quota, post, target, entitiesRead, block, faces, listed, claim] = await Promise.allSettled([
    takeWriteQuota(deps, actor, 'comment', now),
    deps.posts.get(postId),
    input.replyTo === undefined ? Promise.resolve(null) : deps.comments.lookup(postId, input.replyTo),
    mentioned,
    refuseIfBlocked(deps, actor, authorOfPostId(postId)),
    readFaces(deps, [actor]), // for the answer, beside the checks
    deps.comments.listWritten(entry(firstId)),
    key === undefined ? Promise.resolve(null) : deps.idempotency.claim(actor, key, { id: firstId, fingerprint }),
  ]);
  const entities = entitiesRead.status === 'fulfilled' ? entitiesRead.value : {};
  const dropFirst = () => unlisted(firstId, entities).catch(() => undefined);
  const failed = [quota, post, target, entitiesRead, block, faces, listed].find((r) => r.status === 'rejected');
  let refusal: unknown = failed?.reason;
  if (refusal === undefined && post.status === 'fulfilled' && !post.value) refusal = postNotFound(postId);
  if (refusal === undefined && target.status === 'fulfilled' && target.value && target.value.state !== 'live')
    refusal = commentNotFound(input.replyTo!);
  const face = faces.status === 'fulfilled' ? faceOf(faces.value, actor) : faceOf(new Map(), actor);

  if (claim.status === 'rejected') {
    // Whether the key was claimed for firstId is unknown: its entries stay, as for a claimed id (below).
    if (refusal === undefined) refusal = claim.reason;
    throw refusal;
  }
  const earlier = claim.value;
  if (earlier) {
    // A retry: the comment is the one the key claimed, and firstId is nobody's (its entries go).
    const matches = earlier.fingerprint === fingerprint && COMMENT_ID_PATTERN.test(earlier.id);
    // A deleted post's comments are gone with it (404), the claimed one too.
    const postGone = post.status === 'rejected' || !post.value;
    const [found] = await Promise.all([
      matches && !postGone ? deps.comments.lookup(postId, earlier.id) : undefined,
      dropFirst(),
    ]);
    if (!matches) throw keyMismatch();
    if (!found) throw refusal;
    if (found.state === 'live') return { ...found.comment, face, replayed: true };
    if (found.state === 'deleted') throw commentDeleted();
    // Absent: the first request was refused, died, or is between its claim and its create now.
    if (refusal !== undefined) throw refusal;
    await Promise.all([deps.comments.listWritten(entry(earlier.id)), listMentions(earlier.id, entities)]);
    return createComment(earlier.id, false);
  }
  if (refusal !== undefined) {
    // With a key, a refusal that a retry could get past (the write limit, a block lifted, a
    // storage failure) leaves the claimed id's entries: the retry may make exactly this comment
    // (until then every read skips them, K). A post or reply target that does not exist never will.
    if (key === undefined || refusal instanceof NotFoundError) await dropFirst();
    throw refusal;
  }
  return createComment(firstId, key === undefined);

  /**
   * Writes the comment under `id`, whose entries are written. Without a key a lost id race tries
   * fresh ids; with one the id is the claimed one, and a lost create means a request with the
   * same key made it: that comment is the answer.
   */
  async function createComment(claimedOrFresh: string, freshIdsOnLoss: boolean): Promise<AddedComment> {
    await atStep(deps, 'comment.checked', { actor, postId });
    const reply =
      target.status === 'fulfilled' && target.value?.state === 'live'
        ? { replyTo: { id: target.value.comment.id, author: target.value.comment.author } }
        : {};
    for (let attempt = 0; attempt < (freshIdsOnLoss ? MAX_ID_ATTEMPTS : 1); attempt++) {
      const id = attempt === 0 ? claimedOrFresh : newCommentId(now);
      if (attempt > 0) await Promise.all([deps.comments.listWritten(entry(id)), listMentions(id, entities)]);
      const comment: Comment = {
        id,
        postId,
        author: actor,
        body: input.body,
        createdAt: commentCreatedAt(id),
        ...reply,
        ...(entities.mentions ? { mentions: entities.mentions } : {}),
      };
      const fact = commentFact(comment);
      // The delayed notify first, before the row (notifications.ts; it also tallies the count,
      // invariant M); a lost id race leaves it naming an id that never existed, which the worker
      // finds absent and ignores.
      await notifyLater(deps, fact, { at: now, removal: false });
      if (await deps.comments.create(comment)) {
        await atStep(deps, 'comment.created', { actor, postId });
        await Promise.all([deps.posts.count(postId, 'comments', 1, comment.id), notifyNow(deps, fact)]);
        return { ...comment, face };
      }
      if (!freshIdsOnLoss) {
        // The claimed id was taken by a request with the same key (a retry inside our gap): its entries are its comment's.
        const found = await deps.comments.lookup(postId, id);
        if (found.state === 'live') return { ...found.comment, face, replayed: true };
        if (found.state === 'deleted') throw commentDeleted();
        throw new ConflictError('A request with this idempotency key is in progress', 'idempotency_in_progress');
      }
      // The id was taken (8 random hex digits in one millisecond: practically never): its entries go.
      await unlisted(id, entities);
    }
    throw new Error('Could not allocate a comment id');
  }
}

/** The comment's author or the post's author; exactly once in its effects (a racing repeat is 404). */
export async function deleteComment(
  deps: DeleteCommentDeps,
  actor: string,
  postId: string,
  commentId: string,
  now = Date.now(),
): Promise<void> {
  const found = await deps.comments.lookup(postId, commentId);
  if (found.state !== 'live') throw commentNotFound(commentId);
  if (actor !== found.comment.author && actor !== authorOfPostId(postId)) {
    throw new ForbiddenError('Only the comment’s author or the post’s author can delete a comment');
  }
  const fact = commentFact(found.comment);
  await notifyLater(deps, fact, { at: now, removal: true });
  // Content first: a delete cut anywhere after it is a delete, for every read and for the delayed
  // notify, which then uncounts it and takes back its notifications.
  await deps.comments.dropContent(postId, commentId);
  await atStep(deps, 'comment.emptied', { actor, postId });
  if (!(await deps.comments.markDeleted(postId, commentId, now))) throw commentNotFound(commentId);
  await atStep(deps, 'comment.deleted', { actor, postId });
  // Its author's index entry (kind W) goes with it: the export and the erasure read only live comments' entries.
  await Promise.all([
    deps.posts.count(postId, 'comments', -1, commentId),
    notifyNow(deps, fact),
    deps.comments.unlistWritten(found.comment),
  ]);
}

/**
 * The post and a page of its comments in one round trip, then their authors' faces (one
 * multi-get) beside, for a reader, whom of those authors the reader must not see (one multi-get:
 * they block or mute them, or are blocked by them — the rule of timelines, visibility.ts; the
 * post's author too no longer sees the comments of someone they block, as Mastodon does).
 */
export async function listComments(
  deps: CommentsReadDeps,
  postId: string,
  order: CommentOrder,
  limit: number,
  cursor?: string,
  reader?: string,
): Promise<Page<Comment & { face: Face }>> {
  const after = decodeCursor(cursor, (id) => COMMENT_ID_PATTERN.test(id));
  // The likes (count, and the reader's own) come in the same scan.
  const [post, page] = await Promise.all([
    deps.posts.get(postId),
    deps.comments.list(postId, order, limit, after, reader),
  ]);
  if (!post) throw postNotFound(postId);
  const authors = page.items.map((c) => c.author);
  const [faces, hidden] = await Promise.all([
    readFaces(deps, authors),
    reader ? hiddenFrom(deps, reader, authors) : Promise.resolve(new Set<string>()),
  ]);
  // A comment whose author left (no face) is left out, as a deleted one is; so is one by an
  // author hidden from the reader. The cursor is the last comment read, so paging goes on.
  const items = page.items.flatMap((c) =>
    faces.has(c.author) && !hidden.has(c.author) ? [{ ...c, face: faceOf(faces, c.author) }] : [],
  );
  return { items, ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}) };
}
