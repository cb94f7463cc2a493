// test/integration/cut-heal.test.ts — invariant M on the real stack: a publish, delete, like, unlike, comment,
// comment delete, repost, repost delete, follow and unfollow CUT after each of its writes (the
// step hook throws there, as a Lambda timeout stops a function) leaves every count right once
// the operation's own delayed message has run (the delayed notify, or the settle) — within the
// settle window, not at the next repair run. And no delivery counts anything twice: not a
// repeated one, not two at once, not one racing a removal still in flight.
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { settleFactTally } from '../../shared/use-cases/background/tally.js';
import { addComment, deleteComment, listComments } from '../../shared/use-cases/comments.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { likePost, unlikePost } from '../../shared/use-cases/likes.js';
import { listNotifications } from '../../shared/use-cases/notifications.js';
import { deletePost, getPost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, unfollow } from '../../shared/use-cases/relations.js';
import { repost } from '../../shared/use-cases/reposts.js';
import type { StepPoint } from '../../shared/use-cases/steps.js';
import { integrationLimits, userFactory } from '../support/feed-harness.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_cut_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const stores = hbaseFeedStores(hbase, ns);
const gate = interleaver();
const queued: FanoutMessage[] = [];
let cut: StepPoint | undefined;
const deps: FeedDeps = {
  ...stores,
  queue: { send: async (m) => void queued.push(m) },
  limits: { ...integrationLimits },
  // A cut point throws, as a function stopped at its timeout; the interleaver holds the others.
  step: async (point, detail) => {
    if (point === cut) throw new Error(`cut at ${point}`);
    await gate.hook(point, detail);
  },
};

useNamespace(hbase, ns);
beforeEach(() => {
  queued.length = 0;
  cut = undefined;
});
const users = userFactory(stores.users);

/** Runs `op` stopped at `point`: it must have been cut there. */
async function cutAt(point: StepPoint, op: () => Promise<unknown>): Promise<void> {
  cut = point;
  await expect(op()).rejects.toThrow(`cut at ${point}`);
  cut = undefined;
}

/** The delayed messages that tally (the settle window has passed): taken out of the queue. */
function delayed(): FanoutMessage[] {
  const out = queued.filter((m) => (m.type === 'notify' || m.type === 'settle') && m.tally);
  queued.length = 0;
  return out;
}

/** What the settle window brings: every delayed message of the operations so far, delivered. */
async function settleWindow(): Promise<void> {
  for (const m of delayed()) await handleFanoutMessage(deps, m);
}

const counts = async (id: string) => (await stores.posts.get(id))!.counts;
const follows = async (user: string) => ({
  following: await stores.counters.get(user, 'following'),
  followers: await stores.counters.get(user, 'followers'),
});

