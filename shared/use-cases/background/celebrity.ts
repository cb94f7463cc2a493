// shared/use-cases/background/celebrity.ts — an author crossing the celebrity threshold and
// falling back below it: walks over the followers that set or drop each reader's celebrity
// marker. Keeps D (celebrity markers agree with the edges, shared/schema/consistency.md) — no
// follower misses a post at either switch, by the order of the flag and the markers; a walk
// that read the followers before an unfollow is corrected by that unfollow's settle.
import type { FeedDeps } from '../feed-deps.js';
import { continueWith, type Handled, type MessageOf } from './message.js';
import { cursorPages, handlesOf, perMessage, writePages } from './pager.js';

/** Posts a demotion copies into each follower's inbox (their recent history, now fanned out). */
const DEMOTE_BACKFILL = 50;

const followersOf = (deps: FeedDeps, author: string, cursor: string | undefined) =>
  cursorPages((limit, from) => deps.relations.followers(author, limit, from), cursor, perMessage(deps));

/** Promotion: every follower's marker, then the flag. */
export async function promote(deps: FeedDeps, msg: MessageOf<'promote'>): Promise<Handled> {
  // Markers first, the flag last: until every follower can merge the outbox, posts keep
  // being fanned out, so no follower ever misses one (duplicates merge away).
  const done = await writePages(deps, followersOf(deps, msg.author, msg.cursor), handlesOf, (handles) => deps.inbox.addCelebrity(handles, msg.author));
  if (!done.nextCursor) await deps.celebrities.setCelebrity(msg.author, true);
  return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor), inboxCells: 0 };
}

/** Demotion: the flag, then each follower's recent posts copied in and their marker dropped. */
export async function demote(deps: FeedDeps, msg: MessageOf<'demote'>): Promise<Handled> {
  // The flag first: fan-out resumes at once; each follower keeps merging the outbox until
  // their chunk has the recent posts copied in and the marker removed.
  if (!msg.cursor) await deps.celebrities.setCelebrity(msg.author, false);
  const recent = await deps.outbox.recent(msg.author, DEMOTE_BACKFILL);
  const done = await writePages(deps, followersOf(deps, msg.author, msg.cursor), handlesOf, async (handles) => {
    await deps.inbox.addManyToReaders(handles, recent);
    await deps.inbox.removeCelebrity(handles, msg.author);
  });
  return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor), inboxCells: done.written * recent.length };
}
