// shared/use-cases/background/notify.ts — one fact's notifications made to agree with the fact's
// source of truth (shared/use-cases/notifications.ts, reconcileFact). Keeps F (notifications
// converge to the facts they report, shared/schema/consistency.md): any number of deliveries, in
// any order, leave the same state.
import type { FeedDeps } from '../feed-deps.js';
import { reconcileFact } from '../notifications.js';
import type { Handled, MessageOf } from './message.js';

export async function notify(deps: FeedDeps, msg: MessageOf<'notify'>): Promise<Handled> {
  await reconcileFact(deps, msg.fact);
  return { readers: 0, continued: false, inboxCells: 0 };
}
