// shared/use-cases/background/message.ts — what every background message handler shares: the
// message of one type, the core of the outcome the worker logs and measures, and the hand-on of
// a bounded walk to a follow-up message.
import type { FanoutMessage } from '../../ports/fanout-queue.js';
import type { FeedDeps } from '../feed-deps.js';

export type MessageType = FanoutMessage['type'];
export type MessageOf<K extends MessageType> = Extract<FanoutMessage, { type: K }>;

/**
 * What every handler reports: the worker logs these fields, and inboxCells is the
 * InboxCellsWritten metric (shared/observability/metrics.ts). A handler adds fields of its own.
 * `Skip`: why a message of that type may have done nothing (none by default); FanoutLag is not
 * recorded for a skipped delivery.
 */
export interface Handled<Skip extends string = never> {
  readers: number;
  /** The rest of the walk was queued as a follow-up message with a cursor. */
  continued: boolean;
  /** Post entries this message wrote into inboxes (the write amplification an operator watches). */
  inboxCells: number;
  skipped?: Skip;
}

/** The messages that walk a list, a bounded part per message. */
export type WalkMessage = MessageOf<'fanout' | 'retract' | 'away' | 'promote' | 'demote' | 'regenerate'>;

/**
 * Queues the rest of `msg`'s walk from `nextCursor` on: work per message stays bounded and
 * memory holds one page at a time. True if there was a rest.
 */
export async function continueWith(
  deps: Pick<FeedDeps, 'queue'>,
  msg: WalkMessage,
  nextCursor: string | undefined,
): Promise<boolean> {
  if (nextCursor) await deps.queue.send({ ...msg, cursor: nextCursor });
  return Boolean(nextCursor);
}
