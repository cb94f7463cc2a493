// test/unit/product-rules.test.ts — the product rules that used to live inside the HBase adapters
// (issue 19, item 7), now pure domain functions and use cases over in-memory fakes of the ports:
// who hides whom, what trending means, which latest actors a notification shows, the write quota's
// window. The adapters only store and fetch; test/integration/social.test.ts runs them on HBase.
import { describe, expect, it } from 'vitest';
import { LATEST_ACTORS, withLatestMember } from '../../shared/domain/notification.js';
import { bucketsOfWindow, rankTrending, trendBucketOf } from '../../shared/domain/trending.js';
import {
  blockedPairs,
  edgesThatBlock,
  edgesThatHide,
  edgesToCheck,
  hiddenPairs,
  postRule,
  type SafetyEdge,
} from '../../shared/domain/visibility.js';
import { listNotifications, reconcileFact } from '../../shared/use-cases/notifications.js';
import { quotaWindowOf, secondsUntilNextWindow } from '../../shared/domain/quota.js';
import { takeWriteQuota } from '../../shared/use-cases/write-limits.js';
import { InvalidInputError } from '../../shared/domain/errors.js';
import { ACTIVE } from '../../shared/domain/leaving.js';
import { newPostId } from '../../shared/domain/post.js';
import { listComments } from '../../shared/use-cases/comments.js';
import { encodeCursor } from '../../shared/use-cases/cursor.js';
import { listLikers } from '../../shared/use-cases/likes.js';
import { listUserPosts } from '../../shared/use-cases/posts.js';
import { profileView, registeredUserView, SessionSchema, sessionView } from '../../shared/http/views.js';
import { registerUser } from '../../shared/use-cases/register-user.js';
import { getProfile } from '../../shared/use-cases/get-profile.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { TRENDING_CACHE_MS, trendingTopics, type TrendingCache } from '../../shared/use-cases/topics.js';
import { hiddenFrom, silencedRecipients } from '../../shared/use-cases/visibility.js';
import { postsToPlace } from '../support/trending.js';
import { fakeFeed, FakePeople, FakeUsers } from '../support/fakes/feed.js';
import {
  TRENDING_TOPICS,
  TRENDING_WINDOW_MS,
  TREND_BUCKET_MS,
  WRITE_QUOTA_WINDOW_MS,
} from '../../shared/domain/limits.js';
import { scryptPasswords } from '../../shared/auth/password.js';

const T = 1_700_000_000_000;

describe('who hides whom (domain/visibility.ts)', () => {
  const block = (from: string, to: string): SafetyEdge => ({ kind: 'block', from, to });
  const mute = (from: string, to: string): SafetyEdge => ({ kind: 'mute', from, to });

  it('a block either way hides; a mute hides only from the muter; nobody is hidden from themself', () => {
    const pairs = [
      { viewer: 'ann', other: 'bob' },
      { viewer: 'bob', other: 'ann' },
      { viewer: 'ann', other: 'cat' },
      { viewer: 'cat', other: 'ann' },
      { viewer: 'ann', other: 'ann' },
    ];
    expect(hiddenPairs(pairs, [block('ann', 'bob')])).toEqual([pairs[0], pairs[1]]);
    expect(hiddenPairs(pairs, [mute('ann', 'cat')])).toEqual([pairs[2]]);
    expect(hiddenPairs(pairs, [mute('cat', 'ann')])).toEqual([pairs[3]]);
    expect(hiddenPairs(pairs, [block('ann', 'ann'), mute('ann', 'ann')])).toEqual([]);
    expect(edgesThatHide({ viewer: 'ann', other: 'ann' })).toEqual([]);
  });

  it('posts: hidden by their author or their original’s author; the viewer’s own always show, a blocker’s original withheld', () => {
    const edges = [mute('ann', 'bob'), block('ann', 'cat'), block('dan', 'ann')];
    const seen = postRule('ann', edges);
    const shown = { hidden: false, originalWithheld: false };
    expect(seen({ author: 'bob' }).hidden).toBe(true);
    expect(seen({ author: 'eve', originalAuthor: 'bob' }).hidden).toBe(true);
    expect(seen({ author: 'eve', originalAuthor: 'dan' }).hidden).toBe(true);
    expect(seen({ author: 'eve' })).toEqual(shown);
    // ann's own posts: her reposts of those she mutes or blocks stay as they are…
    expect(seen({ author: 'ann' })).toEqual(shown);
    expect(seen({ author: 'ann', originalAuthor: 'bob' })).toEqual(shown);
    expect(seen({ author: 'ann', originalAuthor: 'cat' })).toEqual(shown);
    // …and one of a post by someone who blocks her shows without that post.
    expect(seen({ author: 'ann', originalAuthor: 'dan' })).toEqual({ hidden: false, originalWithheld: true });
  });

  it('what one asked for by name (a post’s page, one’s bookmarks) is kept by a block either way, not by a mute', () => {
    const pairs = [
      { viewer: 'ann', other: 'bob' },
      { viewer: 'ann', other: 'cat' },
      { viewer: 'ann', other: 'dan' },
      { viewer: 'ann', other: 'ann' },
    ];
    const edges = [block('bob', 'ann'), block('ann', 'cat'), mute('ann', 'dan'), block('ann', 'ann')];
    expect(blockedPairs(pairs, edges)).toEqual([pairs[0], pairs[1]]);
    expect(edgesThatBlock({ viewer: 'ann', other: 'ann' })).toEqual([]);
  });

  it('asks each edge once, whatever the number of pairs that need it', () => {
    const edges = edgesToCheck([
      { viewer: 'ann', other: 'bob' },
      { viewer: 'ann', other: 'bob' },
      { viewer: 'bob', other: 'ann' },
    ]);
    // ann→bob block, ann→bob mute, bob→ann block (from the first pair); bob→ann mute (the third).
    expect(edges).toHaveLength(4);
  });

  it('hiddenFrom and silencedRecipients apply the rule to what the store found, in one store call', async () => {
    const deps = fakeFeed('ann', 'bob', 'cat', 'dan');
    await deps.blocks.add('block', 'bob', 'ann', T);
    await deps.blocks.add('mute', 'ann', 'cat', T);
    let calls = 0;
    const existing = deps.blocks.existing.bind(deps.blocks);
    deps.blocks.existing = (edges) => {
      calls++;
      return existing(edges);
    };
    expect(await hiddenFrom(deps, 'ann', ['bob', 'cat', 'dan', 'ann'])).toEqual(new Set(['bob', 'cat']));
    expect(calls).toBe(1);
    // cat is muted by ann: ann gets no notification from cat; bob blocks ann: neither notifies the other.
    expect(await silencedRecipients(deps, 'cat', ['ann', 'dan'])).toEqual(new Set(['ann']));
    expect(await silencedRecipients(deps, 'ann', ['bob', 'cat', 'dan'])).toEqual(new Set(['bob']));
    expect(await hiddenFrom(deps, 'ann', [])).toEqual(new Set());
    expect(calls).toBe(3); // no store call for nobody
  });
});

