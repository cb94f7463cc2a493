// shared/ports/maintenance-store.ts — what the scheduled jobs (shared/use-cases/jobs/) need from
// storage. Sweeps are the ONE place a whole table is walked, and they walk it in bounded chunks:
// every method reads at most `limit` rows from a start position and says where to resume.
// Implemented on HBase in shared/adapters/hbase/hbase-maintenance-store.ts; unit tests fake it.
//
// Positions (`Cursor`) are opaque base64url text made by the store: "the next read starts here".
// A job passes them on, unchanged, to the next invocation of itself.

export type Cursor = string;

/** The bounded wide rows the trim job caps: inbox (family i) and outbox (family o). */
export type WideTable = 'inbox' | 'outbox';

export interface WideCell {
  qualifier: Uint8Array;
  /** The cell's write timestamp (millis). */
  timestamp: number;
}

export interface WideRow {
  /** Opaque id of the row, for deleteCells. */
  row: string;
  /** The row's entry cells, NEWEST FIRST (ascending qualifier = reversed time). */
  cells: WideCell[];
  /** Where a walk resumes after this row. */
  next: Cursor;
}

export interface RegenerationMark {
  /** The reader whose inbox row this is; null for a row key that is not a user's. */
  reader: string | null;
  /** m:regen — when the regeneration was requested (millis); null when unreadable. */
  requestedAt: number | null;
  next: Cursor;
}

export interface ActivityMark {
  /** The reader whose inbox row this is; null for a row key that is not a user's. */
  reader: string | null;
  /** m:seen — the reader's last recorded timeline read; null when unreadable. */
  seenAt: number | null;
  /** m:away — the m:seen at which the reader's follows were last marked away, if ever. */
  awayAt: number | null;
  /** m:regen is present: a rebuild is under way (the reader is back). */
  regenerating: boolean;
  next: Cursor;
}

/** 'F': owner follows other (the source of truth). 'R': owner is followed by other. */
export type Direction = 'F' | 'R';

export interface EdgeRow {
  owner: string;
  direction: Direction;
  other: string;
  /** e:t as stored (millis as text); check-and-delete compares against exactly this. */
  since: string;
}

export interface RelationChunk {
  /** The readable edge rows, in walk order, each with the position after it. */
  edges: (EdgeRow & { next: Cursor })[];
  /** Rows whose key is not an edge of ours (skipped, never touched). */
  skipped: number;
  /** The position after the last row read (readable or not); absent when nothing was read. */
  next?: Cursor;
  /** true when the read reached the end of the table (fewer than `limit` rows were left). */
  exhausted: boolean;
}

export interface UserCounters {
  handle: string;
  /** c:following / c:followers as stored: 0 when absent, -1 when not an 8-byte long. */
  following: number;
  followers: number;
}

export type Counter = 'following' | 'followers';

export interface CounterCell {
  /** As stored: 0 when absent, -1 when not an 8-byte long. */
  value: number;
  /** The cell's write timestamp (millis); 0 when absent. Every increment writes a new cell. */
  stamp: number;
}

/** A position in the users walk: start at `user` (inclusive) or just after it. */
export interface UsersFrom {
  user: string;
  inclusive: boolean;
}

export interface MaintenanceStore {
  // --- trim -------------------------------------------------------------------------------
  /** Up to `limit` rows of `table` from `start` (the table's beginning when absent), streamed. */
  wideRows(table: WideTable, opts: { start?: Cursor; limit: number }): AsyncIterable<WideRow>;
  /**
   * Deletes the listed cells of one row in ONE delete request set: every version with a
   * timestamp <= upToTimestamp, so a cell rewritten after the read survives (HBASE-3300).
   */
  deleteCells(table: WideTable, row: string, qualifiers: Uint8Array[], upToTimestamp: number): Promise<void>;

  // --- regeneration sweep -------------------------------------------------------------------
  /** Up to `limit` inbox rows that carry m:regen, from `start`, streamed. */
  regenerationMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<RegenerationMark>;

  // --- away sweep ---------------------------------------------------------------------------
  /** Up to `limit` inbox rows that carry m:seen, from `start`, streamed with m:away and m:regen. */
  activityMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<ActivityMark>;

  // --- relation repair ----------------------------------------------------------------------
  /**
   * The order the walks visit users in (the row-key order of the relations and users tables).
   * A user's relation rows are contiguous, 'F' rows before 'R' rows, each ordered by `other`.
   */
  compareUsers(a: string, b: string): number;
  /** Up to `limit` rows of the relations table from `start`. */
  relationChunk(opts: { start?: Cursor; limit: number }): Promise<RelationChunk>;
  /** The position just past every relation row of `user`. */
  relationCursorAfterUser(user: string): Cursor;
  /** For each edge, the since of its counterpart row (F ↔ R) or null when it is missing. ONE multi-get. */
  counterpartSince(edges: EdgeRow[]): Promise<(string | null)[]>;
  /** Writes the edge rows (with their since) in one batched put. */
  putEdges(edges: EdgeRow[]): Promise<void>;
  /** Deletes the edge row only while its e:t still holds `edge.since`; false = it changed (kept). */
  deleteEdgeIf(edge: EdgeRow): Promise<boolean>;
  /** Up to `limit` users (with their stored counters) from `from`, strictly before `before` (the table's end when absent). */
  userCounters(opts: { from?: UsersFrom; before?: string; limit: number }): Promise<{ users: UserCounters[]; exhausted: boolean }>;
  /** Both counters of each user as stored, with their cell timestamps (0 when absent). ONE multi-get. */
  counterSnapshot(users: string[]): Promise<Map<string, Record<Counter, CounterCell>>>;
  /** How many 'F' (following) or 'R' (followers) rows `user` has; null when more than `max`. ONE prefix scan. */
  countEdges(user: string, direction: Direction, max: number): Promise<number | null>;
  /** Writes the counter only while it still holds `expected` as read (check-and-put); false = it moved. */
  setCounterIf(user: string, counter: Counter, expected: CounterCell, value: number): Promise<boolean>;
}

// --- post counts (repair-post-counts) ---------------------------------------------------------

export type PostCounter = 'likes' | 'comments' | 'reposts';

export interface CountedPost {
  postId: string;
  /** The post's counts as stored, with their cell timestamps (0 when absent). */
  counts: Record<PostCounter, CounterCell>;
}

/** What the post-count repair needs: a walk over counted posts, a recount from the truth, a guarded write. */
export interface PostCountStore {
  /** Up to `limit` live posts that carry counts, from `start`. ONE scan of the counts family (and the tombstone). */
  countedPosts(opts: { start?: Cursor; limit: number }): Promise<{ posts: CountedPost[]; next?: Cursor; exhausted: boolean }>;
  /** Each post's counts as stored (absent: deleted or never counted). ONE multi-get. */
  countSnapshot(postIds: string[]): Promise<Map<string, Record<PostCounter, CounterCell>>>;
  /**
   * The counts the truth gives: likes = post-side entries whose user-side like exists; reposts =
   * post-side entries whose repost is live and points here; comments = live comment rows. null
   * when a list has more than `max` rows (reported, not recounted in a step).
   */
  recount(postId: string, max: number): Promise<Record<PostCounter, number> | null>;
  /** Writes the count only while it still holds `expected` as read (check-and-put); false = it moved. */
  setCountIf(postId: string, counter: PostCounter, expected: CounterCell, value: number): Promise<boolean>;
}
