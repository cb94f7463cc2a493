// shared/use-cases/hot.ts — the hot feed (热门微博): the posts the ranking job (jobs/rank-hot.ts)
// found most engaged with lately, best first, cursor-paged.
// Steps: the ranking (one get, reused for HOT_CACHE_MS per container, so a warm page is ONE
// round trip), then one parallel stage as a topic page: the page's posts (content multi-get,
// counts and the reader's state with them) and the reader's blocks and mutes of their authors.
// Dropped at read: deleted posts, posts of accounts that left (the feeds' faces), and for a
// reader the authors they blocked or muted or who blocked them.
// The cursor is a place in the ranking (its rank): a page read after the ranking was replaced
// goes on from the same place in the new one, so a post that moved across that place may show
// twice or not at all (a client drops ids it already shows).
import type { HotRanking } from '../domain/hot.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { authorsOf, readPostDetails, withOriginalWithheld, type PostDetail } from './post-details.js';
import { postVisibilityFor } from './visibility.js';

export type HotFeedDeps = Pick<FeedDeps, 'users' | 'posts' | 'reactions' | 'blocks' | 'hot' | 'feedFaces' | 'pictures'>;

/** How long a container reuses the ranking it read (the job replaces it every 5 minutes). */
export const HOT_CACHE_MS = 60_000;
/** Ranked posts read beyond the page, to fill in for deleted and hidden ones (same round trip). */
const SPARE_POSTS = 10;

/** Where the ranking is kept between requests: one per container in production, one per test in tests. */
export interface HotCache {
  entry?: { at: number; value: HotRanking | null };
}

const perContainer: HotCache = {};

const isRank = (inner: string) => /^\d{1,4}$/.test(inner);

async function currentRanking(
  deps: Pick<FeedDeps, 'hot'>,
  now: number,
  cache: HotCache,
  cacheMs: number,
): Promise<HotRanking | null> {
  const cached = cache.entry;
  if (!cached || now - cached.at >= cacheMs || now < cached.at)
    cache.entry = { at: now, value: await deps.hot.ranking() };
  return cache.entry!.value;
}

export async function listHot(
  deps: HotFeedDeps,
  limit: number,
  cursor?: string,
  reader?: string,
  opts: { now?: number; cache?: HotCache; cacheMs?: number } = {},
): Promise<Page<PostDetail> & { rankedAt?: number }> {
  const from = Number(decodeCursor(cursor, isRank) ?? 0);
  const ranking = await currentRanking(
    deps,
    opts.now ?? Date.now(),
    opts.cache ?? perContainer,
    opts.cacheMs ?? HOT_CACHE_MS,
  );
  if (!ranking) return { items: [] };
  const ids = ranking.posts.slice(from, from + limit + SPARE_POSTS).map((p) => p.id);
  const visibility = reader
    ? postVisibilityFor(deps, reader, authorsOf(ids))
    : Promise.resolve(() => ({ hidden: false, originalWithheld: false }));
  const found = await readPostDetails(deps, reader, ids, {}, [visibility], 'feed');
  const seen = await visibility;
  const items: PostDetail[] = [];
  let consumed = 0;
  for (const id of ids) {
    if (items.length === limit) break;
    consumed++;
    const post = found.get(id);
    if (!post || seen(post).hidden) continue;
    items.push(seen(post).originalWithheld ? withOriginalWithheld(post) : post);
  }
  const next = from + consumed;
  return {
    items,
    rankedAt: ranking.rankedAt,
    ...(next < ranking.posts.length ? { nextCursor: encodeCursor(String(next)) } : {}),
  };
}
