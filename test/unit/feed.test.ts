// test/unit/feed.test.ts — the feed use cases on in-memory fakes of the ports. The same flows
// run against real HBase + SQS in test/integration and test/e2e.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, GoneError, InvalidInputError, NotFoundError } from '../../shared/domain/errors.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { MAX_SEGMENTS } from '../../shared/use-cases/background/delivery.js';
import type { MessageOf } from '../../shared/use-cases/background/message.js';
import { segmentOf } from '../../shared/schema/row-keys.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { deletePost, listUserPosts } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, listRelations, unfollow } from '../../shared/use-cases/relations.js';
import { drain, fakeFeed } from '../support/fakes/feed.js';

/** Takes the first fan-out message out of the queue (a publish queues its delayed notify too). */
function takeFanout(deps: ReturnType<typeof fakeFeed>): MessageOf<'fanout'> {
  const i = deps.queue.sent.findIndex((m) => m.type === 'fanout');
  if (i < 0) throw new Error('no fan-out message queued');
  return deps.queue.sent.splice(i, 1)[0] as MessageOf<'fanout'>;
}

describe('publishPost', () => {
  it('stores, counts, shows in the own timeline at once, and queues the fan-out', async () => {
    const deps = fakeFeed('amy');
    const { post } = await publishPost(deps, 'amy', { body: 'hello' }, 1_000);
    expect(deps.inbox.entries('amy')).toEqual([post.id]);
    expect(await deps.counters.get('amy', 'posts')).toBe(1);
    expect(deps.queue.sent.filter((m) => m.type !== 'notify')).toEqual([{ v: 1, type: 'fanout', postId: post.id }]);
    // Its delayed notify, queued before the row: it settles the posts count of a publish cut after its row.
    expect(deps.queue.sent).toContainEqual(
      expect.objectContaining({
        type: 'notify',
        fact: expect.objectContaining({ kind: 'post', postId: post.id }),
        tally: { at: 1_000, removal: false },
      }),
    );
  });

  it('keeps two posts of the same millisecond apart', async () => {
    const deps = fakeFeed('amy');
    const a = await publishPost(deps, 'amy', { body: 'one' }, 5_000);
    const b = await publishPost(deps, 'amy', { body: 'two' }, 5_000);
    expect(a.post.id).not.toBe(b.post.id);
    expect(deps.posts.rows.size).toBe(2);
  });

  it('replays a retried publish with the same idempotency key: same post, no second count', async () => {
    const deps = fakeFeed('amy');
    const first = await publishPost(deps, 'amy', { body: 'once', idempotencyKey: 'k1' }, 1_000);
    const again = await publishPost(deps, 'amy', { body: 'once', idempotencyKey: 'k1' }, 2_000);
    expect(again).toEqual({
      post: { ...first.post, counts: { likes: 0, comments: 0, reposts: 0 } },
      replayed: true,
      face: { handle: 'amy', displayName: 'amy', avatar: null },
    });
    expect(deps.posts.rows.size).toBe(1);
    expect(await deps.counters.get('amy', 'posts')).toBe(1);
  });

  it('finishes a publish whose first attempt died after claiming the key', async () => {
    const deps = fakeFeed('amy');
    const fingerprint = createHash('sha256').update('late').digest('base64url');
    await deps.idempotency.claim('amy', 'k2', { id: 'amy.1000.000000000001', fingerprint });
    const { post, replayed } = await publishPost(deps, 'amy', { body: 'late', idempotencyKey: 'k2' }, 3_000);
    expect(post.id).toBe('amy.1000.000000000001');
    expect(replayed).toBe(false);
    expect(await deps.counters.get('amy', 'posts')).toBe(1);
  });

  it('answers 422 for the same key with another body, and changes nothing', async () => {
    const deps = fakeFeed('amy');
    await publishPost(deps, 'amy', { body: 'first', idempotencyKey: 'k3' }, 1_000);
    await expect(publishPost(deps, 'amy', { body: 'second', idempotencyKey: 'k3' }, 2_000)).rejects.toMatchObject({
      code: 'idempotency_key_mismatch',
    });
    expect(deps.posts.rows.size).toBe(1);
    expect(await deps.counters.get('amy', 'posts')).toBe(1);
  });

  it('never brings a deleted post back: a retry after the delete answers post_deleted (410)', async () => {
    const deps = fakeFeed('amy');
    const { post } = await publishPost(deps, 'amy', { body: 'regret', idempotencyKey: 'k4' }, 1_000);
    await deletePost(deps, 'amy', post.id);
    deps.queue.sent.length = 0;
    const retry = publishPost(deps, 'amy', { body: 'regret', idempotencyKey: 'k4' }, 2_000);
    await expect(retry).rejects.toBeInstanceOf(GoneError);
    await expect(retry).rejects.toMatchObject({ code: 'post_deleted' });
    expect(await deps.posts.get(post.id)).toBeNull();
    expect(deps.inbox.entries('amy')).toEqual([]);
    expect(await deps.counters.get('amy', 'posts')).toBe(0);
    // Nothing to fan out (a delayed notify may be queued before the create is refused: it finds the count settled).
    expect(deps.queue.sent.filter((m) => m.type !== 'notify')).toEqual([]);
  });
});

