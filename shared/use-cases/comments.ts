// shared/use-cases/comments.ts — comments (评论) on a post, and replies in threads (楼中楼).
// A reply lives in the thread of the top-level comment it answers, or of the reply's own root: a
// thread is one level deep. The root's row keeps the thread's summary (how many live replies, the
// oldest two as the preview), changed by check-and-put on the summary read (invariant E3 in
// docs/consistency.md): a created reply counts +1 after its row lands, a deleted one −1 after its
// tombstone wins, recomputing the preview from the thread's index when it was in it. Deleting a
// top-level comment leaves its replies: while any remains the post's list shows it as a
// placeholder (该评论已删除) with its thread; the thread still opens; the post's count drops by one.
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
import {
  COMMENT_ID_PATTERN,
  commentCreatedAt,
  newCommentId,
  previewOf,
  THREAD_PREVIEW,
  type Comment,
  type ThreadEntry,
  type ThreadSummary,
} from '../domain/comment.js';
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
    const answered = target.status === 'fulfilled' && target.value?.state === 'live' ? target.value.comment : null;
    // A reply to a reply stays in its root's thread.
    const reply = answered
      ? { replyTo: { id: answered.id, author: answered.author }, root: answered.root ?? answered.id }
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
      // A reply's thread index entry before its row, beside the delayed notify (one never landed is skipped at read).
      await Promise.all([
        notifyLater(deps, fact, { at: now, removal: false }),
        comment.root ? deps.comments.listThreadEntry(postId, comment.root, comment) : undefined,
      ]);
      if (await deps.comments.create(comment)) {
        await atStep(deps, 'comment.created', { actor, postId });
        await Promise.all([
          deps.posts.count(postId, 'comments', 1, comment.id),
          notifyNow(deps, fact),
          comment.root ? countReply(deps, postId, comment.root, comment, actor) : undefined,
        ]);
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
      await Promise.all([
        unlisted(id, entities),
        comment.root ? deps.comments.unlistThreadEntry(postId, comment.root, id) : undefined,
      ]);
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
  const root = found.comment.root;
  // Its author's index entry (kind W) goes with it: the export and the erasure read only live
  // comments' entries. A reply leaves its thread: its index entry, then the root's summary.
  await Promise.all([
    deps.posts.count(postId, 'comments', -1, commentId),
    notifyNow(deps, fact),
    deps.comments.unlistWritten(found.comment),
    root
      ? deps.comments
          .unlistThreadEntry(postId, root, commentId)
          .then(() => uncountReply(deps, postId, root, commentId, actor))
      : undefined,
  ]);
}

/** Swaps lost in a row before giving up (each lost swap means another change to the thread landed). */
const THREAD_SWAP_ATTEMPTS = 50;

/** E3: +1 on the root's thread and the reply in the preview if it is among the oldest two, in one check-and-put. */
async function countReply(
  deps: Pick<FeedDeps, 'comments' | 'step'>,
  postId: string,
  root: string,
  reply: ThreadEntry,
  actor: string,
): Promise<void> {
  for (let attempt = 1; attempt <= THREAD_SWAP_ATTEMPTS; attempt++) {
    const seen = await deps.comments.threadState(postId, root);
    if (!seen) return;
    const next = {
      count: seen.count + 1,
      preview: previewOf([...seen.preview, { id: reply.id, author: reply.author }]),
    };
    await atStep(deps, 'thread.read', { actor, postId });
    if (await deps.comments.swapThread(postId, root, next, seen)) return;
  }
  throw new Error('reply: the thread swap lost too many races in a row');
}

/**
 * E3: −1 on the root's thread; when the reply was in the preview, the preview is read again from
 * the thread's index (the reply's entry is gone: only live replies are kept) on every attempt.
 */
async function uncountReply(
  deps: Pick<FeedDeps, 'comments' | 'step'>,
  postId: string,
  root: string,
  replyId: string,
  actor: string,
): Promise<void> {
  for (let attempt = 1; attempt <= THREAD_SWAP_ATTEMPTS; attempt++) {
    const seen = await deps.comments.threadState(postId, root);
    if (!seen) return;
    let preview = seen.preview;
    if (preview.some((e) => e.id === replyId)) {
      // A few entries more than the preview, for entries of replies deleted or never landed.
      const entries = await deps.comments.threadEntries(postId, root, THREAD_PREVIEW + 4);
      const live = await deps.comments.readMany(
        postId,
        entries.items.filter((e) => e.id !== replyId).map((e) => e.id),
      );
      preview = previewOf(live.map((c) => ({ id: c.id, author: c.author })));
    }
    const next: ThreadSummary = { count: seen.count - 1, preview };
    await atStep(deps, 'thread.read', { actor, postId });
    if (await deps.comments.swapThread(postId, root, next, seen)) return;
  }
  throw new Error('reply delete: the thread swap lost too many races in a row');
}

/** A top-level comment as listed: with its face and its thread (the count and the preview's replies); `deleted`: a placeholder. */
export type ListedThread = Comment & {
  face: Face | null;
  deleted?: true;
  replies: { count: number; preview: (Comment & { face: Face })[] };
};

