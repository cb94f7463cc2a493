// shared/ports/feed-store.ts — what the feed use cases need from storage: posts, relations and
// inboxes. Implemented in shared/adapters/hbase/. Where a method's cost matters its comment
// says it ("one read", "one write": one round trip); how each maps onto storage: the adapters.
import type { FeedEntry, Post, PostCounts, PostVersion, StoredPost } from '../domain/post.js';
import type { MentionPlace, MentionSpan, TopicSpan } from '../domain/text-entities.js';

/** A page of results and the opaque cursor for the next one (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Where a newest-first list stands: the since and the handle of the last entry a page read. The
 * next page starts strictly after it; entries that land meanwhile sort before it.
 */
export interface ListPosition {
  since: number;
  handle: string;
}

/** A page of a newest-first list's entries; `next` is absent on the last page. */
export interface ListPage<T> {
  items: T[];
  next?: ListPosition;
}

/** What is known of a post id: live, deleted (for good: its id stays taken), or never created. */
export type PostLookup = { state: 'live'; post: StoredPost } | { state: 'deleted' } | { state: 'absent' };

export interface PostStore extends PostCountTally {
  /**
   * Creates the post unless its id was ever used, live or deleted: false then (a deleted post's id
   * stays taken, so no retry can ever create it again).
   */
  create(post: Post, idempotencyKey?: string): Promise<boolean>;
  /** The live post with its counts, or null (deleted or never created). */
  get(id: string): Promise<StoredPost | null>;
  lookup(id: string): Promise<PostLookup>;
  /** Found live posts in the order of `ids`; missing and deleted ones are left out. One read. */
  getMany(ids: string[]): Promise<StoredPost[]>;
  /**
   * Marks the post deleted for good (of racing deletes exactly one gets true), then drops its
   * body. A repeat returns false but still finishes dropping the body of a half-done delete.
   */
  markDeleted(id: string, at: number): Promise<boolean>;
  /**
   * The live post with every earlier version of its text, oldest first (one read); null for a
   * deleted or unknown post.
   */
  versions(id: string): Promise<{ post: StoredPost; earlier: PostVersion[] } | null>;
  /**
   * Replaces the post's text if its version is still `from`: the new body and entities, version
   * from + 1 and `editedAt`, and the replaced text kept as version `from` of the history — all at
   * once: a reader sees all of it or none. false when the version moved meanwhile or the post was
   * deleted (a delete moves it for good).
   */
  edit(
    id: string,
    from: number,
    next: { body: string; mentions?: MentionSpan[]; topics?: TopicSpan[]; editedAt: number },
    replaced: PostVersion,
  ): Promise<boolean>;
  /**
   * Records that `place` (a post, or a comment on one) names `handles` with a link from `since`
   * on: the mention index the erasure of a named user unlinks by (docs/consistency.md R). Written
   * BEFORE the text names them, so no link lacks its entry; an entry whose text never landed, or
   * no longer names the user, is checked against the text and dropped when read. One write.
   */
  listMentions(place: MentionPlace, handles: readonly string[], since: number): Promise<void>;
  /** Removes those entries (a refused request's own, before it answers). */
  unlistMentions(place: MentionPlace, handles: readonly string[], since: number): Promise<void>;
  /** An author's posts, newest first; cursor = last id of the previous page. */
  listByAuthor(author: string, limit: number, cursor?: string): Promise<Page<StoredPost>>;
  /** Up to `limit` newest posts of `author` created strictly after `notOlderThan` (millis). */
  recentByAuthor(author: string, limit: number, notOlderThan?: number): Promise<Post[]>;
  /**
   * Adds `delta` to one of the post's counts (concurrent changes all count: none is lost). With a
   * `fact`, the change is TALLIED: the fact's mark in its direction is set together with it, at
   * once (CountTally).
   */
  count(id: string, counter: keyof PostCounts, delta: number, fact?: string): Promise<void>;
}

/**
 * The tally of an exact count: which facts' changes it holds. Every +1 or −1 a request makes to a
 * count names its fact (this like, this comment, this follow), and the count and the fact's mark
 * for that direction move together, at once: a mark is there exactly when its change
 * was applied. So a request cut between its truth and its count is found out afterwards, and
 * its change applied once (shared/use-cases/background/tally.ts; invariant M in
 * docs/consistency.md). Marks expire (TALLY_TTL_SECONDS): only recent facts are judged.
 */
export interface CountTally<C extends string> {
  /** Whether the fact's +1 (`added`) and −1 (`removed`) are in `id`'s count. One read. */
  tallied(id: string, counter: C, fact: string): Promise<{ added: boolean; removed: boolean }>;
  /**
   * The right to apply one direction of a fact the request that owned it did not: a claim stamped
   * `now` where there is none, or a takeover of a claim stamped before `staleBefore` (its holder
   * has timed out). Of racing claimers exactly one gets true.
   */
  claim(id: string, counter: C, fact: string, sign: 1 | -1, now: number, staleBefore: number): Promise<boolean>;
}

export type PostCountTally = CountTally<keyof PostCounts>;

