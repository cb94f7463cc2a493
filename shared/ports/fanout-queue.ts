// shared/ports/fanout-queue.ts — the messages the fan-out worker consumes, and the port that
// sends them (SQS in production, ElasticMQ locally). Messages are validated with zod by the
// worker; anything that does not parse is poison and ends in the DLQ.
import { SPECIAL_FANS_PER_MESSAGE } from '../domain/groups.js';
import * as z from 'zod';
import { MAX_MENTIONS } from '../domain/text-entities.js';

const handle = z.string().max(30);
const postId = z.string().max(64);
const since = z.number().int().nonnegative();
const mentions = z.array(handle).max(MAX_MENTIONS);
/** The most reposters one edit's notification names (the read of the post's reposts is bounded so). */
export const EDIT_REPOSTERS_TOLD = 200;

/** A fact that notifies someone (shared/domain/notification.ts), as the notify message carries it. */
const Fact = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('like'), actor: handle, postId, since }),
  z.object({ kind: z.literal('follow'), actor: handle, target: handle, since }),
  z.object({ kind: z.literal('repost'), actor: handle, postId, original: postId, since }),
  z.object({
    kind: z.literal('comment'),
    actor: handle,
    postId,
    commentId: z.string().max(32),
    since,
    replyTo: handle.optional(),
    mentions,
  }),
  z.object({ kind: z.literal('post'), actor: handle, postId, since, mentions }),
  z.object({
    kind: z.literal('commentLike'),
    actor: handle,
    postId,
    commentId: z.string().max(32),
    author: handle,
    since,
  }),
  z.object({
    kind: z.literal('edit'),
    actor: handle,
    postId,
    since,
    reposters: z.array(handle).max(EDIT_REPOSTERS_TOLD),
  }),
  z.object({
    kind: z.literal('special'),
    actor: handle,
    postId,
    since,
    fans: z.array(handle).max(SPECIAL_FANS_PER_MESSAGE),
  }),
]);

/** One of `of` equal slices of the author's follower list (RelationStore.audience). */
const segment = z
  .strictObject({ index: z.number().int().nonnegative(), of: z.number().int().min(1).max(256) })
  .refine((s) => s.index < s.of, 'segment index must be below its count');

export const FanoutMessage = z.discriminatedUnion('type', [
  /**
   * Deliver a post to its author's followers, from `cursor` (the last follower handled) on. The
   * first message of a big author's post splits the list into segments, one message each.
   */
  z.object({
    v: z.literal(1),
    type: z.literal('fanout'),
    postId: z.string().max(64),
    cursor: z.string().max(64).optional(),
    segment: segment.optional(),
  }),
  /** Remove a deleted post from its author's followers' inboxes (split into segments alike). */
  z.object({
    v: z.literal(1),
    type: z.literal('retract'),
    postId: z.string().max(64),
    cursor: z.string().max(64).optional(),
    segment: segment.optional(),
  }),
  /**
   * From the away sweep: `reader` last read their timeline at `seenAt`, longer ago than the
   * inactivity window. Marks them away on the followers side of each of their follows (so
   * fan-out skips them at no cost), unless they came back meanwhile.
   */
  z.object({
    v: z.literal(1),
    type: z.literal('away'),
    reader: z.string().max(30),
    seenAt: z.number().int().nonnegative(),
    cursor: z.string().max(64).optional(),
  }),
  /** After a follow: copy the followee's recent posts into the reader's inbox. */
  z.object({ v: z.literal(1), type: z.literal('backfill'), reader: z.string().max(30), followee: z.string().max(30) }),
  /**
   * An author crossed the celebrity threshold: mark every follower's inbox, then flag the author.
   * `recheck`: the same walk again, a settle window after the flag, while the author is still flagged.
   */
  z.object({
    v: z.literal(1),
    type: z.literal('promote'),
    author: z.string().max(30),
    cursor: z.string().max(64).optional(),
    recheck: z.literal(true).optional(),
  }),
  /**
   * An author fell below it: unflag, then backfill followers' inboxes and drop their markers.
   * `recheck`: the same walk again, a settle window after it ended, while the author is still unflagged.
   */
  z.object({
    v: z.literal(1),
    type: z.literal('demote'),
    author: z.string().max(30),
    cursor: z.string().max(64).optional(),
    recheck: z.literal(true).optional(),
  }),
  /**
   * Sent (delayed by the settle window) by every follow and unfollow BEFORE its first write:
   * makes the reader's view of the followee agree with the edge as it stands then, after any
   * work that read the old state has landed (docs/consistency.md, "settle").
   * `at`: when the operation began; a followers side newer than that belongs to a later follow.
   * `tally`: the follow (`since`) whose counts this operation changed or added (`removal`: an
   * unfollow); the settle then applies a change to followers / following that the operation
   * was cut before (shared/use-cases/background/tally.ts). Absent on the repair job's settles.
   */
  z.object({
    v: z.literal(1),
    type: z.literal('settle'),
    reader: z.string().max(30),
    followee: z.string().max(30),
    at: z.number().int().nonnegative(),
    tally: z.strictObject({ since, removal: z.boolean() }).optional(),
  }),
  /** A deleted post: remove its comments for good, a bounded batch per message (reads already hide them). */
  z.object({ v: z.literal(1), type: z.literal('purge-comments'), postId: z.string().max(64) }),
  /**
   * A deleted post: remove its search entries (the terms of every text it had), a bounded batch
   * per message (reads already hide it).
   */
  z.object({
    v: z.literal(1),
    type: z.literal('unindex'),
    postId: z.string().max(64),
    terms: z.array(z.string().max(200)).max(10_000),
  }),
  /**
   * Make the notifications of one fact agree with its source of truth: added while the fact is
   * live, retracted once it is not. Sent right after the fact's write, and again delayed by the
   * settle window before it (shared/use-cases/notifications.ts). The delayed half carries
   * `tally`: when its operation began (`at`) and whether it took the fact back (`removal`: an
   * unlike, a deleted comment or repost); it then also applies a count change the operation was
   * cut before (shared/use-cases/background/tally.ts).
   */
  z.object({
    v: z.literal(1),
    type: z.literal('notify'),
    fact: Fact,
    tally: z.strictObject({ at: since, removal: z.boolean() }).optional(),
  }),
  /** Build the user's data export asked for at `requestedAt` (shared/use-cases/export-data.ts). */
  z.object({
    v: z.literal(1),
    type: z.literal('export'),
    user: z.string().max(30),
    requestedAt: z.number().int().nonnegative(),
  }),
  /** A returning inactive reader: rebuild the inbox from the followees' recent posts. */
  z.object({
    v: z.literal(1),
    type: z.literal('regenerate'),
    reader: z.string().max(30),
    cursor: z.string().max(64).optional(),
  }),
]);
export type FanoutMessage = z.infer<typeof FanoutMessage>;

export interface FanoutQueue {
  /**
   * `delaySeconds` (≤ 900, the SQS maximum): the message becomes visible only after that long.
   * The sender's correlation id (shared/observability) travels beside the message, never in it.
   */
  send(message: FanoutMessage, opts?: { delaySeconds?: number }): Promise<void>;
}