describe('M: a like or unlike cut after any of its writes', () => {
  it('cut after the truth, before the count: the delayed notify counts it once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('like.won', () => likePost(deps, bob, post.id));
    expect(await counts(post.id)).toMatchObject({ likes: 0 });
    const messages = delayed();
    for (const m of [...messages, ...messages]) await handleFanoutMessage(deps, m); // redelivered too
    expect(await counts(post.id)).toMatchObject({ likes: 1 });
  });

  it('cut after the entry, before the truth: nothing to count, and nothing is', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('like.listed', () => likePost(deps, bob, post.id));
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ likes: 0 });
  });

  it('not cut: the delayed notify finds the count tallied and adds nothing', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await likePost(deps, bob, post.id);
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ likes: 1 });
  });

  it('an unlike cut after its truth delete, before the count: its delayed notify takes the like off once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await likePost(deps, bob, post.id);
    queued.length = 0;
    await cutAt('unlike.won', () => unlikePost(deps, bob, post.id));
    expect(await counts(post.id)).toMatchObject({ likes: 1 });
    const messages = delayed();
    await Promise.all([...messages, ...messages].map((m) => handleFanoutMessage(deps, m))); // two at once
    expect(await counts(post.id)).toMatchObject({ likes: 0 });
  });

  it('a like and then its unlike, both cut before their counts: the two deliveries leave 0', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('like.won', () => likePost(deps, bob, post.id));
    await cutAt('unlike.won', () => unlikePost(deps, bob, post.id));
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ likes: 0 });
  });

  it('the like’s delivery while an unlike is between its truth delete and its count: no −1 twice', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await likePost(deps, cat, post.id); // a like that stays: a count shown is never below 0
    await likePost(deps, bob, post.id);
    const likeMessages = delayed();
    const held = gate.holdAt('unlike.won', (d) => d.actor === bob);
    const unliking = unlikePost(deps, bob, post.id);
    await held.reached;
    for (const m of likeMessages) await handleFanoutMessage(deps, m); // the like's own delivery, late
    held.release();
    await unliking;
    await settleWindow(); // and the unlike's
    expect(await counts(post.id)).toMatchObject({ likes: 1 });
  });

  it('two deliveries of one cut like judged at once: exactly one applies it (the claim)', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('like.won', () => likePost(deps, bob, post.id));
    const [message] = delayed().filter((m) => m.type === 'notify' && m.fact.kind === 'like');
    const first = gate.holdAt('tally.judged');
    const second = gate.holdAt('tally.judged');
    const both = Promise.all([handleFanoutMessage(deps, message!), handleFanoutMessage(deps, message!)]);
    await Promise.all([first.reached, second.reached]); // both found the +1 owed
    first.release();
    second.release();
    await both;
    expect(await counts(post.id)).toMatchObject({ likes: 1 });
  });

  it('a delivery cut while holding its claim: the next one waits out the settle window, takes the claim over and applies it once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('like.won', () => likePost(deps, bob, post.id));
    const message = delayed().find((m) => m.type === 'notify' && m.fact.kind === 'like')!;
    if (message.type !== 'notify' || !message.tally) throw new Error('no delayed notify');
    await cutAt('tally.claimed', () => handleFanoutMessage(deps, message));
    const now = Date.now();
    // Within the window the claim is its holder's, who may still be running: nothing is applied.
    expect(await settleFactTally(deps, message.fact, message.tally, now)).toEqual({ applied: 0 });
    expect(await counts(post.id)).toMatchObject({ likes: 0 });
    // Past it the holder has timed out: the claim is taken over, once.
    const later = now + deps.limits.settleSeconds * 1000 + 1;
    expect(await settleFactTally(deps, message.fact, message.tally, later)).toEqual({ applied: 1 });
    expect(await settleFactTally(deps, message.fact, message.tally, later + 1)).toEqual({ applied: 0 });
    expect(await counts(post.id)).toMatchObject({ likes: 1 });
  });
});

describe('M: a comment or its delete cut before the count', () => {
  it('a comment cut after its row: counted once by its delayed notify', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('comment.created', () => addComment(deps, bob, post.id, { body: 'hi' }));
    expect(await counts(post.id)).toMatchObject({ comments: 0 });
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ comments: 1 });
  });

  it('a delete cut after its tombstone: uncounted once; a completed comment is not counted again', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    const comment = await addComment(deps, bob, post.id, { body: 'hi' });
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ comments: 1 });
    await cutAt('comment.deleted', () => deleteComment(deps, bob, post.id, comment.id));
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ comments: 0 });
  });

  it('a delete cut after its content went, before its tombstone: deleted for every read at once, a retry answers 404, uncounted once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    const comment = await addComment(deps, bob, post.id, { body: 'hi' });
    await settleWindow();
    await cutAt('comment.emptied', () => deleteComment(deps, bob, post.id, comment.id));
    expect((await listComments(deps, post.id, 'newest', 10)).items).toEqual([]);
    expect((await listComments(deps, post.id, 'oldest', 10)).items).toEqual([]);
    expect((await stores.comments.writtenBy(bob, 10)).items).toEqual([]);
    await expect(deleteComment(deps, bob, post.id, comment.id)).rejects.toMatchObject({ code: 'comment_not_found' });
    const messages = delayed();
    for (const m of [...messages, ...messages]) await handleFanoutMessage(deps, m);
    expect(await counts(post.id)).toMatchObject({ comments: 0 });
    expect((await listNotifications(deps, ann, 10)).items).toEqual([]);
  });
});