/**
 * The post and a page of its top-level comments (each with its thread's summary) in one round
 * trip, then beside each other: the authors' faces (the comments' and the previews'), for a
 * reader whom of them the reader must not see (visibility.ts: they block or mute them, or are
 * blocked by them; the post's author too no longer sees the comments of someone they block, as
 * Mastodon does), and the previews' replies with their likes (one multi-get).
 */
export async function listComments(
  deps: CommentsReadDeps,
  postId: string,
  order: CommentOrder,
  limit: number,
  cursor?: string,
  reader?: string,
): Promise<Page<ListedThread>> {
  const after = decodeCursor(cursor, (id) => COMMENT_ID_PATTERN.test(id));
  // The likes (count, and the reader's own) and the threads' summaries come in the same scan.
  const [post, page] = await Promise.all([
    deps.posts.get(postId),
    deps.comments.list(postId, order, limit, after, reader),
  ]);
  if (!post) throw postNotFound(postId);
  const previewIds = page.items.flatMap((c) => c.thread.preview.map((e) => e.id));
  const authors = [
    ...new Set([
      ...page.items.flatMap((c) => (c.deleted ? [] : [c.author])),
      ...page.items.flatMap((c) => c.thread.preview.map((e) => e.author)),
    ]),
  ];
  const [faces, hidden, previews] = await Promise.all([
    readFaces(deps, authors),
    reader ? hiddenFrom(deps, reader, authors) : Promise.resolve(new Set<string>()),
    deps.comments.readMany(postId, previewIds.toSorted(), reader),
  ]);
  const seen = (author: string) => faces.has(author) && !hidden.has(author);
  const byId = new Map(previews.map((c) => [c.id, c]));
  // A comment whose author left (no face) is left out, as a deleted one is; so is one by an
  // author hidden from the reader (a placeholder has no author: it stays while its thread does).
  // The cursor is the last comment read, so paging goes on.
  const items = page.items.flatMap(({ thread, ...c }): ListedThread[] => {
    if (!c.deleted && !seen(c.author)) return [];
    const preview = thread.preview.flatMap((e) => {
      const reply = byId.get(e.id);
      return reply && seen(reply.author) ? [{ ...reply, face: faceOf(faces, reply.author) }] : [];
    });
    const replies = { count: thread.count, preview };
    return [{ ...c, face: c.deleted ? null : faceOf(faces, c.author), replies }];
  });
  return { items, ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}) };
}

/**
 * One top-level comment's replies, oldest first: the post ∥ the root ∥ a page of the thread's
 * index (one bounded scan) in one round trip, then the replies with their likes (one multi-get)
 * ∥ their authors' faces ∥ for a reader, whom of them the reader must not see. A deleted root's
 * thread still opens while replies remain; an unknown comment, or a reply, has none (404).
 */
export async function listReplies(
  deps: CommentsReadDeps,
  postId: string,
  rootId: string,
  limit: number,
  cursor?: string,
  reader?: string,
): Promise<Page<Comment & { face: Face }>> {
  const after = decodeCursor(cursor, (id) => COMMENT_ID_PATTERN.test(id));
  const [post, root, page] = await Promise.all([
    deps.posts.get(postId),
    deps.comments.lookup(postId, rootId),
    deps.comments.threadEntries(postId, rootId, limit, after),
  ]);
  if (!post) throw postNotFound(postId);
  if (root.state === 'absent' || (root.state === 'live' && root.comment.root)) throw commentNotFound(rootId);
  const authors = [...new Set(page.items.map((e) => e.author))];
  const [replies, faces, hidden] = await Promise.all([
    deps.comments.readMany(
      postId,
      page.items.map((e) => e.id),
      reader,
    ),
    readFaces(deps, authors),
    reader ? hiddenFrom(deps, reader, authors) : Promise.resolve(new Set<string>()),
  ]);
  // An entry whose reply never landed, or was deleted, or is not this thread's, is skipped.
  const items = replies.flatMap((c) =>
    c.root === rootId && faces.has(c.author) && !hidden.has(c.author) ? [{ ...c, face: faceOf(faces, c.author) }] : [],
  );
  return { items, ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}) };
}

/**
 * One live comment, with its likes and `root` (a link to a reply opens its root's thread): the
 * post ∥ the comment in one round trip, then its author's face ∥ for a reader, the blocks check.
 * Deleted, unknown, by someone who left or hidden from the reader: 404.
 */
export async function getComment(
  deps: CommentsReadDeps,
  postId: string,
  commentId: string,
  reader?: string,
): Promise<Comment & { face: Face }> {
  const [post, [comment]] = await Promise.all([
    deps.posts.get(postId),
    deps.comments.readMany(postId, [commentId], reader),
  ]);
  if (!post) throw postNotFound(postId);
  if (!comment) throw commentNotFound(commentId);
  const [faces, hidden] = await Promise.all([
    readFaces(deps, [comment.author]),
    reader ? hiddenFrom(deps, reader, [comment.author]) : Promise.resolve(new Set<string>()),
  ]);
  if (!faces.has(comment.author) || hidden.has(comment.author)) throw commentNotFound(commentId);
  return { ...comment, face: faceOf(faces, comment.author) };
}
