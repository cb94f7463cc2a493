// test/integration/hot.test.ts — the hot feed (热门微博) on the real HBase adapters: likes,
// comments and reposts filed by the worker (one cell per person, post and hour), the ranking job
// (jobs/rank-hot.ts) ordering by distinct people, and the feed's read leaving out a deleted post,
// an account that left and, for the blocker, a blocked author; invariant W (docs/consistency.md)
// with its races forced (test/support/interleave.ts). The rules themselves: test/unit/hot.test.ts.
import { describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { block } from '../../shared/use-cases/blocks.js';
import { addComment } from '../../shared/use-cases/comments.js';
import { listHot } from '../../shared/use-cases/hot.js';
import { rankHot } from '../../shared/use-cases/jobs/rank-hot.js';
import { likePost, unlikePost } from '../../shared/use-cases/likes.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { repost } from '../../shared/use-cases/reposts.js';
import { hotBucketOf, hotBucketsAt } from '../../shared/domain/hot.js';
import { userFactory, feedWorld } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_hot_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const { stores, gate, queued, deps } = feedWorld(hbase, ns);
useNamespace(hbase, ns);
const users = userFactory(stores.users);

/** Runs every queued message through the worker, as the fan-out function would (delayed ones too). */
async function drain() {
  while (queued.length > 0) await handleFanoutMessage(deps, queued.shift()!);
}

describe('the hot feed (热门)', () => {
  it('ranks by distinct people; a deleted post, an account that left and a blocked author are left out', async () => {
    const [ann, bob, cat, dan, eve, fay] = await users('ann', 'bob', 'cat', 'dan', 'eve', 'fay');
    // Every engagement in one hour, so one person's two engagements are one cell.
    let t = Date.now() - 30_000;
    if (hotBucketOf(t) !== hotBucketOf(t + 20_000)) t -= 20_000;
    const post = async (author: string, body: string) => (await publishPost(deps, author, { body }, t++)).post;
    const top = await post(ann, 'the most engaged');
    const second = await post(bob, 'three people');
    const gone = await post(cat, 'deleted later');
    const leaver = await post(dan, 'its author leaves');
    // top: bob likes, cat comments, dan reposts, eve likes AND comments = 4 people.
    await likePost(deps, bob, top.id, t++);
    await addComment(deps, cat, top.id, { body: 'nice' }, t++);
    await repost(deps, dan, top.id, {}, t++);
    await likePost(deps, eve, top.id, t++);
    await addComment(deps, eve, top.id, { body: 'again' }, t++);
    for (const who of [ann, cat, dan]) await likePost(deps, who, second.id, t++);
    for (const who of [ann, bob, dan, eve]) await likePost(deps, who, gone.id, t++);
    for (const who of [ann, bob, cat]) await likePost(deps, who, leaver.id, t++);
    await drain();

    // One cell per person and post (eve's like and comment are one).
    const filed = await stores.hot.engagements(hotBucketsAt(t));
    expect(
      filed
        .filter((e) => e.postId === top.id)
        .map((e) => e.handle)
        .sort(),
    ).toEqual([bob, cat, dan, eve].sort());
    expect(filed).toHaveLength(14);

    await deletePost(deps, cat, gone.id, t++);
    await drain();
    const ranked = await rankHot(deps, t++);
    expect(ranked).toMatchObject({ posts: 3, engagements: 14, dropped: 1 });
    expect(ranked.ranking.posts.map((p) => [p.id, p.people])).toEqual([
      [top.id, 4],
      [leaver.id, 3],
      [second.id, 3],
    ]);
    expect(await stores.hot.ranking()).toEqual(ranked.ranking);

    // dan leaves: the read drops his post (a container whose face cache never held him).
    expect(await stores.users.deactivate(dan, t++, 'e1')).toBe(true);
    const fresh = { ...deps, feedFaces: undefined };
    const page = await listHot(fresh, 20, undefined, undefined, { cache: {} });
    expect(page.items.map((p) => p.id)).toEqual([top.id, second.id]);
    expect(page.rankedAt).toBe(ranked.ranking.rankedAt);
    // fay blocks bob: his post is not in her feed, in pages of one.
    await block(deps, fay, bob, t++);
    const first = await listHot(fresh, 1, undefined, fay, { cache: {} });
    expect(first.items.map((p) => p.id)).toEqual([top.id]);
    const rest = await listHot(fresh, 1, first.nextCursor, fay, { cache: {} });
    expect(rest.items.map((p) => p.id)).toEqual([]);
  });

  it('a post deleted after the ranking is not shown; redelivered and late messages count a person once', async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    let t = Date.now() - 30_000;
    if (hotBucketOf(t) !== hotBucketOf(t + 20_000)) t -= 20_000;
    const kept = (await publishPost(deps, ann, { body: 'kept' }, t++)).post;
    const doomed = (await publishPost(deps, bob, { body: 'deleted after the ranking' }, t++)).post;
    for (const who of [bob, cat, dan]) await likePost(deps, who, kept.id, t++);
    for (const who of [ann, cat, dan]) await likePost(deps, who, doomed.id, t++);
    const messages = [...queued];
    await drain();
    // Every message delivered again, last first: the same cells, nobody counted twice.
    for (const m of messages.toReversed()) await handleFanoutMessage(deps, m);
    // (The namespace holds the other tests' posts too: only these two are looked at.)
    const ours = (ids: string[]) => ids.filter((id) => id === kept.id || id === doomed.id);
    const filed = await stores.hot.engagements(hotBucketsAt(t));
    expect(ours(filed.map((e) => e.postId))).toHaveLength(6);
    const ranked = await rankHot(deps, t++);
    expect(ranked.ranking.posts.filter((p) => ours([p.id]).length > 0).map((p) => [p.id, p.people])).toEqual([
      [doomed.id, 3],
      [kept.id, 3],
    ]);
    await deletePost(deps, bob, doomed.id, t++);
    const page = await listHot(deps, 50, undefined, undefined, { cache: {} });
    expect(ours(page.items.map((p) => p.id))).toEqual([kept.id]);
    await drain();
  });

  it('an unlike between its like delivery’s truth read and its write: the person stays counted, the unlike adds nothing', async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    const t = Date.now() - 1000;
    const post = (await publishPost(deps, ann, { body: 'liked and unliked' }, t)).post;
    for (const who of [bob, cat]) await likePost(deps, who, post.id, t + 1);
    await drain();
    await likePost(deps, dan, post.id, t + 2);
    // The like's immediate notify (the one without a tally) held after it read the like as true.
    const notify = queued.find((m) => m.type === 'notify' && !m.tally && m.fact.actor === dan)!;
    queued.splice(queued.indexOf(notify), 1);
    const held = gate.holdAt('notify.truth-read', (d) => d.actor === dan);
    const delivery = handleFanoutMessage(deps, notify);
    await held.reached;
    await unlikePost(deps, dan, post.id, t + 3);
    await drain(); // the unlike's messages and the like's delayed one: the like no longer holds
    expect((await stores.hot.engagements(hotBucketsAt(t + 4))).filter((e) => e.handle === dan)).toEqual([]);
    held.release();
    await delivery;
    // Counted: dan did engage. Once, however often the messages run again.
    await handleFanoutMessage(deps, notify);
    const mine = (await stores.hot.engagements(hotBucketsAt(t + 4))).filter((e) => e.postId === post.id);
    expect(mine.map((e) => e.handle).sort()).toEqual([bob, cat, dan].sort());
  });
});
