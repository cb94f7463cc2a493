// shared/use-cases/topics.ts — topic pages (#话题#) and trending topics.
// A topic page lists public posts carrying the topic, newest first: one bounded scan of the topic
// index, then one parallel stage — the posts (content multi-get, counts and the reader's state
// with them) and the reader's blocks and mutes of their authors. The index is a hint: a deleted
// post's entry stays until its TTL and is dropped here. Bounded per request (limit ≤ 100) and per
// time (entries expire after TOPIC_TTL_SECONDS, tables.ts).
import { InvalidInputError } from '../domain/errors.js';
import { isPostId } from '../domain/post.js';
import { normalizeTopic, topicPrefixForm } from '../domain/text-entities.js';
import { bucketsOfWindow, rankTrending, type TrendingTopic } from '../domain/trending.js';
import type { Page } from '../ports/feed-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { postVisibilityFor } from './visibility.js';
import { authorsOf, readPostDetails, withOriginalWithheld, type PostDetail } from './post-details.js';
import { TRENDING_TOPICS, TRENDING_WINDOW_MS } from '../domain/limits.js';

export type TopicPostsDeps = Pick<
  FeedDeps,
  'users' | 'posts' | 'reactions' | 'blocks' | 'topics' | 'feedFaces' | 'pictures'
>;

/** Entries read beyond the page, to fill in for deleted and hidden posts (same round trips). */
const SPARE_ENTRIES = 10;
/** Trending is recomputed at most this often per container (one multi-get of 96 rows each time). */
export const TRENDING_CACHE_MS = 30_000;

export function requireTopic(raw: string): string {
  const name = normalizeTopic(raw);
  if (name === null)
    throw new InvalidInputError(
      'Not a topic name: 1–32 characters, at least one letter or digit, no # / ? %',
      'invalid_topic',
    );
  return name;
}

export async function listTopicPosts(
  deps: TopicPostsDeps,
  raw: string,
  limit: number,
  cursor?: string,
  reader?: string,
): Promise<Page<PostDetail> & { topic: string }> {
  const topic = requireTopic(raw);
  const after = decodeCursor(cursor, isPostId);
  const page = await deps.topics.posts(topic, limit + SPARE_ENTRIES, after);
  const visibility = reader
    ? postVisibilityFor(deps, reader, authorsOf(page.items))
    : Promise.resolve(() => ({ hidden: false, originalWithheld: false }));
  const found = await readPostDetails(deps, reader, page.items, {}, [visibility], 'feed');
  const seen = await visibility;
  const items: PostDetail[] = [];
  let consumed = 0;
  for (const id of page.items) {
    if (items.length === limit) break;
    consumed++;
    const post = found.get(id);
    // Deleted, hidden from this reader, or (a hint gone stale) no longer carrying the topic.
    if (!post || seen(post).hidden || !post.topics?.some((t) => t.name === topic)) continue;
    items.push(seen(post).originalWithheld ? withOriginalWithheld(post) : post);
  }
  const hasMore = consumed < page.items.length || page.nextCursor !== undefined;
  const last = page.items[consumed - 1];
  return { topic, items, ...(hasMore && last ? { nextCursor: encodeCursor(last) } : {}) };
}

/** Where a ranking is kept between requests: one per container in production, one per test in tests. */
export interface TrendingCache {
  entry?: { at: number; value: TrendingTopic[] };
}

const perContainer: TrendingCache = {};

/**
 * The top topics by posts in the last hour (domain/trending.ts): the window's counts in one
 * multi-get, ranked here; the ranking is reused for TRENDING_CACHE_MS (and recomputed if the
 * clock went back).
 */
export async function trendingTopics(
  deps: Pick<FeedDeps, 'topics'>,
  now = Date.now(),
  cache: TrendingCache = perContainer,
): Promise<{ items: TrendingTopic[]; windowSeconds: number }> {
  const cached = cache.entry;
  if (!cached || now - cached.at > TRENDING_CACHE_MS || now < cached.at) {
    cache.entry = {
      at: now,
      value: rankTrending(await deps.topics.trendCounts(bucketsOfWindow(now, TRENDING_WINDOW_MS)), TRENDING_TOPICS),
    };
  }
  return { items: cache.entry!.value, windowSeconds: TRENDING_WINDOW_MS / 1000 };
}

/** Name rows read for one suggestion answer: the best are ranked from these. */
export const TOPIC_NAME_SCAN = 50;

/**
 * Topic names a prefix starts (the composer's `#` suggestions), best first: the name that IS
 * the prefix, then trending ones by their rank, then shorter names, then in name order. One
 * round trip: the name rows' scan beside the trending ranking (cached, see trendingTopics).
 */
export async function suggestTopics(
  deps: Pick<FeedDeps, 'topics'>,
  raw: string,
  limit: number,
  now = Date.now(),
  cache: TrendingCache = perContainer,
): Promise<string[]> {
  const prefix = topicPrefixForm(raw);
  if (prefix === null)
    throw new InvalidInputError('Not the start of a topic name: 1–32 characters, no # / ? %', 'invalid_topic');
  const [names, trending] = await Promise.all([
    deps.topics.named(prefix, TOPIC_NAME_SCAN),
    trendingTopics(deps, now, cache),
  ]);
  const rank = new Map(trending.items.map((t, i) => [t.name, i]));
  const score = (name: string) => (name === prefix ? -1 : (rank.get(name) ?? trending.items.length));
  return names
    .toSorted((a, b) => score(a) - score(b) || [...a].length - [...b].length || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit);
}
