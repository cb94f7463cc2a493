// shared/ports/account-remains.ts — what the erasure of an account (use-cases/erase-account.ts)
// needs from storage beyond the ports every request uses: where departures wait, what is left of
// an account, and the removals no request makes. Every read returns a bounded batch of what is
// still there; the erasure removes each item it is handed, so the
// next read starts at the beginning again and no position is carried. One HBase implementation
// (shared/adapters/hbase/hbase-account-remains.ts); the layouts it knows are in tables.ts.
import type { DepartureStage } from '../domain/leaving.js';
import type { Standing } from '../domain/leaving.js';
import type { MentionPlace } from '../domain/text-entities.js';

export type { DepartureStage };

/** An account waiting for a stage of its departure: 'erase' from `due` on, or 'release' (the handle freed). */
export interface Departure {
  stage: DepartureStage;
  handle: string;
  due: number;
}

/** One of the account's own reactions rows: its like and its bookmark of one post (its reposts go with its posts). */
export interface OwnReaction {
  postId: string;
  likedAt: number | null;
  bookmarkedAt: number | null;
}

/** Someone else's trace on one of the account's posts, kept on their side. */
export interface TraceOnPost {
  /** 'like' and 'bookmark' in their reactions row; 'repost' their repost (which stays: their post). */
  kind: 'like' | 'bookmark' | 'repost';
  user: string;
  since: number;
  /** For a repost: its id. */
  repostId?: string;
}

/** A comment row of a post, whoever wrote it, deleted or not. */
export interface CommentTrace {
  commentId: string;
  author: string | null;
  createdAt: number;
  replyTo?: { id: string; author: string };
  mentions: string[];
}

export interface AccountRemains {
  /** Up to `limit` departures of `stage` due by `now`, oldest first (one scan). */
  due(stage: DepartureStage, now: number, limit: number): Promise<Departure[]>;
  /** Writes a departure's entry (idempotent). */
  schedule(departure: Departure): Promise<void>;
  /** Drops a departure's entry (idempotent). */
  unschedule(departure: Departure): Promise<void>;
  /** The account's standing (null: no users row at all). */
  standing(handle: string): Promise<Standing | null>;
  /**
   * The erasure begins: standing deactivated at `from` → erased at `at`, ONE check-and-put on the
   * standing (docs/consistency.md Q): false when a restore or another leave moved it first.
   */
  beginErasure(handle: string, from: number, at: number): Promise<boolean>;
  /** Reduces the users row to the handle's reservation (the handle and the erased standing); idempotent. */
  reserve(handle: string): Promise<void>;
  /** Deletes the reservation, if the standing is still erased at `at` (the handle is free again). */
  release(handle: string, at: number): Promise<boolean>;

  /** The account's posts, live or tombstones: their ids. */
  posts(handle: string, limit: number): Promise<string[]>;
  /** Others' likes, bookmarks and reposts of one post (its likers', bookmarkers' and reposts' rows). */
  tracesOn(postId: string, limit: number): Promise<TraceOnPost[]>;
  /** The comment rows of a post, live or deleted. */
  commentsOn(postId: string, limit: number): Promise<CommentTrace[]>;
  /**
   * Drops one of the account's posts for good: its row (tombstone too), its reactors and likers
   * entries, its comments' rows, and the mention entries of the post and its comments (both sides).
   */
  dropPost(postId: string): Promise<void>;
  /** Drops `user`'s reactions row for `postId` and the entries beside it (someone's trace on a post going away). */
  dropTrace(postId: string, trace: TraceOnPost): Promise<void>;
  /** Drops a comment row for good, and its author's index entry (W). */
  dropComment(postId: string, comment: Pick<CommentTrace, 'commentId' | 'author' | 'createdAt'>): Promise<void>;

  /** The account's own reactions rows. */
  reactions(handle: string, limit: number): Promise<OwnReaction[]>;
  /** Drops the account's reactions row for `postId`. */
  dropReaction(handle: string, postId: string): Promise<void>;
  /** The account's comments on others' posts, from its index (kind W): post, comment, since. */
  written(handle: string, limit: number): Promise<{ postId: string; commentId: string; since: number }[]>;
  /** Where the account is named with a link (its mention index, kind N): each place and when it named it. */
  mentionsOf(handle: string, limit: number): Promise<{ place: MentionPlace; since: number }[]>;
  /**
   * Takes the links to `handle` out of the text at `place` (a post: its current text and its
   * history; a comment), keeping the text: a check-and-put on what was read, read again when an
   * edit moved it first. Nothing to do for a text that is gone or no longer names it.
   */
  unlinkMention(handle: string, place: MentionPlace): Promise<void>;
  /** Drops one mention's two entries (kind N of the named, kind n of the post). */
  dropMention(handle: string, place: MentionPlace, since: number): Promise<void>;
  /** Who blocks or mutes the account (the reverse entries beside their edges). */
  blockedBy(handle: string, limit: number): Promise<{ kind: 'block' | 'mute'; user: string; since: number }[]>;
  /** The account's own blocks and mutes. */
  blocking(handle: string, limit: number): Promise<{ kind: 'block' | 'mute'; user: string; since: number }[]>;
  /** Drops a block or mute edge whatever it holds, and both its entries of `since` (the account's, and the other user's). */
  dropBlock(kind: 'block' | 'mute', from: string, to: string, since: number): Promise<void>;

  /** Removes a member from another user's notification group for good (its member row and the group's record of it). */
  forgetMember(recipient: string, groupKey: string, member: string): Promise<void>;
  /** Removes another user's notification group for good: its state, members and list entry. */
  forgetGroup(recipient: string, groupKey: string): Promise<void>;

  /**
   * Deletes every row left under the account's own keys (its inbox and outbox, its notifications,
   * its list entries of every kind, its relations, blocks and reactions rows, its packed audience,
   * its idempotency, quota and throttle rows). Run last: these are the rows the walk above
   * emptied or no one else reads. At most `limit` rows a call; returns how many went.
   */
  dropOwnRows(handle: string, limit: number): Promise<number>;
}
