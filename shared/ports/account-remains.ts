// shared/ports/account-remains.ts — what the erasure of an account (use-cases/erase-account.ts)
// needs from storage beyond the ports every request uses: where departures wait, what is left of
// an account, and the removals no request makes. Every read returns a bounded batch of what is
// still there; the erasure removes each item it is handed, so the next read starts at the
// beginning again and no position is carried. Implemented by
// shared/adapters/hbase/hbase-account-remains.ts.
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

/** The account's own reactions to one post: its like and its bookmark (its reposts go with its posts). */
export interface OwnReaction {
  postId: string;
  likedAt: number | null;
  bookmarkedAt: number | null;
}

/** Someone else's trace on one of the account's posts, kept on their side. */
export interface TraceOnPost {
  /** 'like' and 'bookmark': their reaction to the post; 'repost': their repost (which stays: it is their post). */
  kind: 'like' | 'bookmark' | 'repost';
  user: string;
  since: number;
  /** For a repost: its id. */
  repostId?: string;
}

/** A comment on a post, whoever wrote it, deleted or not. */
export interface CommentTrace {
  commentId: string;
  author: string | null;
  createdAt: number;
  replyTo?: { id: string; author: string };
  mentions: string[];
}

export interface AccountRemains {
  /** Up to `limit` departures of `stage` due by `now`, oldest first (one read). */
  due(stage: DepartureStage, now: number, limit: number): Promise<Departure[]>;
  /** Schedules a departure (idempotent). */
  schedule(departure: Departure): Promise<void>;
  /** Unschedules a departure (idempotent). */
  unschedule(departure: Departure): Promise<void>;
  /** The account's standing (null: the handle is nobody's, not even reserved). */
  standing(handle: string): Promise<Standing | null>;
  /**
   * The erasure begins: the standing moves from deactivated at `from` to erased at `at`, only if it
   * is still that (docs/consistency.md Q): false when a restore or another leave moved it first.
   */
  beginErasure(handle: string, from: number, at: number): Promise<boolean>;
  /** Reduces the account's record to the handle's reservation (the handle and the erased standing); idempotent. */
  reserve(handle: string): Promise<void>;
  /** Deletes the reservation if the standing is still erased at `at` (the handle is free again); false when not. */
  release(handle: string, at: number): Promise<boolean>;

  /** The ids of the account's posts, live or deleted. */
  posts(handle: string, limit: number): Promise<string[]>;
  /** Others' likes, bookmarks and reposts of one post. */
  tracesOn(postId: string, limit: number): Promise<TraceOnPost[]>;
  /** The comments on a post, live or deleted. */
  commentsOn(postId: string, limit: number): Promise<CommentTrace[]>;
  /**
   * Drops one of the account's posts for good, live or deleted: the post itself, who liked and
   * reposted it, its likers and bookmarkers lists, its comments, and the mention entries of the
   * post and its comments (its own and the named users').
   */
  dropPost(postId: string): Promise<void>;
  /**
   * Drops `user`'s reactions to `postId` and their entries on the post's side (likers, bookmarkers,
   * who reposted); their repost itself stays. Someone's trace on a post going away.
   */
  dropTrace(postId: string, trace: TraceOnPost): Promise<void>;
  /** Drops a comment for good, deleted or not, and its entry in its author's index of written comments. */
  dropComment(postId: string, comment: Pick<CommentTrace, 'commentId' | 'author' | 'createdAt'>): Promise<void>;

  /** The account's own reactions, one item per post. */
  reactions(handle: string, limit: number): Promise<OwnReaction[]>;
  /** Drops the account's reactions to `postId` (its like and its bookmark). */
  dropReaction(handle: string, postId: string): Promise<void>;
  /** The account's comments on others' posts, from the index of the comments it wrote: post, comment, since. */
  written(handle: string, limit: number): Promise<{ postId: string; commentId: string; since: number }[]>;
  /** Where the account is named with a link (its mention index): each place and when it named it. */
  mentionsOf(handle: string, limit: number): Promise<{ place: MentionPlace; since: number }[]>;
  /**
   * Takes the links to `handle` out of the text at `place` (a post: its current text and its
   * history; a comment), keeping the text: written only over the text as read, and read again when
   * an edit moved it first. Nothing to do for a text that is gone or no longer names it.
   */
  unlinkMention(handle: string, place: MentionPlace): Promise<void>;
  /** Drops one mention's two entries (the named user's, and the post's). */
  dropMention(handle: string, place: MentionPlace, since: number): Promise<void>;
  /** Who blocks or mutes the account (the reverse entries beside their edges). */
  blockedBy(handle: string, limit: number): Promise<{ kind: 'block' | 'mute'; user: string; since: number }[]>;
  /** The account's own blocks and mutes. */
  blocking(handle: string, limit: number): Promise<{ kind: 'block' | 'mute'; user: string; since: number }[]>;
  /** Drops a block or mute edge whatever it holds, and both its entries of `since` (the account's, and the other user's). */
  dropBlock(kind: 'block' | 'mute', from: string, to: string, since: number): Promise<void>;

  /** Removes a member from another user's notification group for good (its instances and the group's record of it). */
  forgetMember(recipient: string, groupKey: string, member: string): Promise<void>;
  /** Removes another user's notification group for good: its state, members and list entry. */
  forgetGroup(recipient: string, groupKey: string): Promise<void>;

  /**
   * Deletes everything left that is the account's own (its inbox and outbox, its notifications,
   * its list entries of every kind, its relations, blocks and reactions, its packed audience, its
   * idempotency claims, write quotas and login throttles). Run last: this is what the walk above
   * emptied, or what no one else reads. At most `limit` items a call; returns how many went.
   */
  dropOwnRows(handle: string, limit: number): Promise<number>;
}
