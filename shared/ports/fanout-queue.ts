// shared/ports/fanout-queue.ts — the messages the fan-out worker consumes, and the port that
// sends them (SQS in production, ElasticMQ locally). Messages are validated with zod by the
// worker; anything that does not parse is poison and ends in the DLQ.
import { z } from 'zod';

export const FanoutMessage = z.discriminatedUnion('type', [
  /** Deliver a post to its author's followers, from `cursor` (the last follower handled) on. */
  z.object({ v: z.literal(1), type: z.literal('fanout'), postId: z.string().max(64), cursor: z.string().max(64).optional() }),
  /** Remove a deleted post from its author's followers' inboxes. */
  z.object({ v: z.literal(1), type: z.literal('retract'), postId: z.string().max(64), cursor: z.string().max(64).optional() }),
  /** After a follow: copy the followee's recent posts into the reader's inbox. */
  z.object({ v: z.literal(1), type: z.literal('backfill'), reader: z.string().max(30), followee: z.string().max(30) }),
  /** An author crossed the celebrity threshold: mark every follower's inbox, then flag the author. */
  z.object({ v: z.literal(1), type: z.literal('promote'), author: z.string().max(30), cursor: z.string().max(64).optional() }),
  /** An author fell below it: unflag, then backfill followers' inboxes and drop their markers. */
  z.object({ v: z.literal(1), type: z.literal('demote'), author: z.string().max(30), cursor: z.string().max(64).optional() }),
  /** A returning inactive reader: rebuild the inbox from the followees' recent posts. */
  z.object({ v: z.literal(1), type: z.literal('regenerate'), reader: z.string().max(30), cursor: z.string().max(64).optional() }),
]);
export type FanoutMessage = z.infer<typeof FanoutMessage>;

export interface FanoutQueue {
  send(message: FanoutMessage): Promise<void>;
}
