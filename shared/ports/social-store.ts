// shared/ports/social-store.ts — what notifications, topics, blocks and mutes need from storage.
// Implemented on HBase in shared/adapters/hbase/; every method is one get, one multi-get, one
// conditional write or one prefix-bounded scan (layout and requests: shared/schema/tables.ts,
// tables notifications, topics, trends, blocks).
import type { ListPage, ListPosition, Page } from './feed-store.js';

// ------------------------------------------------------------------ blocks and mutes

export type BlockKind = 'block' | 'mute';

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
   * Of `others`, those `reader` must not see: the reader blocks or mutes them, or they block the
   * reader. One multi-get of three rows per other user.
   */
  hiddenFrom(reader: string, others: string[]): Promise<Set<string>>;
  /**
   * Of `recipients`, those who must get no notification from `actor`: they block or mute the
   * actor, or the actor blocks them. One multi-get.
   */
  silencing(actor: string, recipients: string[]): Promise<Set<string>>;
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
  /**
   * After an add won: moves the group to `at` if that is newer than where it is (the entry at the
   * old time is deleted, a new one written) and puts the member first among the latest. Racing
   * adds can leave an extra entry; it is skipped at read (its time is not the group's latest).
   */
  touch(recipient: string, groupKey: string, member: string, at: number, excerpt?: string): Promise<void>;
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
  /** Index the post under each topic (one batched put) and count it for trending. */
  add(postId: string, createdAt: number, topics: string[]): Promise<void>;
  remove(postId: string, topics: string[]): Promise<void>;
  /** Post ids of a topic, newest first; cursor = the last post id of the previous page. */
  posts(topic: string, limit: number, cursor?: string): Promise<Page<string>>;
  /** Posts per topic over the last `windowMs` (from the sharded counters), highest first. */
  trending(now: number, windowMs: number, limit: number): Promise<{ name: string; posts: number }[]>;
}
