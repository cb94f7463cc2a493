// shared/ports/feed-store.ts — what the feed use cases need from storage: posts, relations and
// inboxes. Implemented on HBase in shared/adapters/hbase/; every method maps to one get, one
// multi-get, one batched put/delete, or one prefix-bounded scan (see shared/schema/tables.ts).
import type { Post } from '../domain/post.js';

/** A page of results and the opaque cursor for the next one (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export interface PostStore {
  /** Put-if-absent on the post row: false if that exact id already exists (retry with a new suffix). */
  create(post: Post, idempotencyKey?: string): Promise<boolean>;
  get(id: string): Promise<Post | null>;
  /** Found posts in the order of `ids`; missing (deleted) ones are left out. One multi-get. */
  getMany(ids: string[]): Promise<Post[]>;
  delete(id: string): Promise<void>;
  /** An author's posts, newest first; cursor = last id of the previous page. */
  listByAuthor(author: string, limit: number, cursor?: string): Promise<Page<Post>>;
  /** Up to `limit` newest posts of `author` created strictly after `notOlderThan` (millis). */
  recentByAuthor(author: string, limit: number, notOlderThan?: number): Promise<Post[]>;
}

export interface IdempotencyStore {
  /** Claims `key` for `postId`; returns null if claimed now, or the post id an earlier request claimed. */
  claim(author: string, key: string, postId: string): Promise<string | null>;
}

export interface Edge {
  handle: string;
  since: number;
}

export interface RelationStore {
  /** Writes `follower → followee` (put-if-absent on the following side, then the followers side). false = already following. */
  follow(follower: string, followee: string, at: number): Promise<boolean>;
  /** Removes both sides. false = was not following. */
  unfollow(follower: string, followee: string): Promise<boolean>;
  isFollowing(follower: string, followee: string): Promise<boolean>;
  /** cursor = the last handle of the previous page. */
  following(user: string, limit: number, cursor?: string): Promise<Page<Edge>>;
  followers(user: string, limit: number, cursor?: string): Promise<Page<Edge>>;
}

export interface InboxEntry {
  postId: string;
  /** Opaque, ordered newest first; a timeline cursor points just past one of these. */
  position: string;
}

export interface InboxStore {
  /** One cell per (reader, post), many readers in one batched put; re-adding rewrites the same cell. */
  add(readers: string[], postId: string): Promise<void>;
  /** Many posts into one reader's inbox in one put (backfill). */
  addMany(reader: string, postIds: string[]): Promise<void>;
  /** Removes one post from each reader's inbox. */
  remove(readers: string[], postId: string): Promise<void>;
  /** Removes every entry by `author` from `reader`'s inbox (reads only the reader's row). */
  purgeAuthor(reader: string, author: string): Promise<number>;
  /** The reader's entries newest first, starting after `after` (a position), at most `limit`. One get. */
  page(reader: string, limit: number, after?: string): Promise<{ entries: InboxEntry[]; more: boolean }>;
  /** How many entries, and the oldest entry's post time (for the backfill bound). */
  stats(reader: string): Promise<{ size: number; oldestMillis?: number }>;
}

/** Account-level counters kept exact by REST increments. */
export interface CounterStore {
  add(user: string, counter: 'followers' | 'following' | 'posts', delta: number): Promise<void>;
  get(user: string, counter: 'followers' | 'following' | 'posts'): Promise<number>;
}
