// shared/use-cases/background/celebrity.ts — an author crossing the celebrity threshold and
// falling back below it: walks over the followers that set or drop each reader's celebrity
// marker. Keeps D (celebrity markers agree with the edges, docs/consistency.md) — no
// follower misses a post at either switch, by the order of the flag and the markers; a walk
// that read the followers before an unfollow is corrected by that unfollow's settle.
import type { FeedDeps } from '../feed-deps.js';
import { atStep } from '../steps.js';
import { continueWith, type Handled, type MessageOf } from './message.js';
import { cursorPages, handlesOf, perMessage, writePages } from './pager.js';

export type PromoteDeps = Pick<FeedDeps, 'relations' | 'inbox' | 'celebrities' | 'queue' | 'limits' | 'step'>;
/** A demotion also copies the author's recent posts (their outbox) into each follower's inbox. */
export type DemoteDeps = PromoteDeps & Pick<FeedDeps, 'outbox'>;

/** Posts a demotion copies into each follower's inbox (their recent history, now fanned out). */
const DEMOTE_BACKFILL = 50;

const followersOf = (deps: Pick<FeedDeps, 'relations' | 'limits'>, author: string, cursor: string | undefined) =>
  cursorPages((limit, from) => deps.relations.followers(author, limit, from), cursor, perMessage(deps));

/**
 * A flag change has a settle of its own: a walk of the same kind again, a settle window after the
 * flag was written (promotion) or the walk ended (demotion). A follow's settle that read the flag
 * before the change, or a walk page of the opposite kind, can still write after this walk passed
 * its reader; every such write has landed when the recheck runs (docs/consistency.md D and "Time").
 */
const recheckLater = (deps: Pick<FeedDeps, 'queue' | 'limits'>, msg: MessageOf<'promote' | 'demote'>) =>
  deps.queue.send(
    { v: 1, type: msg.type, author: msg.author, recheck: true },
    { delaySeconds: deps.limits.settleSeconds },
  );

/** Promotion: every follower's marker, then the flag; a settle window later, the markers again. */
export async function promote(deps: PromoteDeps, msg: MessageOf<'promote'>): Promise<Handled<'flag-changed'>> {
  // A recheck marks only while the author is a celebrity: after a demotion its markers would be stale.
  if (msg.recheck && !(await deps.celebrities.isCelebrity(msg.author)))
    return { readers: 0, continued: false, inboxCells: 0, skipped: 'flag-changed' };
  // Markers first, the flag last: until every follower can merge the outbox, posts keep being
  // fanned out, so no follower ever misses one (duplicates merge away).
  const done = await writePages(deps, followersOf(deps, msg.author, msg.cursor), handlesOf, (handles) =>
    deps.inbox.addCelebrity(handles, msg.author),
  );
  if (!done.nextCursor && !msg.recheck) {
    await atStep(deps, 'promote.marked', { author: msg.author });
    await deps.celebrities.setCelebrity(msg.author, true);
    await recheckLater(deps, msg);
  }
  return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor), inboxCells: 0 };
}

/** Demotion: the flag, then each follower's recent posts copied in and their marker dropped; a settle window later, again. */
export async function demote(deps: DemoteDeps, msg: MessageOf<'demote'>): Promise<Handled<'flag-changed'>> {
  // The flag first: fan-out resumes at once; each follower keeps merging the outbox until
  // their chunk has the recent posts copied in and the marker removed. A part of the walk that
  // finds the author flagged again (a promotion since) stops: its markers are the promotion's.
  if (!msg.cursor && !msg.recheck) await deps.celebrities.setCelebrity(msg.author, false);
  else if (await deps.celebrities.isCelebrity(msg.author))
    return { readers: 0, continued: false, inboxCells: 0, skipped: 'flag-changed' };
  const recent = await deps.outbox.recent(msg.author, DEMOTE_BACKFILL);
  const done = await writePages(deps, followersOf(deps, msg.author, msg.cursor), handlesOf, async (handles) => {
    await deps.inbox.addManyToReaders(handles, recent);
    await deps.inbox.removeCelebrity(handles, msg.author);
  });
  if (!done.nextCursor && !msg.recheck) await recheckLater(deps, msg);
  return {
    readers: done.readers,
    continued: await continueWith(deps, msg, done.nextCursor),
    inboxCells: done.written * recent.length,
  };
}
