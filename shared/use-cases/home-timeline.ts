// shared/use-cases/home-timeline.ts — the reader's home timeline, newest first across everyone
// they follow plus their own posts.
// Round trips: one get of the reader's inbox row (entries, celebrity markers, activity), one
// multi-get of the followed celebrities' outboxes (only for readers who follow celebrities),
// one multi-get of the page's posts. Cursors are positions in that merged order, so posts
// arriving between pages (always newer, so always before the cursor) cause neither duplicates
// nor gaps. A post deleted after fan-out is not found by the multi-get and drops out; a few
// spare entries are fetched in the same requests so such holes do not shorten the page.
// A reader back after the inactivity window had no fan-out meanwhile: the first read queues the
// rebuild and, until it is done, the answer says `regenerating` (HTTP 206, as Mastodon does).
import type { Post } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';

/** Extra inbox entries read per page to fill in for deleted posts (same round trips). */
const SPARE_ENTRIES = 10;
/** `m:seen` is rewritten at most this often: a read is not a write on every request. */
const SEEN_RESOLUTION_MS = 3600_000;

export interface TimelinePage extends Page<Post> {
  regenerating: boolean;
}

export async function homeTimeline(deps: FeedDeps, reader: string, limit: number, cursor?: string, now = Date.now()): Promise<TimelinePage> {
  const after = decodeCursor(cursor, (p) => /^[A-Za-z0-9_-]{1,400}$/.test(p));
  const page = await deps.inbox.page(reader, limit + SPARE_ENTRIES, after);

  let regenerating = page.regeneratingSince !== undefined;
  const side: Promise<unknown>[] = [];
  if (!regenerating && page.lastSeen !== undefined && now - page.lastSeen > deps.limits.inactiveAfterMs) {
    regenerating = true;
    side.push(deps.inbox.markRegenerating(reader, now).then(() => deps.queue.send({ v: 1, type: 'regenerate', reader })));
  } else if (page.lastSeen === undefined || now - page.lastSeen > SEEN_RESOLUTION_MS) {
    side.push(deps.inbox.markSeen(reader, now));
  }

  // The activity write runs beside the posts multi-get: it adds no sequential round trip.
  const [posts] = await Promise.all([
    page.entries.length > 0 ? deps.posts.getMany(page.entries.map((e) => e.postId)) : Promise.resolve([]),
    ...side,
  ]);
  const found = new Map(posts.map((p) => [p.id, p]));

  const items: Post[] = [];
  let consumed = 0; // entries walked, found or not
  for (const entry of page.entries) {
    if (items.length === limit) break;
    consumed++;
    const post = found.get(entry.postId);
    if (post) items.push(post);
  }
  const hasMore = consumed < page.entries.length || page.more;
  const last = page.entries[consumed - 1];
  return { items, regenerating, ...(hasMore && last ? { nextCursor: encodeCursor(last.position) } : {}) };
}
