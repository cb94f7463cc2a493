// shared/use-cases/background/notify.ts — one fact's notifications made to agree with the fact's
// source of truth (shared/use-cases/notifications.ts, reconcileFact). Keeps F (notifications
// converge to the facts they report, docs/consistency.md): any number of deliveries, in
// any order, leave the same state. The delayed half also keeps M: a count change its request was
// cut before is applied (tally.ts).
import { reconcileFact, type ReconcileDeps } from '../notifications.js';
import type { FeedDeps } from '../feed-deps.js';
import { announceToFollowers } from '../live.js';
import type { Handled, MessageOf } from './message.js';
import { type FactTallyDeps, settleFactTally } from './tally.js';

/** A notify message: the fact's notifications reconciled, and its counts settled. */
export type NotifyDeps = ReconcileDeps & FactTallyDeps;

export interface NotifyOutcome extends Handled {
  /** Count changes applied that their request had been cut before (the delayed half only). */
  tallied: number;
}

export async function notify(
  deps: NotifyDeps & Pick<FeedDeps, 'announcer'>,
  msg: MessageOf<'notify'>,
): Promise<NotifyOutcome> {
  const { fact } = msg;
  const [, tally] = await Promise.all([
    reconcileFact(deps, fact),
    msg.tally ? settleFactTally(deps, fact, msg.tally) : undefined,
    // An edit (its immediate message): the author's watching followers are told.
    fact.kind === 'edit' && !msg.tally && deps.announcer
      ? announceToFollowers(
          deps.announcer,
          fact.actor,
          { kind: 'edited', postId: fact.postId, author: fact.actor },
          Date.now(),
          `edited.${fact.postId}.${fact.since}`,
        )
      : undefined,
  ]);
  return { readers: 0, continued: false, inboxCells: 0, tallied: tally?.applied ?? 0 };
}
