// shared/use-cases/newer-posts.ts — "anything newer?": how many home-timeline entries are newer
// than the newest post the reader has on screen, so a visible page can say "3 new posts" within
// seconds without reading the timeline again.
// Round trips: ONE — the reader's inbox row through a server-side filter (only the keys of the
// entries newer than `after`, at most NEWER_COUNT_MAX + 1, and the celebrity markers) ∥ the
// newest of the reader's mute list. Readers who follow celebrities add one multi-get of those
// outboxes with the same filter (2 round trips), as the timeline does.
// Steps:
//   1. the inbox's newer entries and celebrity markers ∥ the reader's newest mutes;
//   2. (celebrity markers only) the celebrities' newer outbox entries, merged in feed order;
//   3. leave out the entries of authors the reader may not see (domain/visibility.ts, from the
//      mute edges read) and count up to NEWER_COUNT_MAX.
// An estimate, for a badge: counted although the page would not show them are the posts of
// authors muted beyond the newest MUTES_READ, reposts of hidden posts (the keys carry no
// original) and plain reposts the page folds into another; a mute-list entry a crash left behind
// an unmute hides its author here. Posts of someone who blocks the reader are not in the inbox
// (a block removes the follows and purges it). It writes nothing: a check is not a read of the
// timeline (m:seen stays as it was).
import { authorOfPostId, mergeFeed } from '../domain/post.js';
import { hiddenPairs, type SafetyEdge } from '../domain/visibility.js';
import type { FeedDeps } from './feed-deps.js';
import { NEWER_COUNT_MAX } from '../domain/limits.js';

/** The newest mutes checked against the authors: one stateless scan of the mute list. */
export const MUTES_READ = 100;

export interface NewerCount {
  /** Entries newer than `after` that the timeline would show, at most NEWER_COUNT_MAX. */
  count: number;
  /** The count stopped at its bound, or some entries were not read: there may be more. */
  more: boolean;
}

export async function countNewer(
  deps: Pick<FeedDeps, 'inbox' | 'outbox' | 'blocks'>,
  reader: string,
  after: string,
): Promise<NewerCount> {
  const [view, mutes] = await Promise.all([
    deps.inbox.newer(reader, after, NEWER_COUNT_MAX),
    deps.blocks.list('mute', reader, MUTES_READ),
  ]);
  let entries = view.entries;
  let more = view.more;
  if (view.celebrities.length > 0) {
    const outboxes = await deps.outbox.newerOf(view.celebrities, after, NEWER_COUNT_MAX);
    // Merged, the first NEWER_COUNT_MAX of each list hold the first NEWER_COUNT_MAX of all.
    entries = mergeFeed(entries, outboxes.entries);
    more = more || outboxes.more;
  }
  // The visibility rule itself, given the edges known to exist (the reader's mutes).
  const known: SafetyEdge[] = mutes.items.map((m) => ({ kind: 'mute', from: reader, to: m.handle }));
  const authors = [...new Set(entries.map((id) => authorOfPostId(id) ?? ''))];
  const hidden = new Set(
    hiddenPairs(
      authors.map((other) => ({ viewer: reader, other })),
      known,
    ).map((p) => p.other),
  );
  const shown = entries.filter((id) => !hidden.has(authorOfPostId(id) ?? ''));
  return { count: Math.min(shown.length, NEWER_COUNT_MAX), more: more || shown.length > NEWER_COUNT_MAX };
}