/**
 * What an idempotency key was first used for: the id of what that request creates (a post, a
 * comment, an upload: one key per user names one request, whatever it creates) and a fingerprint
 * of that request.
 */
export interface IdempotencyClaim {
  id: string;
  /** Hash of the request (what it creates, from what); absent on claims written before fingerprints were kept. */
  fingerprint?: string;
  /** The claiming request said it created `id` (markCreated): a record missing since was removed, not never made. */
  created?: true;
}

export interface IdempotencyStore {
  /** Claims `key` for this request's id; returns null if claimed now, or the claim an earlier request made. */
  claim(user: string, key: string, claim: { id: string; fingerprint: string }): Promise<IdempotencyClaim | null>;
  /**
   * Notes that the claim's `id` was created: for what leaves no trace once removed (an upload),
   * so that a later retry tells "removed since" (410) from "never made" (make it now).
   */
  markCreated(user: string, key: string, id: string): Promise<void>;
}

export interface Edge {
  handle: string;
  since: number;
}

export interface RelationStore {
  /** Records `follower → followee`: the following side (the truth) unless there is one, then the followers side. false = already following. */
  follow(follower: string, followee: string, at: number): Promise<boolean>;
  /**
   * Removes both sides. false = was not following, or the edge no longer holds `since`. `since`:
   * the edge's since as the caller just read it (edge()), so the store need not read it again;
   * without it the store reads it first.
   */
  unfollow(follower: string, followee: string, since?: number): Promise<boolean>;
  isFollowing(follower: string, followee: string): Promise<boolean>;
  /** The following side of the edge (the source of truth), or null. */
  edge(follower: string, followee: string): Promise<Edge | null>;
  /** The since recorded on the followers side of the edge (what fan-out reads), or null. */
  followerSide(follower: string, followee: string): Promise<number | null>;
  /** Makes the followers side agree with a following-side edge of that since (idempotent). */
  restoreFollowerSide(follower: string, followee: string, since: number): Promise<void>;
  /** Removes the followers side while it still holds `since` (a re-follow's survives); false when it did not. */
  removeFollowerSide(follower: string, followee: string, since: number): Promise<boolean>;
  /**
   * Every edge of a user, once, in an order of the store's choosing (stable, neither alphabetical
   * nor by time), for the walks that visit them all (promotion, demotion, away marks, rebuilds,
   * jobs); cursor = the last handle of the previous page. The product's lists are `listed`.
   */
  following(user: string, limit: number, cursor?: string): Promise<Page<Edge>>;
  followers(user: string, limit: number, cursor?: string): Promise<Page<Edge>>;
  /**
   * A page of the following or followers list index, newest first, strictly after `after`. An
   * entry may be stale (its edge gone, or holding another since): show one only when
   * `followSinces` finds the same since. One read.
   */
  listed(user: string, list: 'following' | 'followers', limit: number, after?: ListPosition): Promise<ListPage<Edge>>;
  /**
   * Some follow edges from anywhere in the graph: a run of up to `limit` index entries read
   * from the point `at` (0 ≤ at < 1) of the store's own order, which follows neither time nor
   * names — so from a random `at`, a user turns up about as often as they have edges. Entries as
   * indexed (one may be stale). One read.
   */
  sampleEdges(at: number, limit: number): Promise<{ follower: string; followee: string; since: number }[]>;
  /** The since of each edge (the following side, the truth), null where there is none; in the order asked. One read. */
  followSinces(edges: { follower: string; followee: string }[]): Promise<(number | null)[]>;
  /**
   * The followers fan-out writes to, with whether each is away (marked by the away sweep): read
   * with the follower list itself, so knowing who is away costs no extra read. `segment` limits
   * the page to one of `of` equal slices of the follower list (a big post's fan-out runs one per slice).
   */
  audience(author: string, limit: number, opts?: { cursor?: string; segment?: Segment }): Promise<Page<AudienceMember>>;
  /**
   * The same list as `pages` pages of `pageSize`, read as the caller asks for them (the packed
   * audience where it holds, else ONE read running through the pages, not one per page), so the
   * caller can write one page while the next is read. The last page carries nextCursor when the
   * list goes on; it may hold up to a quarter page more instead, where that ends the list (no
   * message of its own for a few followers past the bound).
   */
  audiencePages(
    author: string,
    opts: { cursor?: string; segment?: Segment; pageSize: number; pages: number },
  ): AsyncIterable<Page<AudienceMember>>;
  /** Marks `reader` away on the followers side of its edges to `followees` (one write). */
  markAway(reader: string, followees: string[], since: number): Promise<void>;
  /** Clears that mark (one write): fan-out reaches `reader` from these followees again. */
  clearAway(reader: string, followees: string[]): Promise<void>;
}

/** One of `of` about equal slices of a user's follower list; the store decides where they are cut. */
export interface Segment {
  index: number;
  of: number;
}

export interface AudienceMember {
  handle: string;
  /** The reader had not read their timeline for the inactivity window when the sweep passed: fan-out skips them. */
  away: boolean;
}

/** Which part of a feed-ordered list to read: at most `limit` entries strictly after the post `after`. */
export interface FeedWindow {
  after?: string;
  limit: number;
}

