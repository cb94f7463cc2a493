// shared/ports/maintenance-store.ts — what the scheduled jobs (shared/use-cases/jobs/) need from
// storage, in the product's words. Sweeps are the ONE place where every item of a kind (every
// inbox, every follow) is walked, and they walk in bounded chunks: every method reads at most
// `limit` entries from a start position and says where to resume. Implemented by the storage
// adapters (shared/adapters/); unit tests fake it (test/support/fakes/jobs.ts).
//
// Positions (`Cursor`) are opaque base64url text made by the store: "the next read starts here".
// A job passes them on, unchanged, to the next invocation of itself. The order a walk visits
// things in is the store's business; a job never compares positions or users.

export type Cursor = string;

// --- counters ----------------------------------------------------------------------------------

/**
 * A stored counter as one read saw it. `value` is null when what is stored is not a count (it is
 * reported and never overwritten). `version` is opaque: two readings of a counter with the same
 * version saw no write to it in between.
 */
export interface CounterReading {
  value: number | null;
  version: string;
}

// --- trim ---------------------------------------------------------------------------------------

/** The bounded lists the trim job caps: every reader's inbox, every author's outbox. */
export type Feed = 'inbox' | 'outbox';

/** One feed as the trim walk visits it. */
export interface FeedVisit {
  /** How many entries lie past the cap: the oldest ones. 0 when the feed is within it. */
  pastCap: number;
  /**
   * Drops the entries that were past the cap when visited, in ONE write. An entry written again
   * after the visit (a refollow's backfill) survives.
   */
  dropPastCap(): Promise<void>;
  /** Where a walk resumes after this feed. */
  next: Cursor;
}

// --- sweeps -------------------------------------------------------------------------------------

export interface RegenerationMark {
  /** The reader whose timeline is being rebuilt; null for an entry that is not a reader's. */
  reader: string | null;
  /** When the rebuild was requested (millis); null when unreadable. */
  requestedAt: number | null;
  next: Cursor;
}

export interface ActivityMark {
  /** The reader; null for an entry that is not a reader's. */
  reader: string | null;
  /** The reader's last recorded timeline read; null when unreadable. */
  seenAt: number | null;
  /** The last read at which the reader's follows were marked away, if ever. */
  awayAt: number | null;
  /** A rebuild of the reader's timeline is under way (the reader is back). */
  regenerating: boolean;
  next: Cursor;
}

// --- relation repair ----------------------------------------------------------------------------

/** `follower` follows `followee` since `since` (as the store holds it: compared exactly, never parsed). */
export interface Follow {
  follower: string;
  followee: string;
  since: string;
}

export type Counter = 'following' | 'followers';

/** One user's share of a relations batch. */
export interface UserRelations {
  user: string;
  /**
   * The user's stored counters, read in the same batch. Absent while `complete` is false, and
   * for a handle that has relations but no account.
   */
  counters?: Record<Counter, CounterReading>;
  /** The user's follows read in this batch (the following side: the truth), each with the since its followers-side copy holds (null: missing). */
  follows: (Follow & { copy: string | null })[];
  /** The user's followers-side entries read in this batch, each with the since of the follow it copies (null: no such follow). */
  followers: (Follow & { truth: string | null })[];
  /** false when the user's relations go on in the next batch (a step boundary cut them). */
  complete: boolean;
}

export interface RelationsBatch {
  /**
   * Consecutive users of the walk: every user from the start position on, accounts without any
   * relation included (so their stale counters show). Only the last may be incomplete.
   */
  users: UserRelations[];
  /** Relation entries read (readable or not). */
  read: number;
  /** Entries that are not relations of ours (skipped, never touched). */
  skipped: number;
  /** Where the next batch starts; absent when the walk is over. */
  next?: Cursor;
}

export interface MaintenanceStore {
  // --- trim
  /** Up to `limit` feeds of one kind from `start` (the beginning when absent), streamed, each measured against `cap`. */
  feeds(feed: Feed, opts: { start?: Cursor; limit: number; cap: number }): AsyncIterable<FeedVisit>;

  // --- sweeps
  /** Up to `limit` readers with a rebuild requested, from `start`, streamed. */
  regenerationMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<RegenerationMark>;
  /** Up to `limit` readers with a recorded read, from `start`, streamed. */
  activityMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<ActivityMark>;

  // --- relation repair
  /** Up to `limit` relation entries from `start`, by user, with both sides of each follow and the users' counters. */
  relationsBatch(opts: { start?: Cursor; limit: number }): Promise<RelationsBatch>;
  /** Writes the followers-side copy of each follow (with its since), in one write. */
  copyFollowerSides(follows: Follow[]): Promise<void>;
  /** Removes the followers-side entry only while it still holds `follow.since`; false: it changed (kept). */
  dropFollowerSideIf(follow: Follow): Promise<boolean>;
  /** Both counters of each user, for the users that have an account. */
  counters(users: string[]): Promise<Map<string, Record<Counter, CounterReading>>>;
  /** The user's follows and followers, counted afresh; null when either is more than `max`. */
  recount(user: string, max: number): Promise<Record<Counter, number> | null>;
  /** Sets the counter to `value` only while it is unchanged since `expected` was read; false: it moved (or is not a count). */
  setCounterIf(user: string, counter: Counter, expected: CounterReading, value: number): Promise<boolean>;
}

// --- post counts (repair-post-counts) ---------------------------------------------------------

export type PostCounter = 'likes' | 'comments' | 'reposts';

export interface CountedPost {
  postId: string;
  counts: Record<PostCounter, CounterReading>;
}

/** What the post-count repair needs: a walk over counted posts, a recount from the truth, a guarded write. */
export interface PostCountStore {
  /** Up to `limit` live posts that carry counts, from `start`. */
  countedPosts(opts: {
    start?: Cursor;
    limit: number;
  }): Promise<{ posts: CountedPost[]; next?: Cursor; exhausted: boolean }>;
  /** Each live post's counts (absent: deleted or never counted). */
  countSnapshot(postIds: string[]): Promise<Map<string, Record<PostCounter, CounterReading>>>;
  /**
   * The counts the truth gives: likes = likers whose like exists; reposts = live reposts that
   * point here; comments = live comments. null when a list has more than `max` entries
   * (reported, not recounted in a step).
   */
  recount(postId: string, max: number): Promise<Record<PostCounter, number> | null>;
  /** Sets the count to `value` only while it is unchanged since `expected` was read; false: it moved (or is not a count). */
  setCountIf(postId: string, counter: PostCounter, expected: CounterReading, value: number): Promise<boolean>;
}
