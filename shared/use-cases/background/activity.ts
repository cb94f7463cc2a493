// shared/use-cases/background/activity.ts — readers who stopped reading, and their return: the
// away message marks a reader's follows (so fan-out skips them at no cost), the rebuild of a
// returning reader clears those marks and backfills. Keeps J (away readers miss nothing they
// would have seen, docs/consistency.md) — through the order of each step: marks are
// cleared before the backfill reads, and the away walk reads the reader's activity again after
// writing its marks.
import type { FeedDeps } from '../feed-deps.js';
import { atStep } from '../steps.js';
import { backfill, type BackfillDeps } from './delivery.js';
import { continueWith, type Handled, type MessageOf } from './message.js';
import { cursorPages, handlesOf, perMessage, writePages } from './pager.js';

export type MarkAwayDeps = Pick<FeedDeps, 'relations' | 'inbox' | 'queue' | 'limits' | 'step'>;
/** A returning reader's rebuild: a backfill per followee, walked and continued through the queue. */
export type RegenerateDeps = BackfillDeps & Pick<FeedDeps, 'relations' | 'queue'>;

/** Followees rebuilt per regenerate message: each costs one bounded scan. */
const REGENERATE_FOLLOWEES_PER_MESSAGE = 100;

/** From the away sweep: marks the reader away on each of their follows, unless they came back. */
export async function markAway(deps: MarkAwayDeps, msg: MessageOf<'away'>): Promise<Handled<'returned'>> {
  const seen = async () => (await deps.inbox.lastSeen([msg.reader])).get(msg.reader);
  if ((await seen()) !== msg.seenAt) return { readers: 0, continued: false, inboxCells: 0, skipped: 'returned' };
  const followees = cursorPages(
    (limit, cursor) => deps.relations.following(msg.reader, limit, cursor),
    msg.cursor,
    perMessage(deps),
  );
  const done = await writePages(deps, followees, handlesOf, (handles) =>
    deps.relations.markAway(msg.reader, handles, msg.seenAt),
  );
  await atStep(deps, 'away.marked', { reader: msg.reader });
  // Back while we wrote: our marks may have landed after the return's rebuild cleared them.
  // Another rebuild clears every mark, then backfills what they hid (invariant J).
  if ((await seen()) !== msg.seenAt) {
    await deps.queue.send({ v: 1, type: 'regenerate', reader: msg.reader });
    return { readers: 1, continued: false, inboxCells: 0, skipped: 'returned' };
  }
  if (!done.nextCursor) await deps.inbox.markAway(msg.reader, msg.seenAt);
  return { readers: 1, continued: await continueWith(deps, msg, done.nextCursor), inboxCells: 0 };
}

/** A returning reader: rebuilds the inbox from the followees' recent posts, a bounded part per message. */
export async function regenerate(deps: RegenerateDeps, msg: MessageOf<'regenerate'>): Promise<Handled> {
  let inboxCells = 0;
  const followees = cursorPages((limit, cursor) => deps.relations.following(msg.reader, limit, cursor), msg.cursor, {
    pageSize: REGENERATE_FOLLOWEES_PER_MESSAGE,
    pages: 1,
  });
  const done = await writePages(deps, followees, handlesOf, async (handles) => {
    // Marks first: a post whose fan-out skipped the reader read the mark before this clear,
    // so it exists before the backfill below reads (invariant J).
    await deps.relations.clearAway(msg.reader, handles);
    await atStep(deps, 'regenerate.marks-cleared', { reader: msg.reader });
    for (const followee of handles) inboxCells += await backfill(deps, msg.reader, followee);
  });
  if (!done.nextCursor) await deps.inbox.clearRegenerating(msg.reader);
  return { readers: 1, continued: await continueWith(deps, msg, done.nextCursor), inboxCells };
}