describe('what trending means (domain/trending.ts)', () => {
  it('ranks by posts, ties by name, drops topics without posts, keeps the top N', () => {
    const counts = new Map([
      ['b', 3],
      ['a', 3],
      ['c', 5],
      ['gone', 0],
      ['minus', -1],
      ['d', 1],
    ]);
    expect(rankTrending(counts)).toEqual([
      { name: 'c', posts: 5 },
      { name: 'a', posts: 3 },
      { name: 'b', posts: 3 },
      { name: 'd', posts: 1 },
    ]);
    expect(rankTrending(counts, 2).map((t) => t.name)).toEqual(['c', 'a']);
    const many = new Map(Array.from({ length: 30 }, (_, i) => [`t${String(i).padStart(2, '0')}`, 1]));
    expect(rankTrending(many)).toHaveLength(TRENDING_TOPICS);
    expect(rankTrending(many)[0]!.name).toBe('t00');
  });

  it('counts a post in the bucket of its creation; the hour is the current bucket and the eleven before', () => {
    expect(trendBucketOf(0)).toBe(0);
    expect(trendBucketOf(TREND_BUCKET_MS - 1)).toBe(0);
    expect(trendBucketOf(TREND_BUCKET_MS)).toBe(1);
    const now = 1000 * TREND_BUCKET_MS + 17;
    const buckets = bucketsOfWindow(now, TRENDING_WINDOW_MS);
    expect(buckets).toEqual(Array.from({ length: 12 }, (_, i) => 989 + i));
    expect(bucketsOfWindow(now, 1)).toEqual([1000]);
  });

  it('the use case ranks the window’s counts, and reuses a ranking for the cache period only', async () => {
    const deps = fakeFeed('ann');
    const cache: TrendingCache = {};
    const now = T;
    await publishPost(deps, 'ann', { body: '#old# from before the hour' }, now - TRENDING_WINDOW_MS - TREND_BUCKET_MS);
    await publishPost(deps, 'ann', { body: '#warm# one' }, now - 10 * 60_000);
    for (let i = 0; i < 2; i++) await publishPost(deps, 'ann', { body: `#hot# ${i}` }, now - i);
    expect((await trendingTopics(deps, now, cache)).items).toEqual([
      { name: 'hot', posts: 2 },
      { name: 'warm', posts: 1 },
    ]);
    await publishPost(deps, 'ann', { body: '#warm# two' }, now + 1);
    await publishPost(deps, 'ann', { body: '#warm# three' }, now + 2);
    // Within the cache period: the same ranking; a cache of its own sees the new posts.
    expect((await trendingTopics(deps, now + TRENDING_CACHE_MS, cache)).items[0]).toEqual({ name: 'hot', posts: 2 });
    expect((await trendingTopics(deps, now + 3, {})).items[0]).toEqual({ name: 'warm', posts: 3 });
    // Past it, or with the clock gone back: recomputed.
    expect((await trendingTopics(deps, now + TRENDING_CACHE_MS + 1, cache)).items[0]).toEqual({
      name: 'warm',
      posts: 3,
    });
    const back: TrendingCache = { entry: { at: now + 60_000, value: [] } };
    expect((await trendingTopics(deps, now + 3, back)).items).toHaveLength(2);
    expect((await trendingTopics(deps, now, cache)).windowSeconds).toBe(3600);
  });
});

