// shared/domain/hot.ts — what "hot" (热门微博) means (a product rule; no storage here): recent posts
// ranked by the DISTINCT people who liked, reposted or commented on them, each person's latest
// engagement weighing less the older it is.
//
//   score(post) = Σ over distinct engagers p (not the author) of 2^(−age(p's latest engagement) / HALF_LIFE)
//
// - Distinct people, not actions: one person's like, comment and repost count once (a person can
//   not push a post up by acting again); a repost counts for the original it reposts.
// - Half-life 6 h: an engagement six hours old counts half of one of now, a day old a
//   sixteenth; the feed follows what people engage with now, and a post needs new engagement to
//   stay up. Mastodon's trending posts decay with a 2 h half-life on a busy server; a 6 h one
//   keeps a quieter network's feed from emptying overnight, while a day-old burst still sinks
//   below anything engaged with this afternoon.
// - Posts at most 48 h old: a two-day-old post is no longer news, whatever it gathers; this also
//   bounds what the ranking job reads (the engagements of the last 48 h).
// - At least 3 distinct people: one or two friends liking a post do not make it hot (Mastodon
//   asks 5 interacting accounts for the same reason; 3 lets a small network have a hot feed at
//   all).
// - Ties: the newer post first, then by id (the order never flickers); the top HOT_RANKED kept.

/** Half the weight of an engagement this long after it happened. */
export const HOT_HALF_LIFE_MS = 6 * 3600_000;
/** Posts older than this are not ranked (nor are engagements older than this read). */
export const HOT_MAX_POST_AGE_MS = 48 * 3600_000;
/** Distinct people (the author not counted) a post needs to be ranked at all. */
export const HOT_MIN_PEOPLE = 3;
/** Posts a ranking keeps (the hot feed pages through these). */
export const HOT_RANKED = 200;
/** How long an engagement entry is kept: the window and a day to spare. */
export const HOT_ENGAGEMENT_TTL_SECONDS = HOT_MAX_POST_AGE_MS / 1000 + 86_400;
/** Engagements are filed by the hour they happened in: the job reads HOT_MAX_POST_AGE_MS of hours. */
export const HOT_BUCKET_MS = 3600_000;

/** One person's engagement with a post (a like, a comment, a repost of it), at `at`. */
export interface Engagement {
  postId: string;
  handle: string;
  at: number;
}

export interface RankedPost {
  id: string;
  score: number;
  /** Distinct people counted. */
  people: number;
}

/** A ranking as the job writes it and the hot feed reads it. */
export interface HotRanking {
  rankedAt: number;
  posts: RankedPost[];
}

/** The hour bucket an engagement at `at` is filed in. */
export const hotBucketOf = (at: number): number => Math.floor(at / HOT_BUCKET_MS);

/** The buckets the ranking at `now` reads, oldest first: every hour a post still ranked can have been engaged in. */
export function hotBucketsAt(now: number): number[] {
  const newest = hotBucketOf(now);
  const oldest = hotBucketOf(now - HOT_MAX_POST_AGE_MS);
  return Array.from({ length: newest - oldest + 1 }, (_, i) => oldest + i);
}

/** The weight of an engagement `ageMs` old (1 now, ½ after one half-life; a clock skew into the future counts 1). */
export const engagementWeight = (ageMs: number): number => 2 ** (-Math.max(0, ageMs) / HOT_HALF_LIFE_MS);

/**
 * The ranking at `now` of these engagements. `createdAt(id)` is the post's creation time (a post
 * id carries it) and `author(id)` its author, or null for an id that is not a post's.
 */
export function rankEngagements(
  engagements: Iterable<Engagement>,
  now: number,
  post: (id: string) => { createdAt: number; author: string } | null,
  limit = HOT_RANKED,
): RankedPost[] {
  // Each person's latest engagement per post.
  const latest = new Map<string, Map<string, number>>();
  for (const e of engagements) {
    const p = post(e.postId);
    if (!p || now - p.createdAt > HOT_MAX_POST_AGE_MS || e.handle === p.author) continue;
    const people = latest.get(e.postId) ?? new Map<string, number>();
    latest.set(e.postId, people);
    people.set(e.handle, Math.max(people.get(e.handle) ?? e.at, e.at));
  }
  const ranked: (RankedPost & { createdAt: number })[] = [];
  for (const [id, people] of latest) {
    if (people.size < HOT_MIN_PEOPLE) continue;
    let score = 0;
    for (const at of people.values()) score += engagementWeight(now - at);
    ranked.push({ id, score, people: people.size, createdAt: post(id)!.createdAt });
  }
  return ranked
    .sort((a, b) => b.score - a.score || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit)
    .map(({ id, score, people }) => ({ id, score, people }));
}
