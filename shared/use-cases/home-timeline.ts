// shared/use-cases/home-timeline.ts — the reader's home timeline, newest first across everyone
// they follow plus their own posts. Exactly two sequential HBase round trips: one get of the
// reader's inbox row (sliced after the cursor), one multi-get of the posts on the page.
// Cursors are inbox positions, so posts arriving between pages (always newer, so always before
// the cursor) cause neither duplicates nor gaps. A post deleted after fan-out is simply not
// found by the multi-get and drops out.
import type { Post } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';

export async function homeTimeline(deps: FeedDeps, reader: string, limit: number, cursor?: string): Promise<Page<Post>> {
  const after = decodeCursor(cursor, (p) => /^[A-Za-z0-9_-]{1,400}$/.test(p));
  const { entries, more } = await deps.inbox.page(reader, limit, after);
  const items = entries.length > 0 ? await deps.posts.getMany(entries.map((e) => e.postId)) : [];
  const last = entries.at(-1);
  return { items, ...(more && last ? { nextCursor: encodeCursor(last.position) } : {}) };
}
