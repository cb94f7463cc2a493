// shared/use-cases/lists.ts — what the newest-first lists (following, followers, likers, blocked,
// muted) share: their cursor, and the rule that shows an entry only while its edge holds the
// entry's since (invariant K in docs/consistency.md).
import { HANDLE_PATTERN } from '../domain/handle.js';
import type { ListPage, ListPosition, Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';

/** Inside the opaque cursor: "<since>.<handle>" — the position of the page's last entry. */
function parsePosition(inner: string): ListPosition | null {
  const dot = inner.indexOf('.');
  const since = inner.slice(0, dot);
  const handle = inner.slice(dot + 1);
  // 13 digits at most: the latest time a list keeps (the year 2286).
  if (dot < 1 || !/^\d{1,13}$/.test(since) || !HANDLE_PATTERN.test(handle)) return null;
  return { since: Number(since), handle };
}

/** The position a list cursor holds; a cursor this API did not make is 422 `invalid_cursor`. */
export function decodeListCursor(cursor: string | undefined): ListPosition | undefined {
  const inner = decodeCursor(cursor, (s) => parsePosition(s) !== null);
  return inner === undefined ? undefined : (parsePosition(inner) as ListPosition);
}

export const encodeListCursor = (p: ListPosition): string => encodeCursor(`${p.since}.${p.handle}`);

/**
 * A page as shown: the entries whose edge holds their since (`truth[i]` is the since the edge of
 * `page.items[i]` holds now, or null / undefined when there is none). A stale entry — its edge
 * gone, or refollowed (liked, blocked) again with a new since — is left out, so nobody is shown
 * twice; the cursor is the position of the last entry READ, shown or not, so no entry is skipped.
 */
export function shownPage<T extends { handle: string; since: number }>(
  page: ListPage<T>,
  truth: (number | null | undefined)[],
): Page<T> {
  return {
    items: page.items.filter((entry, i) => truth[i] === entry.since),
    ...(page.next ? { nextCursor: encodeListCursor(page.next) } : {}),
  };
}
