// shared/ports/social-store.ts — what notifications, topics, blocks and mutes need from storage.
// Implemented on HBase in shared/adapters/hbase/; every method is one get, one multi-get, one
// conditional write or one prefix-bounded scan (layout and requests: shared/schema/tables.ts,
// tables notifications, topics, trends, blocks).
import type { SafetyEdge, SafetyKind } from '../domain/visibility.js';
import type { ListPage, ListPosition, Page } from './feed-store.js';

// ------------------------------------------------------------------ blocks and mutes

export type BlockKind = SafetyKind;

export interface BlockEdge {
  handle: string;
  since: number;
}

export interface BlockStore {
  /** Put-if-absent (and its place in the newest-first list): false if the edge existed already. */
  add(kind: BlockKind, from: string, to: string, at: number): Promise<boolean>;
  /** Removes the edge (and its place in the list); false if there was none. */
  remove(kind: BlockKind, from: string, to: string): Promise<boolean>;
  has(kind: BlockKind, from: string, to: string): Promise<boolean>;
  /**
   * A page of the blocked (or muted) list, newest first, strictly after `after`. An entry may be
   * stale (its edge gone, or of another since): show one only when `sinces` agrees. One scan.
   */
  list(kind: BlockKind, from: string, limit: number, after?: ListPosition): Promise<ListPage<BlockEdge>>;
  /** The since of each of `from`'s edges of `kind` to `others`; absent where there is none. One multi-get. */
  sinces(kind: BlockKind, from: string, others: string[]): Promise<Map<string, number>>;
  /** true if either of the two blocks the other. One multi-get. */
  eitherBlocks(a: string, b: string): Promise<boolean>;
  /**
   * Which of `edges` exist (ONE multi-get, whatever the number of edges). What they mean for who
   * sees whom is the domain's rule (shared/domain/visibility.ts).
   */
  existing(edges: SafetyEdge[]): Promise<SafetyEdge[]>;
}

// ------------------------------------------------------------------ notifications

/** A list entry: a group at the time of its latest add, and what the entry carries for the page. */
export interface NotificationEntry {
  groupKey: string;
  at: number;
  /** The latest members when this entry was written, newest first: [member, millis]. */
  latest: [string, number][];
  /** For a comment, reply or mention in a comment: the comment's text (cut), kept with the entry. */
  excerpt?: string;
}

/** What an add reads of a group before it moves the group in the list. */
export interface GroupHead {
  /** Time of the group's latest add (its list position), null for a new group. */
  latestAt: number | null;
  /** The latest members, newest first: [member, millis]. */
  latest: [string, number][];
  /** Opaque: what `place` checks is unchanged (null for a group that has none yet). */
  version: string | null;
}

/** A group as its row holds it now. */
export interface GroupState {
  count: number;
  /** Time of the group's latest add: the entry at this time is the group's one live entry. */
  latestAt: number;
}

/** How `states` names a live member: group key and member together. */
export const memberRef = (groupKey: string, member: string) => `${groupKey}\u0000${member}`;

export interface NotificationStore {
  /** The since a member holds in a group, or null. */
  member(recipient: string, groupKey: string, member: string): Promise<number | null>;
  /**
   * Writes the member with `since`: put-if-absent, or (replacing) only while it holds that other
   * since. true = this call wrote it (the caller then counts, once).
   */
  putMember(recipient: string, groupKey: string, member: string, since: number, replacing?: number): Promise<boolean>;
  /** Removes the member while it holds `since`; true = this call removed it (the caller uncounts). */
  removeMember(recipient: string, groupKey: string, member: string, since: number): Promise<boolean>;
  /** Adds `delta` to the group's exact count (server-side increment). */
  count(recipient: string, groupKey: string, delta: number): Promise<void>;
  /** The group's list position and latest members, as an add reads them before `place`. */
  head(recipient: string, groupKey: string): Promise<GroupHead>;
  /**
   * Replaces the group's latest members with `next.latest` only while they are still what `seen`
   * read (false: another add changed them first; read again). Then lists the group at `next.at`:
   * the new entry first (carrying `latest` and `excerpt`), then the position, then the entry at
   * `seen.latestAt` goes if that was older — the group is listed throughout. Racing adds can
   * leave an extra entry; it is skipped at read (its time is not the group's latest).
   */
  place(recipient: string, groupKey: string, next: { at: number; latest: [string, number][]; excerpt?: string }, seen: GroupHead): Promise<boolean>;
  /** Entries newest first, strictly after `after`; `more` if the scan found another. */
  entries(recipient: string, limit: number, after?: { at: number; groupKey: string }): Promise<{ items: NotificationEntry[]; more: boolean }>;
  /** The groups' states and which of `members` are still live, in ONE multi-get. */
  states(recipient: string, groupKeys: string[], members: { groupKey: string; member: string }[]): Promise<{ groups: Map<string, GroupState>; live: Set<string> }>;
  /** The read-up-to marker, 0 if never set. */
  readUpTo(recipient: string): Promise<number>;
  /** Moves the marker to `at` unless it is already later (a max-register). */
  markRead(recipient: string, at: number): Promise<void>;
}

// ------------------------------------------------------------------ topics

export interface TopicStore {
  /**
   * Index the post under each topic (one batched put) and count it in the trend bucket
   * `trendBucket` (domain/trending.ts trendBucketOf): one increment per topic.
   */
  add(postId: string, createdAt: number, topics: string[], trendBucket: number): Promise<void>;
  remove(postId: string, topics: string[]): Promise<void>;
  /** Post ids of a topic, newest first; cursor = the last post id of the previous page. */
  posts(topic: string, limit: number, cursor?: string): Promise<Page<string>>;
  /** Posts per topic counted in `buckets`, summed (topics with no count absent). One multi-get. */
  trendCounts(buckets: number[]): Promise<Map<string, number>>;
}
