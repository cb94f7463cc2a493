// shared/use-cases/home-timeline.ts — the reader's home timeline, newest first across everyone
// they follow plus their own posts. Exactly two sequential HBase round trips: one get of the
// reader's inbox row (sliced after the cursor), one multi-get of the posts on the page.
// Cursors are inbox positions, so posts arriving between pages (always newer, so always before
// the cursor) cause neither duplicates nor gaps. A post deleted after fan-out is not found by
// the multi-get and drops out; a few spare entries are fetched in the same two requests so such
// holes do not shorten the page.
import type { Post } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';

/** Extra inbox entries read per page to fill in for deleted posts (same round trips). */
const SPARE_ENTRIES = 10;

export async function homeTimeline(deps: FeedDeps, reader: string, limit: number, cursor?: string): Promise<Page<Post>> {
  const after = decodeCursor(cursor, (p) => /^[A-Za-z0-9_-]{1,400}$/.test(p));
  const { entries, more } = await deps.inbox.page(reader, limit + SPARE_ENTRIES, after);
  const found = new Map((entries.length > 0 ? await deps.posts.getMany(entries.map((e) => e.postId)) : []).map((p) => [p.id, p]));

  const items: Post[] = [];
  let consumed = 0; // entries walked, found or not
  for (const entry of entries) {
    if (items.length === limit) break;
    consumed++;
    const post = found.get(entry.postId);
    if (post) items.push(post);
  }
  const hasMore = consumed < entries.length || more;
  const last = entries[consumed - 1];
  return { items, ...(hasMore && last ? { nextCursor: encodeCursor(last.position) } : {}) };
}
