// shared/ports/reaction-store.ts — what the conversation and reaction use cases (comments,
// reposts, likes) need from storage. Implemented in shared/adapters/hbase/. Where a method's cost matters its comment
// says it ("one read", "one write": one round trip); how each maps onto storage: the adapters.
import type { Comment, ThreadEntry, ThreadSummary } from '../domain/comment.js';
import type { ListPage, ListPosition, Page } from './feed-store.js';
import type { WriteAction } from '../domain/limits.js';

/** The reading user's own state on one post. */
export interface ViewerState {
  liked: boolean;
  reposted: boolean;
  /** Since when the reader has bookmarked (收藏) the post; absent when not. */
  bookmarkedAt?: number;
}

/** A bookmark: the post, and since when (its place in the newest-first list). */
export interface BookmarkPosition {
  postId: string;
  since: number;
}

export interface Liker {
  handle: string;
  since: number;
}

export interface ReactionStore {
  /** Records the user's like (the source of truth) unless there is one: of racing likes exactly one gets true. */
  like(user: string, postId: string, at: number): Promise<boolean>;
  /** The since of the user's like (the truth), or null. */
  likeSince(user: string, postId: string): Promise<number | null>;
  /** Removes the like only while it holds `since`: of racing unlikes exactly one gets true. */
  unlike(user: string, postId: string, since: number): Promise<boolean>;
  /** The user's state on each post, in one read (posts the user never touched are absent from the map). */
  viewerState(user: string, postIds: string[]): Promise<Map<string, ViewerState>>;
  /** The posts `user` likes, in a stable order by post (not by when liked), strictly after the post `after`. One read. */
  likedBy(
    user: string,
    limit: number,
    after?: string,
  ): Promise<{ items: { postId: string; since: number }[]; next?: string }>;

  /**
   * Writes the post-side entry of a like ("who liked", and its place in the newest-first list)
   * with that since (unconditionally: it may overwrite). `replacing`: the since of an entry this
   * request wrote that the truth did not take — its place in the list goes.
   */
  addLiker(postId: string, user: string, since: number, replacing?: number): Promise<void>;
  /** Removes the post-side entry while it still holds `since` (a later like's entry survives), and its place in the list. */
  removeLiker(postId: string, user: string, since: number): Promise<void>;
  /**
   * A page of the post's likers list, newest first, strictly after `after`. An entry may be
   * stale (its like gone, or of another since): show one only when `likeSinces` agrees. One read.
   */
  likers(postId: string, limit: number, after?: ListPosition): Promise<ListPage<Liker>>;
  /** The since of each of `users`' like of `postId` by the source of truth; users who do not like it are absent. One read. */
  likeSinces(postId: string, users: string[]): Promise<Map<string, number>>;

  /** Records the user's bookmark (the truth) unless there is one: of racing bookmarks exactly one gets true. */
  bookmark(user: string, postId: string, at: number): Promise<boolean>;
  /** The since of the user's bookmark (the truth), or null. */
  bookmarkSince(user: string, postId: string): Promise<number | null>;
  /** Removes the bookmark only while it holds `since`: of racing removals exactly one gets true. */
  unbookmark(user: string, postId: string, since: number): Promise<boolean>;
  /** Writes the bookmark's entry in the user's newest-first list (before the truth). `replacing`: as addLiker's. */
  listBookmark(user: string, postId: string, since: number, replacing?: number): Promise<void>;
  /** Removes the list entry of that since. */
  unlistBookmark(user: string, postId: string, since: number): Promise<void>;
  /**
   * A page of the user's bookmarks, newest first, strictly after `after`: ONE read. An entry may
   * be stale (its bookmark gone, or of another since): show one only when the truth agrees.
   */
  bookmarks(
    user: string,
    limit: number,
    after?: BookmarkPosition,
  ): Promise<{ items: BookmarkPosition[]; next?: BookmarkPosition }>;

  /**
   * Claims the user's plain (comment-less) repost of `originalId` for `repostId`: null if claimed
   * now, or the id an earlier claim holds. `replacing`: take the claim over from that earlier id
   * (its repost was deleted) — false if another request replaced it first.
   */
  claimPlainRepost(
    user: string,
    originalId: string,
    repostId: string,
    replacing?: string,
  ): Promise<string | null | false>;
  /** Records a live repost: the user's `reposted` state and the post-side "who reposted" entry, since `at` (the repost's creation). */
  addRepost(user: string, originalId: string, repostId: string, at: number): Promise<void>;
  removeRepost(user: string, originalId: string, repostId: string): Promise<void>;
  /** Who reposted the post (each once), from at most `limit` of its live reposts. One read. */
  reposters(originalId: string, limit: number): Promise<string[]>;
}

/** What is known of a comment id: live, deleted (its id stays taken), or never created. */
export type CommentLookup = { state: 'live'; comment: Comment } | { state: 'deleted' } | { state: 'absent' };