describe('placing a test’s topics in the top ten (test/support/trending.ts), whatever else is there', () => {
  it('publishes just enough posts, and no more', () => {
    const place = (counts: Map<string, number>, topics: string[]) => {
      const n = postsToPlace(counts, topics);
      const after = new Map(counts);
      for (const t of topics) after.set(t, (after.get(t) ?? 0) + n);
      const shown = rankTrending(after).map((t) => t.name);
      const short = new Map(counts);
      for (const t of topics) short.set(t, (short.get(t) ?? 0) + n - 1);
      return {
        n,
        placed: topics.every((t) => shown.includes(t)),
        oneLessPlaced: n > 0 && topics.every((t) => rankTrending(short).some((x) => x.name === t)),
      };
    };
    expect(place(new Map(), ['zz'])).toEqual({ n: 1, placed: true, oneLessPlaced: false });
    const busy = new Map(
      Array.from({ length: 15 }, (_, i) => [`a${String(i).padStart(2, '0')}`, 20 - i] as [string, number]),
    );
    expect(place(busy, ['zz'])).toMatchObject({ placed: true, oneLessPlaced: false });
    expect(place(busy, ['zz', 'yy'])).toMatchObject({ placed: true, oneLessPlaced: false });
    expect(place(new Map([...busy, ['zz', 30]]), ['zz']).n).toBe(0);
  });
});

describe('which latest actors a notification shows (domain/notification.ts)', () => {
  it('newest first, each member once at its newest time, at most LATEST_ACTORS', () => {
    let latest = withLatestMember([], 'ann', 10);
    latest = withLatestMember(latest, 'bob', 30);
    latest = withLatestMember(latest, 'cat', 20);
    expect(latest).toEqual([
      ['bob', 30],
      ['cat', 20],
      ['ann', 10],
    ]);
    // ann again, later: moved to the front, not listed twice.
    expect(withLatestMember(latest, 'ann', 40)).toEqual([
      ['ann', 40],
      ['bob', 30],
      ['cat', 20],
    ]);
    // A late, older add falls below the cut: the newest names stay.
    expect(withLatestMember(latest, 'dan', 5)).toEqual([
      ['bob', 30],
      ['cat', 20],
      ['ann', 10],
    ]);
    expect(withLatestMember(latest, 'dan', 25)).toHaveLength(LATEST_ACTORS);
  });

  it('the worker names the newest actors and lists the group at its newest add, whatever the delivery order', async () => {
    const deps = fakeFeed('ann', 'bob', 'cat', 'dan', 'eve');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    const times: Record<string, number> = { bob: T + 4, cat: T + 1, dan: T + 3, eve: T + 2 };
    for (const [actor, since] of Object.entries(times)) await deps.reactions.like(actor, post.id, since);
    // Delivered out of time order: eve, bob, cat, dan.
    for (const actor of ['eve', 'bob', 'cat', 'dan'])
      await reconcileFact(deps, { kind: 'like', actor, postId: post.id, since: times[actor]! });
    const page = await listNotifications(deps, 'ann', 10);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ count: 4, latestAt: T + 4 });
    expect(page.items[0]!.actors.map((a) => a.handle)).toEqual(['bob', 'dan', 'eve']);
  });
});

