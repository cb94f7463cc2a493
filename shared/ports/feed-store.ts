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

export interface InboxPage {
  entries: InboxEntry[];
  more: boolean;
  /** Millis of the reader's last recorded timeline read (absent: never recorded). */
  lastSeen?: number;
  /** Set while the inbox of a returning inactive reader is being rebuilt. */
  regeneratingSince?: number;
}

export interface InboxStore {
  /** One cell per (reader, post), many readers in one batched put; re-adding rewrites the same cell. */
  add(readers: string[], postId: string): Promise<void>;
  /** Many posts into one reader's inbox in one put (backfill). */
  addMany(reader: string, postIds: string[]): Promise<void>;
  /** The same posts into many readers' inboxes (demotion backfill), in bounded batched puts. */
  addManyToReaders(readers: string[], postIds: string[]): Promise<void>;
  /** Removes one post from each reader's inbox. */
  remove(readers: string[], postId: string): Promise<void>;
  /** Removes every entry by `author` from `reader`'s inbox (reads only the reader's row). */
  purgeAuthor(reader: string, author: string): Promise<number>;
  /**
   * The reader's timeline entries newest first, after `after` (a position), at most `limit`:
   * the inbox merged with the outboxes of the celebrities the reader follows (deduplicated).
   * One get, plus one multi-get of outboxes only when the reader follows celebrities.
   */
  page(reader: string, limit: number, after?: string): Promise<InboxPage>;
  /** How many entries, and the oldest entry's post time (for the backfill bound). */
  stats(reader: string): Promise<{ size: number; oldestMillis?: number }>;
  /** Celebrity markers: the reader's timeline merges these authors' outboxes at read time. */
  addCelebrity(readers: string[], celebrity: string): Promise<void>;
  removeCelebrity(readers: string[], celebrity: string): Promise<void>;
  /** Activity: last timeline read, and the regeneration flag of returning inactive readers. */
  markSeen(reader: string, at: number): Promise<void>;
  lastSeen(readers: string[]): Promise<Map<string, number>>;
  markRegenerating(reader: string, at: number): Promise<void>;
  clearRegenerating(reader: string): Promise<void>;
}

/** Every author's newest posts (bounded by the trim job), for the celebrity read-time merge. */
export interface OutboxStore {
  add(author: string, postId: string): Promise<void>;
  remove(author: string, postId: string): Promise<void>;
  /** Newest first, at most `limit` post ids. One get. */
  recent(author: string, limit: number): Promise<string[]>;
}

/** Which authors are celebrities (posts merged at read time instead of fanned out). */
export interface CelebrityRegistry {
  isCelebrity(author: string): Promise<boolean>;
  setCelebrity(author: string, celebrity: boolean): Promise<void>;
}

/** Account-level counters kept exact by REST increments. */
export interface CounterStore {
  add(user: string, counter: 'followers' | 'following' | 'posts', delta: number): Promise<void>;
  get(user: string, counter: 'followers' | 'following' | 'posts'): Promise<number>;
}
