// shared/use-cases/background/handlers.ts — what the SQS worker (functions/queue/fan-out.ts)
// does with each message: one handler per message type, in modules named for the invariant of
// docs/consistency.md they keep. Every handler is idempotent (a re-delivered message
// rewrites the same cells), its work per message is bounded (a walk covers at most
// FANOUT_CHUNK_SIZE × FANOUT_CHUNKS_PER_MESSAGE entries and hands the rest on with a cursor,
// pager.ts), and memory holds one page of a list at a time.
import type { FanoutMessage } from '../../ports/fanout-queue.js';
import type { FeedDeps } from '../feed-deps.js';
import { markAway, regenerate } from './activity.js';
import { demote, promote } from './celebrity.js';
import { backfillFollow, deliverPost, retractPost } from './delivery.js';
import type { Handled, MessageOf, MessageType } from './message.js';
import { notify } from './notify.js';
import { purgeComments, purgeSearchEntries } from './purge.js';
import { settleMessage } from './settle.js';
import { buildExport } from '../export-data.js';

/**
 * What the worker hands every message: the union of what its handlers take (each takes only its
 * part). Nearly the whole of FeedDeps, as the worker runs every kind of message; not the
 * request-side ports (idempotency keys, write quota, topics, the feeds' face cache).
 */
export type WorkerDeps = Pick<
  FeedDeps,
  | 'users'
  | 'posts'
  | 'relations'
  | 'groups'
  | 'inbox'
  | 'counters'
  | 'outbox'
  | 'celebrities'
  | 'reactions'
  | 'comments'
  | 'search'
  | 'hot'
  | 'blocks'
  | 'notifications'
  | 'queue'
  | 'limits'
  | 'pictures'
  | 'exports'
  | 'announcer'
  | 'step'
>;

/** Exactly one handler for every message type the queue carries (FanoutMessage). */
type Handlers = { [K in MessageType]: (deps: WorkerDeps, msg: MessageOf<K>) => Promise<Handled<string>> };

const handlers = {
  fanout: deliverPost,
  retract: retractPost,
  backfill: backfillFollow,
  away: markAway,
  regenerate,
  promote,
  demote,
  settle: settleMessage,
  'purge-comments': purgeComments,
  unindex: purgeSearchEntries,
  notify,
  export: (deps, msg) => buildExport(deps, msg),
} satisfies Handlers;

/** What handling a message of type K reports (each handler's own outcome). */
export type OutcomeOf<K extends MessageType> = Awaited<ReturnType<(typeof handlers)[K]>>;

export async function handleFanoutMessage<M extends FanoutMessage>(
  deps: WorkerDeps,
  msg: M,
): Promise<OutcomeOf<M['type']>> {
  // The table pairs each type with its handler; indexing it with the message's (generic) type
  // loses that pairing in TypeScript's eyes, so it is restated here.
  const handle = handlers[msg.type] as unknown as (deps: WorkerDeps, msg: M) => Promise<OutcomeOf<M['type']>>;
  return handle(deps, msg);
}