/** A window of post ids in feed order (newest first), and whether more follow it. */
export interface FeedSlice {
  entries: string[];
  more: boolean;
  /** The window's reposts: post id → original id (kept with the feed entry, so a page's originals are known before its posts are read). */
  reposts?: Record<string, string>;
}

/** A reader's inbox as one read sees it. */
export interface InboxView extends FeedSlice {
  /** The window's post ids fanned out or backfilled to the reader, in feed order (newest first). */
  entries: string[];
  /** Celebrities the reader follows: their posts are merged in at read time from their outboxes. */
  celebrities: string[];
  /** Millis of the reader's last recorded timeline read (absent: never recorded). */
  lastSeen?: number;
  /** Set while the inbox of a returning inactive reader is being rebuilt. */
  regeneratingSince?: number;
}

/** The newest part of a reader's inbox, above a post the reader has seen (the "anything newer?" check). */
export interface NewerView {
  /** Post ids strictly before (newer than, in feed order) the post asked about, newest first; at most the limit asked. */
  entries: string[];
  /** More than the limit are newer. */
  more: boolean;
  /** Celebrities the reader follows: their newer posts are in their outboxes, not here. */
  celebrities: string[];
}

export interface InboxStore {
  /** Adds the post to each reader's inbox, many readers in one write; adding it again leaves one entry, not two. */
  add(readers: string[], entry: FeedEntry): Promise<void>;
  /** Many posts into one reader's inbox in one write (backfill). */
  addMany(reader: string, entries: FeedEntry[]): Promise<void>;
  /** The same posts into many readers' inboxes (demotion backfill), a bounded batch of readers per write. */
  addManyToReaders(readers: string[], entries: FeedEntry[]): Promise<void>;
  /** Removes one post from each reader's inbox. */
  remove(readers: string[], postId: string): Promise<void>;
  /**
   * Removes every entry by `author` from `reader`'s inbox (reads only that inbox): an entry added
   * again after that read (a refollow's backfill) survives. Returns how many went.
   */
  purgeAuthor(reader: string, author: string): Promise<number>;
  /** Everything the timeline needs of the reader's inbox: a window of entries, celebrity markers, activity. One read. */
  read(reader: string, window: FeedWindow): Promise<InboxView>;
  /**
   * The entries newer than the post `than` (up to `limit`) and the celebrity markers, and nothing
   * else of the inbox: one read, however long the inbox and whatever it holds besides.
   */
  newer(reader: string, than: string, limit: number): Promise<NewerView>;
  /** How many entries, and the oldest entry's post time (for the backfill bound). */
  stats(reader: string): Promise<{ size: number; oldestMillis?: number }>;
  /** Celebrity markers: the reader's timeline merges these authors' outboxes at read time. */
  addCelebrity(readers: string[], celebrity: string): Promise<void>;
  removeCelebrity(readers: string[], celebrity: string): Promise<void>;
  /** Activity: last timeline read, and the regeneration flag of returning inactive readers. */
  markSeen(reader: string, at: number): Promise<void>;
  lastSeen(readers: string[]): Promise<Map<string, number>>;
  /** Records that the reader's follows were marked away at this last timeline read (the sweep skips them until it changes). */
  markAway(reader: string, seenAt: number): Promise<void>;
  markRegenerating(reader: string, at: number): Promise<void>;
  clearRegenerating(reader: string): Promise<void>;
}

/** Every author's newest posts (bounded by the trim job), for the celebrity read-time merge. */
export interface OutboxStore {
  add(author: string, entry: FeedEntry): Promise<void>;
  remove(author: string, postId: string): Promise<void>;
  /** Newest first, at most `limit` entries. One read. */
  recent(author: string, limit: number): Promise<FeedEntry[]>;
  /** The same window of each of the `authors`' outboxes (each in feed order, not merged). One read. */
  recentOf(authors: string[], window: FeedWindow): Promise<FeedSlice>;
  /**
   * One author's window (as recentOf), and how many entries the outbox holds in all (`held`): one
   * holding at least as many as the author's posts counter holds every post (never trimmed).
   * One read.
   */
  windowOf(author: string, window: FeedWindow): Promise<FeedSlice & { held: number }>;
  /**
   * Each of the `authors`' posts newer than the post `than`, up to `limit` per author (in feed
   * order per author, not merged; `more` when any author has more). One read.
   */
  newerOf(authors: string[], than: string, limit: number): Promise<FeedSlice>;
}

/** Which authors are celebrities (posts merged at read time instead of fanned out). */
export interface CelebrityRegistry {
  isCelebrity(author: string): Promise<boolean>;
  setCelebrity(author: string, celebrity: boolean): Promise<void>;
}

/** Account-level counters, kept exact: concurrent changes all count. */
export interface CounterStore extends CountTally<UserCounter> {
  /** Adds `delta` (concurrent changes all count: none is lost); with a `fact`, tallied like PostStore.count. */
  add(user: string, counter: UserCounter, delta: number, fact?: string): Promise<void>;
  get(user: string, counter: UserCounter): Promise<number>;
}

export type UserCounter = 'followers' | 'following' | 'posts';