describe('the write quota’s window (domain/quota.ts)', () => {
  it('fixed one-minute windows; Retry-After is the whole seconds until the window turns, at least 1', () => {
    const start = 28_333_333 * WRITE_QUOTA_WINDOW_MS;
    expect(quotaWindowOf(start)).toBe(28_333_333);
    expect(quotaWindowOf(start + 59_999)).toBe(28_333_333);
    expect(quotaWindowOf(start + 60_000)).toBe(28_333_334);
    expect(secondsUntilNextWindow(start)).toBe(60);
    expect(secondsUntilNextWindow(start + 58_001)).toBe(2);
    expect(secondsUntilNextWindow(start + 59_999)).toBe(1);
  });

  it('the use case counts in the window of its clock and refuses past the limit until the window turns', async () => {
    const deps = fakeFeed('ann');
    const start = 28_333_333 * WRITE_QUOTA_WINDOW_MS;
    const limit = deps.limits.writesPerMinute.like;
    for (let i = 0; i < limit; i++) await takeWriteQuota(deps, 'ann', 'like', start + i);
    await expect(takeWriteQuota(deps, 'ann', 'like', start + 50_500)).rejects.toMatchObject({ retryAfterSeconds: 10 });
    // Other actions and the next window count apart.
    await takeWriteQuota(deps, 'ann', 'comment', start + 50_500);
    await takeWriteQuota(deps, 'ann', 'like', start + WRITE_QUOTA_WINDOW_MS);
    expect([...deps.quota.counts.keys()]).toEqual(['ann/like/28333333', 'ann/comment/28333333', 'ann/like/28333334']);
  });
});

describe('cursors: the use case decides what a valid one is, before the store is asked', () => {
  it("an author's posts refuse a cursor that is not a post of that author (moved from the store to listUserPosts)", async () => {
    const deps = fakeFeed('pager', 'pagea');
    let asked = 0;
    const list = deps.posts.listByAuthor.bind(deps.posts);
    deps.posts.listByAuthor = (...args) => {
      asked++;
      return list(...args);
    };
    const windowOf = deps.outbox.windowOf.bind(deps.outbox);
    deps.outbox.windowOf = (...args) => {
      asked++;
      return windowOf(...args);
    };
    const foreign = newPostId('pagea', T);
    await expect(listUserPosts(deps, 'pager', 3, encodeCursor(foreign))).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    await expect(listUserPosts(deps, 'pager', 3, 'garbage')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listUserPosts(deps, 'pager', 3, encodeCursor(newPostId('pager', T)))).resolves.toMatchObject({
      items: [],
    });
    expect(asked).toBe(1);
  });

  it('comments take a comment id, likers a list position (since.handle)', async () => {
    const deps = fakeFeed('ann');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await expect(listComments(deps, post.id, 'newest', 10, encodeCursor('not-a-comment-id'))).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    await expect(
      listComments(deps, post.id, 'oldest', 10, encodeCursor('1700000000000-0123abcd')),
    ).resolves.toMatchObject({ items: [] });
    await expect(listLikers(deps, post.id, 10, encodeCursor('1700000000000.Not A Handle'))).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    await expect(listLikers(deps, post.id, 10, encodeCursor('bob'))).rejects.toMatchObject({ code: 'invalid_cursor' });
    await expect(listLikers(deps, post.id, 10, encodeCursor('1700000000000.bob'))).resolves.toMatchObject({
      items: [],
    });
  });
});

describe('instants: use cases answer millis, the HTTP views format them', () => {
  it('profile, registration and session', async () => {
    const deps = fakeFeed();
    const created = await registerUser(
      { users: deps.users, people: new FakePeople(), passwords: scryptPasswords },
      { handle: 'newbie', displayName: ' New ', password: 'long enough password' },
      T,
    );
    expect(created).toEqual({ handle: 'newbie', displayName: 'New', createdAt: T });
    expect(registeredUserView(created)).toEqual({
      handle: 'newbie',
      displayName: 'New',
      createdAt: '2023-11-14T22:13:20.000Z',
    });
    const profile = await getProfile(deps, 'newbie');
    expect(typeof profile.createdAt).toBe('number');
    expect(profileView({ ...profile, createdAt: T })).toEqual({ ...profile, createdAt: '2023-11-14T22:13:20.000Z' });
    const grant = {
      handle: 'newbie',
      token: 't',
      expiresAt: T + 900_000,
      refreshToken: 'r',
      refreshExpiresAt: T + 86_400_000,
    };
    const view = sessionView(grant);
    expect(SessionSchema.parse(view)).toEqual({
      ...grant,
      tokenType: 'Bearer',
      expiresAt: '2023-11-14T22:28:20.000Z',
      refreshExpiresAt: '2023-11-15T22:13:20.000Z',
    });
  });
});

describe('a profile’s counts (use-cases/get-profile.ts)', () => {
  it('are shown never below zero: a counter left one short by a crash window, then decremented, reads 0', async () => {
    const users = new FakeUsers('amy');
    users.profile = async (h) => ({
      handle: h,
      displayName: h,
      createdAt: T,
      followers: -1,
      following: -2,
      posts: 3,
      standing: ACTIVE,
    });
    expect(await getProfile({ users }, 'amy')).toEqual({
      handle: 'amy',
      displayName: 'amy',
      createdAt: T,
      followers: 0,
      following: 0,
      posts: 3,
      avatar: null,
      avatarLarge: null,
      bio: '',
      location: '',
      cover: null,
    });
  });
});
