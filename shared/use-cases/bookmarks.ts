// shared/use-cases/bookmarks.ts — 收藏: keep a post for later, privately, and the newest-first
// list of what you kept. The steps are a like's (likes.ts) without a count or a notification:
// the write quota and the post's existence (in parallel) → the list entry with this bookmark's
// since, FIRST (so every true bookmark has its entry, invariant K) → put-if-absent of the truth
// (b:t on the reader's reactions row) with the same since: of racing bookmarks exactly one wins;
// a loser puts the entry back to the since the truth holds and drops its own. A removal:
// check-and-delete of the truth on the since it read → only the winner removes that since's
// entry. So an entry may be stale (its truth gone, or of another since), never missing; the list
// shows an entry only while the truth holds its since. Nobody else reads a user's bookmarks, and
// the author is not told, so a block does not refuse one; it hides the post from the list, as
// it does on the post's own page, for as long as it stands (the bookmark stays).
import { NotFoundError } from '../domain/errors.js';
import { authorOfPostId, isPostId } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import type { BookmarkPosition } from '../ports/reaction-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { authorsOf, readPostDetails, type PostDetail } from './post-details.js';
import { atStep } from './steps.js';
import { blockedWith } from './visibility.js';
import { takeWriteQuota } from './write-limits.js';

/** A bookmark or its removal: the write quota, the post's state, the bookmark rows. */
export type BookmarkDeps = Pick<FeedDeps, 'posts' | 'reactions' | 'quota' | 'limits' | 'step'>;
/** The bookmarks page: the list, then the posts' details (authors' faces through the feeds' cache). */
export type BookmarksReadDeps = Pick<FeedDeps, 'users' | 'posts' | 'reactions' | 'blocks' | 'feedFaces' | 'pictures'>;

const notFound = (id: string) => new NotFoundError(`No post "${id}"`, 'post_not_found');

/** Idempotent: bookmarking a bookmarked post changes nothing. A deleted or unknown post is 404. */
export async function bookmarkPost(deps: BookmarkDeps, actor: string, postId: string, now = Date.now()): Promise<void> {
  const [, post] = await Promise.all([takeWriteQuota(deps, actor, 'like', now), deps.posts.get(postId)]);
  if (!post) throw notFound(postId);
  await deps.reactions.listBookmark(actor, postId, now);
  await atStep(deps, 'bookmark.listed', { actor, postId });
  if (await deps.reactions.bookmark(actor, postId, now)) return;
  // Bookmarked already: the entry of the since the truth holds stays (written again, in case a
  // removal in the same millisecond took it), and the one this request wrote goes.
  const since = await deps.reactions.bookmarkSince(actor, postId);
  if (since !== null && since !== now) await deps.reactions.listBookmark(actor, postId, since, now);
}

/** Idempotent: removing a bookmark that is not there changes nothing. Allowed on a deleted post; 404 only for an id never used. */
export async function unbookmarkPost(
  deps: BookmarkDeps,
  actor: string,
  postId: string,
  now = Date.now(),
): Promise<void> {
  // The since beside the checks: the removal below holds only while the truth still has it.
  const [, found, since] = await Promise.all([
    takeWriteQuota(deps, actor, 'like', now),
    deps.posts.lookup(postId),
    deps.reactions.bookmarkSince(actor, postId),
  ]);
  if (found.state === 'absent') throw notFound(postId);
  if (since === null) return;
  if (!(await deps.reactions.unbookmark(actor, postId, since))) return;
  await atStep(deps, 'unbookmark.won', { actor, postId });
  await deps.reactions.unlistBookmark(actor, postId, since);
}

/** Inside the opaque cursor: "<since>.<post id>" — the position of the page's last entry read. */
function parsePosition(inner: string): BookmarkPosition | null {
  const dot = inner.indexOf('.');
  const since = inner.slice(0, dot);
  const postId = inner.slice(dot + 1);
  if (dot < 1 || !/^\d{1,13}$/.test(since) || !isPostId(postId)) return null;
  return { since: Number(since), postId };
}

/**
 * The reader's bookmarks, newest bookmarked first: a page of the list (one scan), then its posts
 * with the reader's states and the blocks with their authors in one stage (the states carry the
 * bookmark's since). An entry shows only while the bookmark holds its since, its post is live
 * and no block stands between the reader and its author (or its original's): a deleted post
 * leaves the list, a blocked one is hidden while the block stands.
 * The cursor is the last entry READ, shown or not, so nothing is skipped or shown twice.
 */
export async function listBookmarks(
  deps: BookmarksReadDeps,
  reader: string,
  limit: number,
  cursor?: string,
): Promise<Page<PostDetail>> {
  const inner = decodeCursor(cursor, (s) => parsePosition(s) !== null);
  const page = await deps.reactions.bookmarks(reader, limit, inner === undefined ? undefined : parsePosition(inner)!);
  const ids = page.items.map((e) => e.postId);
  // A post a block stands between (either way, with its author or a repost's original's author)
  // leaves the list, as its own page refuses it: the authors are known from the ids, so their
  // check runs beside the posts; an original's author, beside the originals' read.
  const blocked = new Set<string>();
  const check = (postIds: string[]) =>
    blockedWith(deps, reader, authorsOf(postIds)).then((found) => {
      for (const h of found) blocked.add(h);
    });
  const details = await readPostDetails(deps, reader, ids, {}, [check(ids)], 'feed', check);
  const kept = (post: PostDetail) =>
    !blocked.has(post.author) && !(post.repostOf && blocked.has(authorOfPostId(post.repostOf) ?? ''));
  const items = page.items.flatMap((e) => {
    const post = details.get(e.postId);
    return post && post.viewer.bookmarkedAt === e.since && kept(post) ? [post] : [];
  });
  return { items, ...(page.next ? { nextCursor: encodeCursor(`${page.next.since}.${page.next.postId}`) } : {}) };
}