describe('fan-out', () => {
  it('reaches every follower in bounded chunks, continuing in follow-up messages', async () => {
    const followers = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7'];
    const deps = fakeFeed('amy', ...followers);
    for (const f of followers) await follow(deps, f, 'amy');
    deps.queue.sent.length = 0;
    const { post } = await publishPost(deps, 'amy', { body: 'hi' });

    // 7 followers, 4 per message (2 chunks × 2): the first message splits the list in two
    // segments, sends the second as a message of its own and runs the first itself.
    const first = await handleFanoutMessage(deps, takeFanout(deps));
    const inFirst = followers.filter((f) => segmentOf(f, 2) === 0);
    expect(first).toMatchObject({ readers: Math.min(4, inFirst.length), continued: inFirst.length > 4, segments: 2 });
    expect(deps.queue.sent.find((m) => m.type === 'fanout')).toEqual({
      v: 1,
      type: 'fanout',
      postId: post.id,
      segment: { index: 1, of: 2 },
    });
    await drain(deps);
    for (const f of followers) expect(deps.inbox.entries(f)).toEqual([post.id]);
  });

  it('a delete that lands while a segment message writes: that segment is retracted again, and no follower keeps the post (invariant B per segment)', async () => {
    const followers = Array.from({ length: 30 }, (_, i) => `f${i}`);
    const deps = fakeFeed('amy', ...followers);
    for (const f of followers) await follow(deps, f, 'amy');
    await drain(deps);
    const { post } = await publishPost(deps, 'amy', { body: 'soon gone' });
    await handleFanoutMessage(deps, takeFanout(deps)); // splits; runs segment 0
    const segment = deps.queue.sent.find(
      (m): m is MessageOf<'fanout'> => m.type === 'fanout' && m.segment !== undefined && m.segment.index > 0,
    )!;
    deps.queue.sent.splice(deps.queue.sent.indexOf(segment), 1);
    let deleted = false;
    deps.step = async (point) => {
      // Forced: the segment message has read its followers; the delete and its whole retraction
      // run now, before the segment's cells land.
      if (point !== 'fanout.readers-read' || deleted) return;
      deleted = true;
      await deletePost(deps, 'amy', post.id);
      await drain(deps);
    };
    const out = await handleFanoutMessage(deps, segment);
    deps.step = undefined;
    expect(deleted).toBe(true);
    expect(out.retractedAgain).toBe(true);
    expect(deps.queue.sent).toContainEqual(
      expect.objectContaining({
        type: 'retract',
        postId: post.id,
        segment: segment.type === 'fanout' ? segment.segment : undefined,
      }),
    );
    await drain(deps);
    for (const f of followers) expect(deps.inbox.entries(f), f).toEqual([]);
  });

  it('splits a big list into at most MAX_SEGMENTS segments, each continued in bounded messages; every follower once', async () => {
    const followers = Array.from({ length: 90 }, (_, i) => `f${i}`);
    const deps = fakeFeed('amy', ...followers);
    for (const f of followers) await follow(deps, f, 'amy');
    deps.queue.sent.length = 0;
    const { post } = await publishPost(deps, 'amy', { body: 'hi' });
    const first = await handleFanoutMessage(deps, takeFanout(deps));
    expect(first.segments).toBe(MAX_SEGMENTS); // 90 / 4 per message > 16
    const segments = deps.queue.sent
      .filter((m) => m.type === 'fanout' && m.segment && !m.cursor)
      .map((m) => (m as { segment: { index: number } }).segment.index);
    expect(segments.sort((a, b) => a - b)).toEqual(Array.from({ length: MAX_SEGMENTS - 1 }, (_, i) => i + 1));
    let messages = 1;
    while (deps.queue.sent.length > 0) {
      const out = await handleFanoutMessage(deps, deps.queue.sent.shift() as MessageOf<'fanout'>);
      expect(out.readers).toBeLessThanOrEqual(4);
      expect(out.segments).toBeUndefined(); // only the first message splits
      messages++;
    }
    expect(messages).toBeGreaterThanOrEqual(MAX_SEGMENTS);
    for (const f of followers) expect(deps.inbox.entries(f)).toEqual([post.id]);
  });

  it('is idempotent: a re-delivered message adds no duplicate', async () => {
    const deps = fakeFeed('amy', 'bob');
    await follow(deps, 'bob', 'amy');
    const { post } = await publishPost(deps, 'amy', { body: 'x' });
    const msg = { v: 1 as const, type: 'fanout' as const, postId: post.id };
    await handleFanoutMessage(deps, msg);
    await handleFanoutMessage(deps, msg);
    expect(deps.inbox.entries('bob')).toEqual([post.id]);
  });

  it('retracts a deleted post from followers and lets only the author delete', async () => {
    const deps = fakeFeed('amy', 'bob');
    await follow(deps, 'bob', 'amy');
    const { post } = await publishPost(deps, 'amy', { body: 'oops' });
    await drain(deps);
    await expect(deletePost(deps, 'bob', post.id)).rejects.toBeInstanceOf(ForbiddenError);
    await deletePost(deps, 'amy', post.id);
    await drain(deps);
    expect(deps.inbox.entries('bob')).toEqual([]);
    expect(deps.inbox.entries('amy')).toEqual([]);
    expect(await deps.counters.get('amy', 'posts')).toBe(0);
    await expect(deletePost(deps, 'amy', post.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('skips a post deleted before its fan-out ran', async () => {
    const deps = fakeFeed('amy', 'bob');
    await follow(deps, 'bob', 'amy');
    const { post } = await publishPost(deps, 'amy', { body: 'gone' });
    await deps.posts.markDeleted(post.id, 0);
    expect(await handleFanoutMessage(deps, { v: 1, type: 'fanout', postId: post.id })).toEqual({
      readers: 0,
      continued: false,
      inboxCells: 0,
      skipped: 'deleted',
    });
  });
});

describe('follow / unfollow', () => {
  it('refuses self, unknown users and the following limit; is idempotent in the counts', async () => {
    const deps = fakeFeed('amy', 'bob', 'cat', 'dan', 'eve');
    await expect(follow(deps, 'amy', 'amy')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(follow(deps, 'amy', 'zed')).rejects.toBeInstanceOf(NotFoundError);
    await follow(deps, 'amy', 'bob');
    await follow(deps, 'amy', 'bob');
    expect(await deps.counters.get('amy', 'following')).toBe(1);
    expect(await deps.counters.get('bob', 'followers')).toBe(1);
    await follow(deps, 'amy', 'cat');
    await follow(deps, 'amy', 'dan');
    await expect(follow(deps, 'amy', 'eve')).rejects.toMatchObject({ code: 'following_limit' });
    await follow(deps, 'amy', 'dan'); // re-following someone already followed is still fine at the limit
    await unfollow(deps, 'amy', 'bob');
    await unfollow(deps, 'amy', 'bob');
    expect(await deps.counters.get('amy', 'following')).toBe(2);
    expect(await deps.counters.get('bob', 'followers')).toBe(0);
  });

  it('backfills the followee’s recent posts (bounded), and unfollow purges them', async () => {
    const deps = fakeFeed('amy', 'bob');
    for (let t = 1; t <= 5; t++) await publishPost(deps, 'bob', { body: `p${t}` }, t * 1000);
    deps.queue.sent.length = 0;
    await follow(deps, 'amy', 'bob');
    await drain(deps);
    const got = await deps.posts.getMany(deps.inbox.entries('amy'));
    expect(got.map((p) => p.body)).toEqual(['p5', 'p4', 'p3']); // backfillLimit 3, newest first
    await unfollow(deps, 'amy', 'bob');
    expect(deps.inbox.entries('amy')).toEqual([]);
  });

  it('does not backfill after an unfollow overtook the message', async () => {
    const deps = fakeFeed('amy', 'bob');
    await publishPost(deps, 'bob', { body: 'p' });
    deps.queue.sent.length = 0;
    await follow(deps, 'amy', 'bob');
    await unfollow(deps, 'amy', 'bob');
    await drain(deps);
    expect(deps.inbox.entries('amy')).toEqual([]);
  });

  it('queues the delayed settle (and the delayed follower notification) before the first write, so even a request that dies there leaves them behind', async () => {
    const deps = fakeFeed('amy', 'bob');
    deps.relations.follow = async () => {
      throw new Error('function stopped at its timeout');
    };
    await expect(follow(deps, 'amy', 'bob', 7_000)).rejects.toThrow('stopped');
    expect(deps.queue.sent).toEqual([
      { v: 1, type: 'settle', reader: 'amy', followee: 'bob', at: 7_000, tally: { since: 7_000, removal: false } },
      {
        v: 1,
        type: 'notify',
        fact: { kind: 'follow', actor: 'amy', target: 'bob', since: 7_000 },
        tally: { at: 7_000, removal: false },
      },
    ]);
    expect(deps.queue.delays).toEqual([deps.limits.settleSeconds, deps.limits.settleSeconds]);
    // The unfollow of an edge it read: the settle carries the edge's since, for its counts.
    const later = fakeFeed('amy', 'bob');
    await follow(later, 'amy', 'bob', 7_500);
    later.queue.sent.length = 0;
    later.relations.unfollow = async () => {
      throw new Error('function stopped at its timeout');
    };
    await expect(unfollow(later, 'amy', 'bob', 8_000)).rejects.toThrow('stopped');
    expect(later.queue.sent).toEqual([
      { v: 1, type: 'settle', reader: 'amy', followee: 'bob', at: 8_000, tally: { since: 7_500, removal: true } },
      {
        v: 1,
        type: 'notify',
        fact: { kind: 'follow', actor: 'amy', target: 'bob', since: 7_500 },
        tally: { at: 8_000, removal: true },
      },
    ]);
  });

  it('a settle makes the view agree with the edge, whatever the view holds', async () => {
    const deps = fakeFeed('amy', 'bob');
    const { post } = await publishPost(deps, 'bob', { body: 'p' }, 1_000);
    // Not following, yet bob's post and a stale marker sit in amy's row (late writes).
    await deps.inbox.add(['amy'], post);
    await deps.inbox.addCelebrity(['amy'], 'bob');
    await handleFanoutMessage(deps, { v: 1, type: 'settle', reader: 'amy', followee: 'bob', at: 2_000 });
    expect(deps.inbox.entries('amy')).toEqual([]);
    expect(deps.inbox.markers.get('amy')?.has('bob')).toBe(false);
    // Following, but the followers side is missing (a follow stopped between its two writes).
    await deps.relations.follow('amy', 'bob', 3_000);
    deps.relations.followerRows.clear();
    await handleFanoutMessage(deps, { v: 1, type: 'settle', reader: 'amy', followee: 'bob', at: 3_000 });
    expect(await deps.relations.followerSide('amy', 'bob')).toBe(3_000);
    expect(deps.inbox.entries('amy')).toEqual([post.id]); // backfilled
  });

  it('lists following and followers newest first with cursors, no duplicates', async () => {
    const deps = fakeFeed('amy', 'b1', 'b2', 'b3');
    deps.limits.maxFollowing = 10;
    // Explicit times: follows in one millisecond would tie and fall back to handle order.
    for (const [i, b] of ['b1', 'b2', 'b3'].entries()) await follow(deps, 'amy', b, 1_000 + i);
    const p1 = await listRelations(deps, 'amy', 'following', 2);
    const p2 = await listRelations(deps, 'amy', 'following', 2, p1.nextCursor);
    expect([...p1.items, ...p2.items].map((e) => e.handle)).toEqual(['b3', 'b2', 'b1']);
    expect(p2.nextCursor).toBeUndefined();
    await expect(listRelations(deps, 'amy', 'following', 2, 'not a cursor!')).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });
});

describe('home timeline', () => {
  it('pages newest first with no duplicates or gaps while posts arrive', async () => {
    const deps = fakeFeed('amy', 'bob', 'cat');
    deps.limits.maxFollowing = 10;
    await follow(deps, 'amy', 'bob');
    await follow(deps, 'amy', 'cat');
    const ids: string[] = [];
    for (let t = 1; t <= 6; t++)
      ids.push((await publishPost(deps, t % 2 ? 'bob' : 'cat', { body: `p${t}` }, t * 1000)).post.id);
    await drain(deps);

    const page1 = await homeTimeline(deps, 'amy', 4);
    await publishPost(deps, 'bob', { body: 'newest' }, 99_000); // arrives between pages
    await drain(deps);
    const page2 = await homeTimeline(deps, 'amy', 4, page1.nextCursor);
    expect([...page1.items, ...page2.items].map((p) => p.id)).toEqual([...ids].reverse());
    expect(page2.nextCursor).toBeUndefined();
    expect((await homeTimeline(deps, 'amy', 1)).items[0]!.body).toBe('newest');
  });

  it('drops a deleted post at once, before its retraction runs', async () => {
    const deps = fakeFeed('amy', 'bob');
    await follow(deps, 'amy', 'bob');
    const { post } = await publishPost(deps, 'bob', { body: 'soon gone' });
    await drain(deps);
    await deletePost(deps, 'bob', post.id); // retraction still queued
    expect((await homeTimeline(deps, 'amy', 20)).items).toEqual([]);
  });

  it('rejects a cursor it did not issue', async () => {
    const deps = fakeFeed('amy');
    await expect(homeTimeline(deps, 'amy', 20, '***')).rejects.toMatchObject({ code: 'invalid_cursor' });
  });
});

describe('listUserPosts', () => {
  it('pages an author’s posts and refuses another author’s cursor', async () => {
    const deps = fakeFeed('amy', 'bob');
    for (let t = 1; t <= 3; t++) await publishPost(deps, 'amy', { body: `a${t}` }, t);
    const bobs = await publishPost(deps, 'bob', { body: 'b' }, 1);
    const p1 = await listUserPosts(deps, 'amy', 2);
    const p2 = await listUserPosts(deps, 'amy', 2, p1.nextCursor);
    expect([...p1.items, ...p2.items].map((p) => p.body)).toEqual(['a3', 'a2', 'a1']);
    const foreign = Buffer.from(bobs.post.id).toString('base64url');
    await expect(listUserPosts(deps, 'amy', 2, foreign)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listUserPosts(deps, 'zed', 2)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reads the outbox while it holds every post; past a trimmed outbox's tail, the content table: every live post once, newest first", async () => {
    const deps = fakeFeed('amy', 'bob');
    const original = await publishPost(deps, 'bob', { body: 'b' }, 1);
    const ids: string[] = [];
    for (let t = 2; t <= 26; t++)
      ids.unshift(
        (await publishPost(deps, 'amy', { body: `a${t}`, ...(t === 20 ? { repostOf: original.post.id } : {}) }, t)).post
          .id,
      );
    await deletePost(deps, 'amy', ids[3]!);
    const live = ids.filter((id) => id !== ids[3]);
    let scans = 0;
    const list = deps.posts.listByAuthor.bind(deps.posts);
    deps.posts.listByAuthor = (...args) => {
      scans++;
      return list(...args);
    };
    const walk = async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const page = await listUserPosts(deps, 'amy', 7, cursor, 'bob');
        seen.push(...page.items.map((p) => p.id));
        cursor = page.nextCursor;
        if (!cursor) return seen;
      }
      throw new Error(`still paging after 10 pages of 7 (${seen.length} posts seen)`);
    };
    expect(await walk()).toEqual(live);
    expect(scans, 'an outbox holding every post is the whole list').toBe(0);
    // The trim job keeps the newest entries: the 10 oldest go from the outbox (not from the table).
    for (const id of live.slice(-10)) await deps.outbox.remove('amy', id);
    expect(await walk()).toEqual(live);
    expect(scans, 'past the tail of the trimmed outbox').toBeGreaterThan(0);
  });
});

describe('celebrity hybrid', () => {
  /** amy gets `n` followers f0…f(n-1); the threshold is 3. */
  async function setup(n: number) {
    const fans = Array.from({ length: n }, (_, i) => `f${i}`);
    const deps = fakeFeed('amy', ...fans);
    deps.limits.celebrityFollowers = 3;
    deps.limits.maxFollowing = 10;
    for (const f of fans) await follow(deps, f, 'amy');
    await drain(deps);
    return { deps, fans };
  }
  const timelineBodies = async (deps: ReturnType<typeof fakeFeed>, reader: string) =>
    (await homeTimeline(deps, reader, 50)).items.map((p) => p.body);

  it('crossing the threshold promotes: markers on every follower, then no fan-out, merged at read time', async () => {
    const { deps, fans } = await setup(2);
    await publishPost(deps, 'amy', { body: 'before' }, 1_000);
    await drain(deps);
    await follow(deps, 'f2', 'amy'); // the third follower: crosses the threshold
    expect(deps.queue.sent).toContainEqual({ v: 1, type: 'promote', author: 'amy' });
    await drain(deps);
    expect(await deps.celebrities.isCelebrity('amy')).toBe(true);

    await publishPost(deps, 'amy', { body: 'after' }, 2_000);
    const fanout = takeFanout(deps);
    expect(await handleFanoutMessage(deps, fanout)).toMatchObject({ skipped: 'celebrity' });
    for (const f of [...fans, 'f2']) {
      expect(deps.inbox.entries(f)).not.toContain(fanout.type === 'fanout' ? fanout.postId : '');
      expect(await timelineBodies(deps, f)).toEqual(['after', 'before']); // merged, newest first, no duplicate
    }
  });

  it('pages a merged timeline with cursors: no duplicates, no gaps', async () => {
    const { deps } = await setup(3);
    await drain(deps);
    const bob = 'f0';
    await deps.users.create({ handle: 'zed', displayName: 'z', passwordHash: 'x', createdAt: 0 });
    await follow(deps, bob, 'zed');
    for (let t = 1; t <= 8; t++) await publishPost(deps, t % 2 ? 'amy' : 'zed', { body: `p${t}` }, t * 1000);
    await drain(deps);
    const p1 = await homeTimeline(deps, bob, 3);
    const p2 = await homeTimeline(deps, bob, 3, p1.nextCursor);
    const p3 = await homeTimeline(deps, bob, 3, p2.nextCursor);
    expect([...p1.items, ...p2.items, ...p3.items].map((p) => p.body)).toEqual([
      'p8',
      'p7',
      'p6',
      'p5',
      'p4',
      'p3',
      'p2',
      'p1',
    ]);
    expect(p3.nextCursor).toBeUndefined();
  });

  it('falling clearly below the threshold demotes: fan-out resumes and recent posts are copied in', async () => {
    const { deps } = await setup(3);
    await publishPost(deps, 'amy', { body: 'as celebrity' }, 5_000);
    await drain(deps);
    await unfollow(deps, 'f2', 'amy'); // 2 < 0.9 × 3
    expect(deps.queue.sent).toContainEqual({ v: 1, type: 'demote', author: 'amy' });
    await drain(deps);
    expect(await deps.celebrities.isCelebrity('amy')).toBe(false);
    expect(deps.inbox.markers.get('f0')?.has('amy')).toBe(false);
    expect(deps.inbox.entries('f0').length).toBe(1); // the celebrity-era post now sits in the inbox
    await publishPost(deps, 'amy', { body: 'fanned out again' }, 6_000);
    await drain(deps);
    expect(await timelineBodies(deps, 'f0')).toEqual(['fanned out again', 'as celebrity']);
    expect(await timelineBodies(deps, 'f2')).toEqual([]);
  });
});

describe('inactive readers', () => {
  it('get no fan-out; on return the timeline says regenerating (206) until the rebuild matches what fan-out would have written', async () => {
    const deps = fakeFeed('amy', 'bob', 'cat');
    deps.limits.maxFollowing = 10;
    const day = 86_400_000;
    const t0 = 100 * day;
    await follow(deps, 'cat', 'amy');
    await follow(deps, 'cat', 'bob');
    await drain(deps);
    await homeTimeline(deps, 'cat', 20, undefined, t0); // cat reads: seen at t0
    // The away sweep's message (shared/use-cases/jobs/away-sweep.ts): cat is marked away on both follows.
    expect(await handleFanoutMessage(deps, { v: 1, type: 'away', reader: 'cat', seenAt: t0 })).toMatchObject({
      continued: false,
    });
    expect([...deps.relations.away].sort()).toEqual(['cat>amy', 'cat>bob']);
    expect(deps.inbox.awayAt.get('cat')).toBe(t0);

    const later = t0 + 40 * day; // past the 30-day window
    const ids = [];
    for (let i = 0; i < 4; i++)
      ids.push((await publishPost(deps, i % 2 ? 'amy' : 'bob', { body: `while away ${i}` }, later + i)).post.id);
    for (const msg of deps.queue.sent.splice(0)) await handleFanoutMessage(deps, msg);
    expect(deps.inbox.entries('cat')).toEqual([]); // nothing was fanned out to the inactive reader

    const back = await homeTimeline(deps, 'cat', 20, undefined, later + 20);
    expect(back.regenerating).toBe(true);
    expect(deps.queue.sent).toEqual([{ v: 1, type: 'regenerate', reader: 'cat' }]);
    expect((await homeTimeline(deps, 'cat', 20, undefined, later + 30)).regenerating).toBe(true); // still, until done

    await drain(deps);
    const after = await homeTimeline(deps, 'cat', 20, undefined, later + 40);
    expect(after.regenerating).toBe(false);
    expect(after.items.map((p) => p.id)).toEqual([...ids].reverse());
    expect(deps.relations.away.size).toBe(0); // the rebuild cleared the marks: fan-out reaches cat again
  });

  /** cat follows amy and bob, read at t0, and is now past the window. */
  const awayReader = async () => {
    const deps = fakeFeed('amy', 'bob', 'cat');
    const t0 = 1_000_000;
    await follow(deps, 'cat', 'amy');
    await follow(deps, 'cat', 'bob');
    await drain(deps);
    await homeTimeline(deps, 'cat', 20, undefined, t0);
    return { deps, t0, later: t0 + 40 * 86_400_000 };
  };

  it('a reader back while the away marks are written: the marks land after the rebuild cleared them, and the worker queues another rebuild (invariant J)', async () => {
    const { deps, t0, later } = await awayReader();
    let returned = false;
    deps.step = async (point) => {
      // Forced: the away message has read cat's m:seen (old) and the follows; before its marks
      // land, cat comes back and the whole rebuild runs (clears nothing yet, backfills).
      if (point !== 'fanout.readers-read' || returned) return;
      returned = true;
      expect((await homeTimeline(deps, 'cat', 20, undefined, later)).regenerating).toBe(true);
      await drain(deps);
    };
    const out = await handleFanoutMessage(deps, { v: 1, type: 'away', reader: 'cat', seenAt: t0 });
    expect(returned).toBe(true);
    expect(out.skipped).toBe('returned');
    expect(deps.relations.away.size).toBe(2); // the marks landed after the rebuild: wrong until…
    deps.step = undefined;
    await drain(deps); // …the rebuild the worker queued clears them
    expect(deps.relations.away.size).toBe(0);
    const { post } = await publishPost(deps, 'amy', { body: 'welcome back' });
    await drain(deps);
    expect(deps.inbox.entries('cat')).toContain(post.id);
  });

  it('a post whose fan-out skipped an away reader who is back before its cells land: the rebuild (after the clear) backfills it', async () => {
    const { deps, t0, later } = await awayReader();
    await handleFanoutMessage(deps, { v: 1, type: 'away', reader: 'cat', seenAt: t0 });
    await follow(deps, 'bob', 'amy'); // an active follower: the chunk read below holds bob, not cat
    await drain(deps);
    const { post } = await publishPost(deps, 'amy', { body: 'while you came back' }, later);
    let returned = false;
    deps.step = async (point) => {
      // Forced: the fan-out has read amy's followers (cat marked away) but not written yet.
      if (point !== 'fanout.readers-read' || returned) return;
      returned = true;
      deps.step = undefined;
      await homeTimeline(deps, 'cat', 20, undefined, later + 1);
      await drain(deps); // the rebuild: clear cat's marks, then backfill amy and bob
    };
    await drain(deps);
    expect(returned).toBe(true);
    const page = await homeTimeline(deps, 'cat', 20, undefined, later + 2);
    expect(page.regenerating).toBe(false);
    expect(page.items.map((p) => p.id)).toContain(post.id);
  });

  it('a post published while the rebuild backfills: its fan-out already sees the marks cleared (clear first, then backfill)', async () => {
    const { deps, t0, later } = await awayReader();
    await handleFanoutMessage(deps, { v: 1, type: 'away', reader: 'cat', seenAt: t0 });
    expect((await homeTimeline(deps, 'cat', 20, undefined, later)).regenerating).toBe(true);
    let postId = '';
    deps.step = async (point) => {
      // Forced: the rebuild has read amy's posts; amy publishes and the whole fan-out runs now.
      if (point !== 'backfill.posts-read' || postId) return;
      const held = deps.queue.sent.splice(0);
      postId = (await publishPost(deps, 'amy', { body: 'during the rebuild' }, later + 1)).post.id;
      await drain(deps);
      deps.queue.sent.push(...held);
    };
    await drain(deps);
    deps.step = undefined;
    expect(postId).not.toBe('');
    expect(deps.inbox.entries('cat')).toContain(postId);
  });

  it('the away message does nothing for a reader seen since the sweep read m:seen', async () => {
    const { deps, t0 } = await awayReader();
    await homeTimeline(deps, 'cat', 20, undefined, t0 + 2 * 3600_000); // a later read moved m:seen
    expect(await handleFanoutMessage(deps, { v: 1, type: 'away', reader: 'cat', seenAt: t0 })).toMatchObject({
      skipped: 'returned',
    });
    expect(deps.relations.away.size).toBe(0);
  });

  it('an active reader never regenerates and gets fan-out as usual', async () => {
    const deps = fakeFeed('amy', 'bob');
    await follow(deps, 'bob', 'amy');
    await homeTimeline(deps, 'bob', 20, undefined, 1_000);
    const { post } = await publishPost(deps, 'amy', { body: 'hi' }, 2_000);
    for (const msg of deps.queue.sent.splice(0)) await handleFanoutMessage(deps, msg);
    expect(deps.inbox.entries('bob')).toEqual([post.id]);
    expect((await homeTimeline(deps, 'bob', 20, undefined, 4_000)).regenerating).toBe(false);
  });
});
