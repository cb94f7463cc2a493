// shared/use-cases/search-posts.ts — post search (GET /search/posts): live posts holding every
// word of the query, newest first, in cursor pages.
//
// A page reads the index lists of the query's most selective terms (domain/post-search.ts, at
// most SEARCH_SCANNED_TERMS), each ONE bounded scan from the cursor, all in parallel; then ONE
// parallel stage: the candidates' posts and the reader's blocks and mutes of their authors. The
// list that reaches furthest back drives the page: its posts are the candidates, less those
// another list read past without finding. Each candidate is then checked against the post's
// text as it is now (matchesQuery): the index only proposes. So a term in millions of posts costs
// what a rare one does, and a page can come back short, even empty, with a cursor to go on.
//
// Invariant V (docs/consistency.md): a post is shown only if it is live, its author is here, the
// reader may see it, and its current text holds the query; a post whose text holds the query is
// found, since its entries are written before the text that names them.
import { InvalidInputError } from '../domain/errors.js';
import { highlights, indexTerms, parseQuery, type QueryProblem, type SearchQuery } from '../domain/post-search.js';
import { isPostId, parsePostId, type Post } from '../domain/post.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { authorsOf, readPostDetails, withOriginalWithheld, type PostDetail } from './post-details.js';
import { postVisibilityFor } from './visibility.js';
import { atStep } from './steps.js';

export type SearchPostsDeps = Pick<
  FeedDeps,
  'users' | 'posts' | 'reactions' | 'blocks' | 'search' | 'feedFaces' | 'pictures' | 'step'
>;

/** Rows each list reads when the query has more than one: enough to reach back past a common word. */
export const SEARCH_SCAN_ROWS = 200;
/** Candidates read beyond the page, to fill in for deleted, hidden and no longer matching posts (same round trips). */
const SPARE_CANDIDATES = 10;

const PROBLEMS: Record<QueryProblem, string> = {
  query_empty: 'Nothing to search for: the query needs a letter, a digit or a character',
  query_too_long: 'A search query is at most 100 characters',
  query_too_complex: 'A search query has at most 10 words',
};

export type SearchPage = Page<PostDetail> & {
  query: string;
  /** The matched spans of each shown post's body (code-point offsets [start, end)). */
  highlights: Record<string, Array<[number, number]>>;
};

export function requireQuery(raw: string): SearchQuery {
  const query = parseQuery(raw);
  if (typeof query === 'string') throw new InvalidInputError(PROBLEMS[query], query);
  return query;
}

export async function searchPosts(
  deps: SearchPostsDeps,
  raw: string,
  limit: number,
  cursor?: string,
  reader?: string,
): Promise<SearchPage> {
  const query = requireQuery(raw);
  const after = decodeCursor(cursor, isPostId);
  const rows = query.scanned.length === 1 ? limit + SPARE_CANDIDATES : SEARCH_SCAN_ROWS;
  const lists = await Promise.all(query.scanned.map((term) => deps.search.posts(term, rows, after)));
  await atStep(deps, 'search.scanned', { query: raw });
  const { candidates, more } = candidatesOf(lists);
  const wanted = candidates.slice(0, limit + SPARE_CANDIDATES);
  const visibility = reader
    ? postVisibilityFor(deps, reader, authorsOf(wanted))
    : Promise.resolve(() => ({ hidden: false, originalWithheld: false }));
  const found = await readPostDetails(deps, reader, wanted, {}, [visibility], 'feed');
  const seen = await visibility;
  const items: PostDetail[] = [];
  const spans: Record<string, Array<[number, number]>> = {};
  let consumed = 0;
  for (const id of wanted) {
    if (items.length === limit) break;
    consumed++;
    const post = found.get(id);
    // Deleted, hidden from this reader, or (an entry gone stale) no longer holding the query.
    const matched = post && !seen(post).hidden ? highlights(post, query) : null;
    if (!post || !matched) continue;
    items.push(seen(post).originalWithheld ? withOriginalWithheld(post) : post);
    spans[id] = matched;
  }
  // Where the next page starts: after the last candidate looked at, or (all looked at) after
  // the last entry the driving list read.
  const next = consumed < candidates.length ? candidates[consumed - 1] : more;
  return { query: raw, items, highlights: spans, ...(next ? { nextCursor: encodeCursor(next) } : {}) };
}

/** Every term any text of the post was indexed under: its text, and an edited post's earlier ones (one get). */
export async function searchTermsOf(deps: Pick<FeedDeps, 'posts'>, post: Post): Promise<string[]> {
  const earlier = post.version ? ((await deps.posts.versions(post.id))?.earlier ?? []) : [];
  return [...new Set([post, ...earlier].flatMap((text) => indexTerms(text)))];
}

/** Newest first, as the index orders entries: later time first, then by id. */
function compareFeedOrder(a: string, b: string): number {
  const ta = parsePostId(a)?.millis ?? 0;
  const tb = parsePostId(b)?.millis ?? 0;
  return tb - ta || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The page's candidates from the lists read: the driving list's posts (the list that reaches
 * furthest back; one read to its end reaches furthest of all), less those another list read past
 * without finding. `more`: where the driving list stopped, when it goes on.
 */
export function candidatesOf(lists: Page<string>[]): { candidates: string[]; more?: string } {
  const reach = (list: Page<string>) => list.nextCursor;
  const drive = lists.reduce((best, list) => {
    const a = reach(best);
    const b = reach(list);
    if (a === undefined) return b === undefined && list.items.length < best.items.length ? list : best;
    if (b === undefined) return list;
    return compareFeedOrder(b, a) > 0 ? list : best;
  });
  const others = lists.filter((l) => l !== drive).map((l) => ({ ids: new Set(l.items), end: reach(l) }));
  const candidates = drive.items.filter((id) =>
    others.every((o) => o.ids.has(id) || (o.end !== undefined && compareFeedOrder(id, o.end) > 0)),
  );
  const more = reach(drive);
  return more === undefined ? { candidates } : { candidates, more };
}