describe('M: a publish or a delete cut before its author’s posts count', () => {
  const posts = (user: string) => stores.counters.get(user, 'posts');

  it('a publish cut after its post row: counted once by its delayed notify, however often delivered', async () => {
    const [ann] = await users('ann');
    await cutAt('publish.created', () => publishPost(deps, ann, { body: 'p' }));
    expect(await posts(ann)).toBe(0);
    const messages = delayed();
    for (const m of [...messages, ...messages]) await handleFanoutMessage(deps, m);
    expect(await posts(ann)).toBe(1);
  });

  it('a delete cut after its tombstone: uncounted once; a whole publish is not counted again', async () => {
    const [ann] = await users('ann');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await settleWindow();
    expect(await posts(ann)).toBe(1);
    await cutAt('delete.won', () => deletePost(deps, ann, post.id));
    expect(await posts(ann)).toBe(1);
    const messages = delayed();
    for (const m of [...messages, ...messages]) await handleFanoutMessage(deps, m);
    expect(await posts(ann)).toBe(0);
  });

  it('a repost cut after its post row: its reposter’s count too', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('publish.created', () => repost(deps, bob, post.id, { comment: 'yes' }));
    expect(await posts(bob)).toBe(0);
    await settleWindow();
    expect(await posts(bob)).toBe(1);
  });
});

describe('M: a repost or its delete cut before the count', () => {
  it('a plain repost cut after its post row: the original counts it once, and its reposter sees it reposted', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('publish.created', () => repost(deps, bob, post.id, {}));
    expect(await counts(post.id)).toMatchObject({ reposts: 0 });
    expect(await getPost(deps, post.id, bob)).toMatchObject({ viewer: { reposted: false } });
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ reposts: 1 });
    expect(await getPost(deps, post.id, bob)).toMatchObject({ viewer: { reposted: true } });
  });

  it('a plain repost cut after its post row, then retried: the retry finishes it — in its reposter’s timeline, fanned out — and counts nothing twice', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('publish.created', () => repost(deps, bob, post.id, {}));
    const before = queued.length;
    const retried = await repost(deps, bob, post.id, {});
    expect(retried.replayed).toBe(true);
    expect((await homeTimeline(deps, bob, 10)).items.map((i) => i.id)).toContain(retried.post.id);
    expect(queued.slice(before)).toContainEqual({ v: 1, type: 'fanout', postId: retried.post.id });
    expect(await getPost(deps, post.id, bob)).toMatchObject({ viewer: { reposted: true } });
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ reposts: 1 });
  });

  it('a plain repost cut after its claim, before its post row: nothing counted; a retry makes it and counts it once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await cutAt('repost.claimed', () => repost(deps, bob, post.id, {}));
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ reposts: 0 });
    const retried = await repost(deps, bob, post.id, {});
    await settleWindow();
    expect(retried.replayed).toBe(false);
    expect(await counts(post.id)).toMatchObject({ reposts: 1 });
  });

  it('a repost with words, its delete cut after the tombstone: uncounted once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    const made = await repost(deps, bob, post.id, { comment: 'look' });
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ reposts: 1 });
    await cutAt('delete.won', () => deletePost(deps, bob, made.post.id));
    expect(await counts(post.id)).toMatchObject({ reposts: 1 });
    await settleWindow();
    expect(await counts(post.id)).toMatchObject({ reposts: 0 });
  });
});

describe('M: a follow or unfollow cut before its counts', () => {
  it('a follow cut after its edge: the settle counts both sides once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await cutAt('follow.edge-written', () => follow(deps, ann, bob));
    expect([await follows(ann), await follows(bob)]).toEqual([
      { following: 0, followers: 0 },
      { following: 0, followers: 0 },
    ]);
    const messages = delayed();
    for (const m of [...messages, ...messages]) await handleFanoutMessage(deps, m);
    expect([await follows(ann), await follows(bob)]).toEqual([
      { following: 1, followers: 0 },
      { following: 0, followers: 1 },
    ]);
  });

  it('an unfollow cut after the edge is gone: the settle takes both sides off once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await follow(deps, ann, bob);
    await settleWindow();
    await cutAt('unfollow.edge-removed', () => unfollow(deps, ann, bob));
    expect((await follows(ann)).following).toBe(1);
    await settleWindow();
    expect([await follows(ann), await follows(bob)]).toEqual([
      { following: 0, followers: 0 },
      { following: 0, followers: 0 },
    ]);
  });
});