export type CommentOrder = 'newest' | 'oldest';

/**
 * A live comment with its likes and one user's like of it, as read together (one read): what
 * `swapLike` checks is unchanged (`version`, opaque).
 */
export interface CommentLikeState {
  comment: Comment;
  /** How many like it (exact: it moves with the likers in one atomic row change). */
  count: number;
  /** The user's like: since when, or null. */
  since: number | null;
  version: string | null;
}

/** A top-level comment as its post lists it, with its thread; `deleted`: a placeholder (no author, no body) kept while replies remain. */
export interface ListedComment extends Comment {
  thread: ThreadSummary;
  deleted?: true;
}

/** A thread's summary as read, with what `swapThread` checks is unchanged (`version`, opaque). */
export interface ThreadState extends ThreadSummary {
  version: string | null;
}

export interface CommentStore {
  /** Creates the comment unless its id was ever used on that post, live or deleted: false then. Its author's index entry (`listWritten`) must be written first. */
  create(comment: Comment): Promise<boolean>;
  /** The author's index entry of a comment about to be created (written before it: an entry whose comment never lands is skipped at read). */
  listWritten(comment: Pick<Comment, 'author' | 'postId' | 'id' | 'createdAt'>): Promise<void>;
  /** Removes that entry (a refused request's own, before it answers). */
  unlistWritten(comment: Pick<Comment, 'author' | 'postId' | 'id' | 'createdAt'>): Promise<void>;
  lookup(postId: string, commentId: string): Promise<CommentLookup>;
  /**
   * Drops the comment's content: from then on it is neither listed nor looked up as live (its id
   * stays taken). The first step of a delete, so a delete cut at any point is a delete.
   */
  dropContent(postId: string, commentId: string): Promise<void>;
  /** Marks the emptied comment deleted for good, with its time; of racing deletes exactly one gets true (and uncounts it). */
  markDeleted(postId: string, commentId: string, at: number): Promise<boolean>;
  /**
   * A post's live comments in either order, cursor = the last comment id of the previous page,
   * each with its likes (count, and whether `reader` likes it). One read.
   */
  list(
    postId: string,
    order: CommentOrder,
    limit: number,
    cursor?: string,
    reader?: string,
  ): Promise<Page<ListedComment>>;
  /** A reply's thread index entry, written before the reply (an entry whose reply never landed, or was deleted, is skipped at read). */
  listThreadEntry(postId: string, root: string, entry: ThreadEntry): Promise<void>;
  unlistThreadEntry(postId: string, root: string, replyId: string): Promise<void>;
  /** A top-level comment's thread summary (live or deleted comment); null if the comment was never created. One get. */
  threadState(postId: string, root: string): Promise<ThreadState | null>;
  /** Replaces the thread summary only while it is still what `seen` read (false: read again). */
  swapThread(postId: string, root: string, next: ThreadSummary, seen: ThreadState): Promise<boolean>;
  /** A thread's index entries, oldest first, cursor = the last reply id of the previous page. One bounded scan. */
  threadEntries(postId: string, root: string, limit: number, cursor?: string): Promise<Page<ThreadEntry>>;
  /** The live ones of these comments with their likes, in id order. One multi-get. */
  readMany(postId: string, ids: string[], reader?: string): Promise<Comment[]>;
  /** The comment, its like count and `user`'s like of it, in one read; null unless the comment is live. */
  likeState(postId: string, commentId: string, user: string): Promise<CommentLikeState | null>;
  /**
   * Sets `user`'s like (since, or null for none) and the count to `count` in ONE atomic row
   * change, only while the likes are still what `seen` read and the comment is not deleted
   * (false: read again). Of racing changes exactly one lands per state read.
   */
  swapLike(
    postId: string,
    commentId: string,
    user: string,
    next: { since: number | null; count: number },
    seen: CommentLikeState,
  ): Promise<boolean>;
  /** Removes up to `limit` of a deleted post's comments for good; returns how many (cleanup, idempotent). */
  purge(postId: string, limit: number): Promise<number>;
  /**
   * The live comments `author` wrote, newest first, strictly after `after` (two reads: the
   * author's index, then the comments to confirm them; a deleted one is skipped).
   */
  writtenBy(
    author: string,
    limit: number,
    after?: WrittenPosition,
  ): Promise<{ items: Comment[]; next?: WrittenPosition }>;
}

/** A place in an author's comments (newest first). */
export interface WrittenPosition {
  since: number;
  postId: string;
  commentId: string;
}

/** Per-user write counters, one per window (what a window is: domain/quota.ts). */
export interface WriteQuota {
  /** Counts one write of `action` by `user` in `window`; returns that window's count (this one included). */
  take(user: string, action: WriteAction, window: number): Promise<number>;
}
