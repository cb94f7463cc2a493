// shared/ports/social-store.ts — what notifications, topics, blocks and mutes need from storage.
// Implemented in shared/adapters/hbase/. Where a method's cost matters its comment
// says it ("one read", "one write": one round trip); how each maps onto storage: the adapters.
import type { GroupState, MemberInstances, NotificationType } from '../domain/notification.js';
import type { SafetyEdge, SafetyKind } from '../domain/visibility.js';
import type { ListPage, ListPosition, Page } from './feed-store.js';

// ------------------------------------------------------------------ blocks and mutes

export type BlockKind = SafetyKind;

export interface BlockEdge {
  handle: string;
  since: number;
}

export interface BlockStore {
  /** Adds the edge unless it exists (and its place in the newest-first list): false if it existed already. */
  add(kind: BlockKind, from: string, to: string, at: number): Promise<boolean>;
  /** Removes the edge (and its place in the list); false if there was none. */
  remove(kind: BlockKind, from: string, to: string): Promise<boolean>;
  has(kind: BlockKind, from: string, to: string): Promise<boolean>;
  /**
   * A page of the blocked (or muted) list, newest first, strictly after `after`. An entry may be
   * stale (its edge gone, or of another since): show one only when `sinces` agrees. One read.
   */
  list(kind: BlockKind, from: string, limit: number, after?: ListPosition): Promise<ListPage<BlockEdge>>;
  /** The since of each of `from`'s edges of `kind` to `others`; absent where there is none. One read. */
  sinces(kind: BlockKind, from: string, others: string[]): Promise<Map<string, number>>;
  /** true if either of the two blocks the other. One read. */
  eitherBlocks(a: string, b: string): Promise<boolean>;
  /**
   * Which of `edges` exist (ONE read, whatever the number of edges). What they mean for who
   * sees whom is the domain's rule (shared/domain/visibility.ts).
   */
  existing(edges: SafetyEdge[]): Promise<SafetyEdge[]>;
}

// ------------------------------------------------------------------ notifications

/** A list entry: a group at the time of its latest add, and what the entry carries for the page. */
export interface NotificationEntry {
  groupKey: string;
  at: number;
  /** The latest members of the newest group state that listed it, newest first: [member, millis]. */
  latest: [string, number][];
  /** For a comment, reply or mention in a comment: the comment's text (cut), kept with the entry. */
  excerpt?: string;
}

/** A value as read, with what a conditional swap checks is unchanged (opaque; null: none stored yet). */
export interface Versioned<T> {
  value: T;
  version: string | null;
}

export interface NotificationStore {
  /** The live instances a member holds in a group ([] for none), and what `swapMember` checks. */
  member(recipient: string, groupKey: string, member: string): Promise<Versioned<MemberInstances>>;
  /** Replaces the member's instances with `next` only while they are still what `seen` read (false: read again). */
  swapMember(
    recipient: string,
    groupKey: string,
    member: string,
    next: MemberInstances,
    seen: Versioned<MemberInstances>,
  ): Promise<boolean>;
  /**
   * The group's state (count, place, latest actors) as one value, and what `swapGroup` checks;
   * with whether the count includes `member` (undefined: the group has never recorded it — it was
   * written before groups kept that, or the member never changed it).
   */
  group(recipient: string, groupKey: string, member: string): Promise<Versioned<GroupState> & { counts?: boolean }>;
  /**
   * Replaces the group's state with `next` only while it is still what `seen` read (false: read
   * again), and records with it, at once, whether the count now includes `member`.
   */
  swapGroup(
    recipient: string,
    groupKey: string,
    next: GroupState,
    seen: Versioned<GroupState>,
    member: { handle: string; counts: boolean },
  ): Promise<boolean>;
  /**
   * Lists the group at `state.at` with its latest actors (and a comment's excerpt), then removes
   * the entry at `previousAt` if that was older: the group is listed throughout. Racing writers
   * can leave an extra entry; it is skipped at read (its time is not the group's).
   */
  list(
    recipient: string,
    groupKey: string,
    state: GroupState,
    previousAt: number | null,
    excerpt?: string,
  ): Promise<void>;
  /**
   * Entries newest first, strictly after `after`; `more` if there is another. With `types`, only
   * entries of groups of those types (still ONE read, filling the page from the recipient's own entries).
   */
  entries(
    recipient: string,
    limit: number,
    after?: { at: number; groupKey: string },
    types?: readonly NotificationType[],
  ): Promise<{ items: NotificationEntry[]; more: boolean }>;
  /** The groups' states, in ONE read. */
  states(recipient: string, groupKeys: string[]): Promise<Map<string, GroupState>>;
  /** The read-up-to marker, 0 if never set. */
  readUpTo(recipient: string): Promise<number>;
  /** Moves the marker to `at` unless it is already later (a max-register). */
  markRead(recipient: string, at: number): Promise<void>;
}

// ------------------------------------------------------------------ topics

export interface TopicStore {
  /**
   * Index the post under each topic (one write) and count it in the trend bucket `trendBucket`
   * (domain/trending.ts trendBucketOf): +1 per topic, concurrent counts all kept. `null`: index
   * only (an edit indexes a topic before it counts, and never counts one twice).
   */
  add(postId: string, createdAt: number, topics: string[], trendBucket: number | null): Promise<void>;
  remove(postId: string, topics: string[]): Promise<void>;
  /** Post ids of a topic, newest first; cursor = the last post id of the previous page. */
  posts(topic: string, limit: number, cursor?: string): Promise<Page<string>>;
  /**
   * Names of topics in use (a post carried it within the index's keeping time) that start with
   * `prefix` (text-entities.ts topicPrefixForm), in name order, at most `limit`. One read. A
   * name stays after its posts are deleted, until the keeping time ends.
   */
  named(prefix: string, limit: number): Promise<string[]>;
  /** Posts per topic counted in `buckets`, summed (topics with no count absent). One read. */
  trendCounts(buckets: number[]): Promise<Map<string, number>>;
}