describe('M: two unfollows racing a follow', () => {
  it('an unfollow that read no edge leaves a later follow alone; the unfollow that read it takes it off once, settle included', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    // Counts above 0, so a second decrement shows (a count is never read below 0).
    await follow(deps, ann, cat);
    await follow(deps, cat, bob);
    await settleWindow();
    const first = gate.holdAt('unfollow.edge-read');
    const blind = unfollow(deps, ann, bob); // reads no edge
    await first.reached;
    await follow(deps, ann, bob);
    const second = gate.holdAt('unfollow.edge-read');
    const reading = unfollow(deps, ann, bob); // reads the follow's edge
    await second.reached;
    first.release();
    await blind;
    expect(await stores.relations.isFollowing(ann, bob)).toBe(true);
    second.release();
    await reading;
    await settleWindow();
    expect(await stores.relations.isFollowing(ann, bob)).toBe(false);
    expect([await follows(ann), await follows(bob)]).toEqual([
      { following: 1, followers: 0 },
      { following: 0, followers: 1 },
    ]);
  });
});

describe('F under a cut: a notify delivery stopped between its member and its group', () => {
  it('the group shows the like once the delayed half has run', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await likePost(deps, bob, post.id);
    const immediate = queued.filter((m) => m.type === 'notify' && !m.tally);
    const later = delayed();
    for (const m of immediate) await cutAt('notify.member-written', () => handleFanoutMessage(deps, m));
    expect((await listNotifications(deps, ann, 10)).items).toEqual([]);
    for (const m of later) await handleFanoutMessage(deps, m);
    expect((await listNotifications(deps, ann, 10)).items).toMatchObject([
      { type: 'like', count: 1, actors: [{ handle: bob }] },
    ]);
  });

  it('a retraction cut the same way: the delayed half takes the person out of the count', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    await likePost(deps, bob, post.id);
    await likePost(deps, cat, post.id);
    for (const m of queued.splice(0)) await handleFanoutMessage(deps, m);
    expect((await listNotifications(deps, ann, 10)).items).toMatchObject([{ type: 'like', count: 2 }]);
    await unlikePost(deps, cat, post.id);
    const immediate = queued.filter((m) => m.type === 'notify' && !m.tally);
    const later = delayed();
    for (const m of immediate) await cutAt('notify.member-written', () => handleFanoutMessage(deps, m));
    expect((await listNotifications(deps, ann, 10)).items).toMatchObject([{ type: 'like', count: 2 }]);
    for (const m of later) await handleFanoutMessage(deps, m);
    expect((await listNotifications(deps, ann, 10)).items).toMatchObject([
      { type: 'like', count: 1, actors: [{ handle: bob }] },
    ]);
  });

  it('a like again, cut the same way, while the taken-back like is delivered late: the person is counted once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const { post } = await publishPost(deps, ann, { body: 'p' });
    const t = Date.now();
    await likePost(deps, bob, post.id, t);
    await unlikePost(deps, bob, post.id, t + 1);
    for (const m of queued.filter((m) => m.type === 'notify' && !m.tally)) await handleFanoutMessage(deps, m);
    const earlier = delayed();
    await likePost(deps, bob, post.id, t + 2);
    const again = queued.filter((m) => m.type === 'notify' && !m.tally);
    for (const m of again) await cutAt('notify.member-written', () => handleFanoutMessage(deps, m));
    // The first like's fact, no longer live, now meets a member that counts (the second like's
    // instance) in a group that has not counted it: the count must go up, not down.
    for (const m of [...earlier, ...delayed()]) await handleFanoutMessage(deps, m);
    expect((await listNotifications(deps, ann, 10)).items).toMatchObject([
      { type: 'like', count: 1, actors: [{ handle: bob }] },
    ]);
  });
});
