// shared/use-cases/posts.ts — read and delete single posts, and list one author's posts. Reads
// carry counts, the reader's own state and a repost's original (post-details.ts); `reader` is
// the token's user, absent for an anonymous read.
import { ForbiddenError, NotFoundError } from '../domain/errors.js';
import { shownProfile } from './users.js';
import { authorOfPostId, POST_ID_PATTERN } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { hiddenFrom, postVisibilityFor } from './visibility.js';
import { authorsOf, describePosts, readPostDetails, withOriginalWithheld, type PostDetail } from './post-details.js';
import { topicNames } from '../domain/text-entities.js';
import { searchTermsOf } from './search-posts.js';
import { refuseIfBlocked } from './block-guard.js';
import { countedFact, notifyLater, notifyNow, postFacts } from './notifications.js';
import { atStep } from './steps.js';
import { faceFrom, type Faces } from './faces.js';
import { discardPictures } from './media/attach.js';

export type DeletePostDeps = Pick<
  FeedDeps,
  'posts' | 'inbox' | 'counters' | 'outbox' | 'reactions' | 'topics' | 'queue' | 'limits' | 'pictures' | 'step'
>;
export type UserPostsDeps = Pick<FeedDeps, 'users' | 'posts' | 'outbox' | 'reactions' | 'blocks' | 'pictures'>;

/** One post: its get and the reader's state in parallel; a repost's original one stage later. */
export async function getPost(
  deps: Pick<FeedDeps, 'posts' | 'reactions' | 'blocks' | 'users' | 'pictures'>,
  id: string,
  reader?: string,
): Promise<PostDetail> {
  // A block either way hides the post from the other user (403 blocked), checked in parallel.
  const [details] = await Promise.all([
    readPostDetails(deps, reader, [id]),
    refuseIfBlocked(deps, reader, authorOfPostId(id)),
  ]);
  const post = details.get(id);
  if (!post) throw new NotFoundError(`No post "${id}"`, 'post_not_found');
  if (!post.repostOf) return post;
  // A repost embeds its original: a block with the original's author hides someone else's repost
  // too (as timelines do). One's own repost always shows; a block by the original's author
  // withholds only that original from it (the rule of one's own profile and home).
  if (reader === undefined || authorOfPostId(id) !== reader) {
    await refuseIfBlocked(deps, reader, authorOfPostId(post.repostOf));
    return post;
  }
  const visibility = await postVisibilityFor(deps, reader, [authorOfPostId(post.repostOf) ?? '']);
  return visibility(post).originalWithheld ? withOriginalWithheld(post) : post;
}

/**
 * Author only, exactly once in its effects. Steps: read it (404 if it never existed) → check the
 * author (403) → tombstone it: a conditional write, so of racing deletes exactly one wins → only
 * the winner uncounts it, drops the author's own inbox and outbox entries and queues the
 * retraction from followers' inboxes and the discard of its pictures; every other request
 * answers 404 and changes nothing.
 * Timelines drop a deleted post at once anyway: their multi-get skips tombstones.
 */
export async function deletePost(deps: DeletePostDeps, actor: string, id: string, now = Date.now()): Promise<void> {
  const found = await deps.posts.lookup(id);
  if (found.state === 'absent') throw new NotFoundError(`No post "${id}"`, 'post_not_found');
  if (authorOfPostId(id) !== actor) throw new ForbiddenError('Only the author can delete a post');
  await atStep(deps, 'delete.checked', { postId: id });
  const post = found.state === 'live' ? found.post : undefined;
  const original = post?.repostOf;
  // The delayed notify goes first: it tallies the author's posts count, and a repost's count on
  // its original (M). A repeat of a delete (post undefined) has the first delete's. An edited
  // post's earlier texts are read beside it: their words are in the search index too.
  const [, terms] = await Promise.all([
    post ? notifyLater(deps, countedFact(post), { at: now, removal: true }) : undefined,
    post ? searchTermsOf(deps, post) : [],
  ]);
  // Also for an already deleted post: a repeat finishes dropping the body of a delete that died half-way.
  if (!(await deps.posts.markDeleted(id, now))) throw new NotFoundError(`No post "${id}"`, 'post_not_found');
  await atStep(deps, 'delete.won', { postId: id });
  await Promise.all([
    deps.counters.add(actor, 'posts', -1, id),
    deps.inbox.remove([actor], id),
    deps.outbox.remove(actor, id),
    // A repost: uncount it on its original, and the author's `reposted` state with it.
    ...(original
      ? [deps.posts.count(original, 'reposts', -1, id), deps.reactions.removeRepost(actor, original, id)]
      : []),
    // Off its topic pages (reads skip it anyway), and its mention / repost notifications retracted.
    ...(post?.topics?.length ? [deps.topics.remove(id, topicNames(post.topics))] : []),
    ...(post ? postFacts(post).map((fact) => notifyNow(deps, fact)) : []),
  ]);
  // Out of followers' inboxes, and its comments' rows cleaned up (every comment read checks the
  // post first, so they are gone from reads already). Its pictures' objects and records are
  // removed by the media worker (invariant L); a delete that dies before this send leaves them
  // to the media-cleanup job (a picture claimed by a deleted post).
  await Promise.all([
    deps.queue.send({ v: 1, type: 'retract', postId: id }),
    deps.queue.send({ v: 1, type: 'purge-comments', postId: id }),
    // Its search entries (reads hide it already); a delete cut before this leaves them as dead rows.
    ...(terms.length ? [deps.queue.send({ v: 1, type: 'unindex', postId: id, terms })] : []),
    discardPictures(deps.pictures, post?.media?.map((m) => m.id) ?? []),
  ]);
}

