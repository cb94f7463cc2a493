// test/unit/hot.test.ts — the hot feed (热门微博): what ranks (shared/domain/hot.ts: distinct
// people, the half-life, the post-age cut, the minimum, the author not counted), and the flow on
// the in-memory fakes: likes, comments and reposts recorded by the worker, the job's ranking
// (jobs/rank-hot.ts), and the feed's read (use-cases/hot.ts) with its per-container cache.
// The same on the real HBase: test/integration/hot.test.ts.
import { describe, expect, it } from 'vitest';
import {
  engagementWeight,
  HOT_HALF_LIFE_MS,
  HOT_MAX_POST_AGE_MS,
  HOT_MIN_PEOPLE,
  hotBucketsAt,
  rankEngagements,
  type Engagement,
} from '../../shared/domain/hot.js';
import { parsePostId } from '../../shared/domain/post.js';
import { block } from '../../shared/use-cases/blocks.js';
import { addComment } from '../../shared/use-cases/comments.js';
import { type HotCache, listHot } from '../../shared/use-cases/hot.js';
import { rankHot } from '../../shared/use-cases/jobs/rank-hot.js';
import { likePost } from '../../shared/use-cases/likes.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { repost } from '../../shared/use-cases/reposts.js';
import { drain, fakeFeed } from '../support/fakes/feed.js';

const H = 3600_000;
const NOW = 1_900_000_000_000;
const postOf = (id: string) => {
  const p = parsePostId(id);
  return p ? { createdAt: p.millis, author: p.author } : null;
};
const id = (author: string, ageMs: number) => `${author}.${NOW - ageMs}.0123456789ab`;
const e = (postId: string, handle: string, ageMs: number): Engagement => ({ postId, handle, at: NOW - ageMs });
const rank = (list: Engagement[]) => rankEngagements(list, NOW, postOf);

describe('what ranks', () => {
  it('counts distinct people, each by their latest engagement, halved every half-life; never the author', () => {
    const a = id('amy', 10 * H);
    const ranked = rank([
      e(a, 'bob', 0),
      e(a, 'bob', 1 * H), // bob again: one person, his latest counts
      e(a, 'cat', HOT_HALF_LIFE_MS),
      e(a, 'dan', 2 * HOT_HALF_LIFE_MS),
      e(a, 'amy', 0), // the author
    ]);
    expect(ranked).toHaveLength(1);
    expect(ranked[0]).toMatchObject({ id: a, people: 3 });
    expect(ranked[0]!.score).toBeCloseTo(1 + 0.5 + 0.25, 10);
    expect(engagementWeight(HOT_HALF_LIFE_MS)).toBeCloseTo(0.5, 12);
    expect(engagementWeight(-5)).toBe(1);
  });

  it('needs the minimum of people, leaves out posts past the age limit, ranks by score then the newer post', () => {
    const [few, old, fresh, older, tieNew, tieOld] = [
      id('amy', H),
      id('amy', HOT_MAX_POST_AGE_MS + 1),
      id('bob', H),
      id('cat', 2 * H),
      id('dan', 3 * H),
      id('eve', 4 * H),
    ];
    const people = (post: string, n: number, age = 0) => Array.from({ length: n }, (_, i) => e(post, `p${i}`, age));
    const ranked = rank([
      ...people(few, HOT_MIN_PEOPLE - 1),
      ...people(old, 10),
      ...people(fresh, 4),
      ...people(older, 6, HOT_HALF_LIFE_MS), // 6 × ½ = 3: below 4 people now, above 3 an hour ago (2.67)
      ...people(tieNew, 3, H),
      ...people(tieOld, 3, H),
    ]);
    expect(ranked.map((r) => r.id)).toEqual([fresh, older, tieNew, tieOld]);
  });

  it('reads every hour a ranked post can have been engaged in', () => {
    const buckets = hotBucketsAt(NOW);
    expect(buckets.at(-1)).toBe(Math.floor(NOW / H));
    expect(buckets[0]).toBe(Math.floor((NOW - HOT_MAX_POST_AGE_MS) / H));
    expect(buckets).toHaveLength(49);
  });
});

describe('the hot feed on the fakes', () => {
  it('ranks the post most people engaged with first; drops deleted posts, and blocked authors for the blocker', async () => {
    const t = Date.now();
    const deps = fakeFeed('amy', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus');
    const one = (await publishPost(deps, 'amy', { body: 'one' }, t)).post;
    const two = (await publishPost(deps, 'bob', { body: 'two' }, t + 1)).post;
    const gone = (await publishPost(deps, 'cat', { body: 'gone' }, t + 2)).post;
    const self = (await publishPost(deps, 'dan', { body: 'only me' }, t + 3)).post;
    // one: 4 people (like, comment, repost, and a like and a comment by the same person); two: 3.
    await likePost(deps, 'bob', one.id, t + 10);
    await addComment(deps, 'cat', one.id, { body: 'nice' }, t + 11);
    await repost(deps, 'dan', one.id, {}, t + 12);
    await likePost(deps, 'eve', one.id, t + 13);
    await addComment(deps, 'eve', one.id, { body: 'again' }, t + 14);
    for (const [i, who] of ['amy', 'cat', 'dan'].entries()) await likePost(deps, who, two.id, t + 20 + i);
    for (const [i, who] of ['amy', 'bob', 'dan', 'eve'].entries()) await likePost(deps, who, gone.id, t + 30 + i);
    // The author alone, however much: not hot.
    await likePost(deps, 'dan', self.id, t + 40);
    await addComment(deps, 'dan', self.id, { body: 'me' }, t + 41);
    await drain(deps);
    await deletePost(deps, 'cat', gone.id, t + 50);
    await drain(deps);

    const result = await rankHot(deps, t + 60);
    expect(result.ranking.posts.map((p) => [p.id, p.people])).toEqual([
      [one.id, 4],
      [two.id, 3],
    ]);
    expect(result).toMatchObject({ posts: 2, dropped: 1 });

    const cache: HotCache = {};
    const page = await listHot(deps, 20, undefined, undefined, { now: t + 61, cache });
    expect(page.items.map((p) => p.id)).toEqual([one.id, two.id]);
    expect(page.rankedAt).toBe(t + 60);
    // fay blocks bob: bob's post is not in her feed; pages of one, the cursor goes on.
    await block(deps, 'fay', 'bob', t + 62);
    const first = await listHot(deps, 1, undefined, 'fay', { now: t + 63, cache });
    expect(first.items.map((p) => p.id)).toEqual([one.id]);
    const second = await listHot(deps, 1, first.nextCursor, 'fay', { now: t + 64, cache });
    expect(second.items).toEqual([]);
    expect(second.nextCursor).toBeUndefined();
    // The ranking was read once for all four pages: the cache holds it under HOT_CACHE_MS.
    expect(deps.hot.rankingReads).toBe(1);
    await listHot(deps, 1, undefined, undefined, { now: t + 61 + 60_000, cache });
    expect(deps.hot.rankingReads).toBe(2);
  });

  it('an empty feed before the first ranking; a cursor it did not issue is a 422', async () => {
    const deps = fakeFeed('amy');
    expect(await listHot(deps, 20, undefined, undefined, { cache: {} })).toEqual({ items: [] });
    await expect(listHot(deps, 20, 'not a cursor', undefined, { cache: {} })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });
});
