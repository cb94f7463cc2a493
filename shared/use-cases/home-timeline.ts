// shared/use-cases/home-timeline.ts — the reader's home timeline, newest first across everyone
// they follow plus their own posts.
// Round trips: one get of the reader's inbox row (entries, celebrity markers, activity), one
// multi-get of the followed celebrities' outboxes (only for readers who follow celebrities),
// one multi-get of the page's posts. The celebrity read-time merge happens here: the inbox's
// entries and those outboxes are merged in feed order (the order HBase keeps both in).
// Cursors are positions in that merged order (the last post id shown), so posts arriving
// between pages (always newer, so always before the cursor) cause neither duplicates nor gaps.
// A post deleted after fan-out is not found by the multi-get and drops out; a few spare
// entries are fetched in the same requests so such holes do not shorten the page.
// Every post carries its counts and the reader's own state, and a repost its original: the
// originals' ids come with the inbox cells, so posts, originals and the reader's reactions are
// read in ONE parallel stage (post-details.ts) — still 2 sequential round trips.
// Another user's plain repost (no comment) is left out when its original already shows in the
// same window — as itself, embedded in a repost with a comment or in the reader's own repost, or
// through a newer plain repost — so each original shows once per window. The reader's own plain
// repost always shows, as one with a comment does. The window = the entries read for the page (limit +
// SPARE_ENTRIES). Mastodon does the same for reblogs of a status within its newest 40 items.
// A reader back after the inactivity window had no fan-out meanwhile: the first read queues the
// rebuild and, until it is done, the answer says `regenerating` (HTTP 206, as Mastodon does).
import { isPostId, mergeFeed } from '../domain/post.js';
import type { FeedWindow, InboxView, Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { postVisibilityFor } from './visibility.js';
import { authorsOf, readPostDetails, withOriginalWithheld, type PostDetail } from './post-details.js';

export type HomeTimelineDeps = Pick<
  FeedDeps,
  'users' | 'posts' | 'inbox' | 'outbox' | 'reactions' | 'blocks' | 'queue' | 'limits' | 'feedFaces' | 'pictures'
>;

/** Extra entries read per page to fill in for deleted posts (same round trips). */
export const SPARE_ENTRIES = 10;
/** `m:seen` is rewritten at most this often: a read is not a write on every request. */
const SEEN_RESOLUTION_MS = 3600_000;

export interface TimelinePage extends Page<PostDetail> {
  regenerating: boolean;
}

export async function homeTimeline(
  deps: HomeTimelineDeps,
  reader: string,
  limit: number,
  cursor?: string,
  now = Date.now(),
): Promise<TimelinePage> {
  const after = decodeCursor(cursor, isPostId);
  // The same window (strictly after the cursor, limit + spares) of every list: the first n of
  // a merge of sorted lists are among the first n of each.
  const span = { ...(after === undefined ? {} : { after }), limit: limit + SPARE_ENTRIES };
  return timelineOf(deps, reader, await deps.inbox.read(reader, span), span, limit, now);
}

/** The window `span` of the inbox `view` as a page: the celebrities' outboxes merged in, then the details stage. */
export async function timelineOf(
  deps: HomeTimelineDeps,
  reader: string,
  view: InboxView,
  span: FeedWindow,
  limit: number,
  now: number,
): Promise<TimelinePage> {
  let window = view.entries;
  let more = view.more;
  let reposts = view.reposts ?? {};
  if (view.celebrities.length > 0) {
    const outboxes = await deps.outbox.recentOf(view.celebrities, span);
    const merged = mergeFeed(view.entries, outboxes.entries);
    window = merged.slice(0, span.limit);
    more = more || outboxes.more || merged.length > span.limit;
    reposts = { ...reposts, ...outboxes.reposts };
  }

  let regenerating = view.regeneratingSince !== undefined;
  const side: Promise<unknown>[] = [];
  if (!regenerating && view.lastSeen !== undefined && now - view.lastSeen > deps.limits.inactiveAfterMs) {
    regenerating = true;
    side.push(
      deps.inbox.markRegenerating(reader, now).then(() => deps.queue.send({ v: 1, type: 'regenerate', reader })),
    );
  } else if (view.lastSeen === undefined || now - view.lastSeen > SEEN_RESOLUTION_MS) {
    side.push(deps.inbox.markSeen(reader, now));
  }

  // Blocks and mutes are filtered at read, so they hold from the moment they are made, also for
  // posts fanned out before: the page's authors (and its reposts' originals' authors) are known
  // from the ids, so the check runs beside the posts multi-get, as the activity write does. The
  // reader's own posts stay whatever they mute or block (the domain's rule, postRule).
  const visibility = postVisibilityFor(deps, reader, authorsOf(window, reposts));
  // The authors' faces from the feeds' cache: a name or avatar may be a minute old here.
  const found = await readPostDetails(deps, reader, window, reposts, [...side, visibility], 'feed');
  const seen = await visibility;
  const isHidden = (p: PostDetail) => seen(p).hidden;

  // Others' plain reposts fold; the reader's own shows as one with words does — it is what they
  // did, and their home is where they look for it — and stands in for its original like one.
  const folds = (p: PostDetail) => p.repostOf !== undefined && p.body === '' && p.author !== reader;
  // Originals the window shows other than through a folding plain repost — among the posts the
  // reader may see: a post hidden by a block or mute shows nothing, so it cannot stand in for another.
  const visible = [...found.values()].filter((p) => !isHidden(p) && !seen(p).originalWithheld);
  const shownOtherwise = new Set(visible.filter((p) => !folds(p)).map((p) => p.repostOf ?? p.id));
  const plainShown = new Set<string>();
  const items: PostDetail[] = [];
  let consumed = 0; // entries walked, shown or not
  for (const id of window) {
    if (items.length === limit) break;
    consumed++;
    const post = found.get(id);
    if (!post || isHidden(post)) continue;
    if (folds(post)) {
      if (shownOtherwise.has(post.repostOf!) || plainShown.has(post.repostOf!)) continue;
      plainShown.add(post.repostOf!);
    }
    items.push(seen(post).originalWithheld ? withOriginalWithheld(post) : post);
  }
  const hasMore = consumed < window.length || more;
  const last = window[consumed - 1];
  return { items, regenerating, ...(hasMore && last ? { nextCursor: encodeCursor(last) } : {}) };
}