/** Extra outbox entries read per page to fill in for deleted posts (same round trips), as the home timeline does. */
const SPARE_ENTRIES = 10;

/**
 * One author's posts, newest first. From the author's outbox (every post publish makes is written
 * there, and a delete takes it out; the same cell as an inbox entry, its original's id included):
 * 1) the outbox row ∥ the author's face (the 404 check) ∥ the posts counter ∥ the block check;
 * 2) the page's posts, their originals, the reader's states and the originals' authors'
 * visibility, in one parallel stage. Two sequential round trips.
 * The outbox is trimmed to its newest OUTBOX_CAP posts: while it holds at least as many entries
 * as the posts counter, it holds them all and a window it runs out in is the list's end; past
 * the tail of a trimmed outbox the page is read from the content table instead (listScanned).
 */
export async function listUserPosts(
  deps: UserPostsDeps,
  author: string,
  limit: number,
  cursor?: string,
  reader?: string,
): Promise<Page<PostDetail>> {
  const after = decodeCursor(cursor, (id) => POST_ID_PATTERN.exec(id)?.[1] === author);
  const span = { ...(after === undefined ? {} : { after }), limit: limit + SPARE_ENTRIES };
  // The author's row, one get: the face (for a scanned page), the posts count, and the 404.
  const [row, outbox] = await Promise.all([
    deps.users.profile(author),
    deps.outbox.windowOf(author, span),
    refuseIfBlocked(deps, reader, author),
  ]);
  const profile = shownProfile(row, author);
  const faces = new Map([[author, faceFrom(deps.pictures, profile)]]);
  const whole = outbox.held >= profile.posts;
  const ranOut = !outbox.more && outbox.entries.length < span.limit;
  if (ranOut && !whole) return listScanned(deps, author, limit, after, reader, faces);
  const reposts = outbox.reposts ?? {};
  // The check runs beside the posts' read.
  const shownAs = repostsAsShown(deps, author, reader, authorsOf(Object.values(reposts)));
  const found = await readPostDetails(deps, reader, outbox.entries, reposts, [shownAs]);
  const shown = await shownAs;
  const items: PostDetail[] = [];
  let consumed = 0; // entries walked, shown or not (a deleted post's leftover entry is not)
  for (const id of outbox.entries) {
    if (items.length === limit) break;
    consumed++;
    const post = found.get(id);
    const seen = post && shown(post);
    if (seen) items.push(seen);
  }
  // Past the last entry of a trimmed outbox the list goes on in the content table.
  const hasMore = consumed < outbox.entries.length || outbox.more || !whole;
  const last = outbox.entries[consumed - 1] ?? after;
  return { items, ...(hasMore && last ? { nextCursor: encodeCursor(last) } : {}) };
}

/**
 * How an author's list shows each of its posts to `reader` (undefined: left out), given the
 * originals' authors of its reposts: one multi-get of blocks and mutes. Another user's reposts of
 * a post by someone the reader blocks or mutes, or who blocks the reader, are left out (as
 * timelines do); on one's own list every post shows, as its count counts it — a repost of a
 * post whose author blocks the reader with nothing of that original (the domain's postRule).
 */
async function repostsAsShown(
  deps: Pick<FeedDeps, 'blocks'>,
  author: string,
  reader: string | undefined,
  originalAuthors: string[],
): Promise<(post: PostDetail) => PostDetail | undefined> {
  if (!reader) return (post) => post;
  if (reader === author) {
    const seen = await postVisibilityFor(deps, reader, originalAuthors);
    return (post) => (seen(post).originalWithheld ? withOriginalWithheld(post) : post);
  }
  const hidden = await hiddenFrom(deps, reader, originalAuthors);
  return (post) => (post.repostOf && hidden.has(authorOfPostId(post.repostOf) ?? '') ? undefined : post);
}

/** The page from the content table: one scan, then one parallel stage (originals, the reader's states, the originals' visibility). */
async function listScanned(
  deps: Pick<FeedDeps, 'users' | 'posts' | 'reactions' | 'blocks' | 'pictures'>,
  author: string,
  limit: number,
  after: string | undefined,
  reader: string | undefined,
  faces: Faces,
): Promise<Page<PostDetail>> {
  const page = await deps.posts.listByAuthor(author, limit, after);
  const [described, shown] = await Promise.all([
    describePosts(deps, reader, page.items, { faces }),
    repostsAsShown(deps, author, reader, authorsOf(page.items.flatMap((p) => p.repostOf ?? []))),
  ]);
  const items = described.flatMap((p) => shown(p) ?? []);
  return { items, ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}) };
}
