// test/unit/social.test.ts — the rules of mentions, notifications, topics, blocks and mutes, on
// in-memory fakes of the ports (test/support/fakes/feed.ts, social.ts). The same operations
// run on HBase in test/integration/social.test.ts and over HTTP in test/e2e/social.test.ts.
import { describe, expect, it } from 'vitest';
import {
  changedGroup,
  EMPTY_GROUP,
  noticesOf,
  parseGroupKey,
  type NotificationFact,
} from '../../shared/domain/notification.js';
import { block, mute, unblock } from '../../shared/use-cases/blocks.js';
import { addComment } from '../../shared/use-cases/comments.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { likePost, unlikePost } from '../../shared/use-cases/likes.js';
import { listNotifications, markNotificationsRead, unreadCount } from '../../shared/use-cases/notifications.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { listTopicPosts, requireTopic } from '../../shared/use-cases/topics.js';
import { drain, fakeFeed } from '../support/fakes/feed.js';
import { GROUP_WINDOW_MS } from '../../shared/domain/limits.js';

const T = 1_795_000_000_000;

const shown = async (deps: ReturnType<typeof fakeFeed>, who: string) =>
  (await listNotifications(deps, who, 50)).items.map(
    (n) => `${n.type}:${n.count}:${n.actors.map((a) => a.handle).join(',')}`,
  );

describe('who a fact notifies', () => {
  it('never the actor; a reply to the post author’s comment once (as a reply); mentions once per person', () => {
    const fact: NotificationFact = {
      kind: 'comment',
      actor: 'bob',
      postId: 'ann.1.aaaaaaaaaaaa',
      commentId: '0000000000001-aaaaaaaa',
      since: T,
      replyTo: 'ann',
      mentions: ['ann', 'bob', 'cat', 'cat'],
    };
    expect(noticesOf(fact).map((n) => `${n.recipient}:${n.type}`)).toEqual(['ann:reply', 'cat:mention']);
    expect(noticesOf({ kind: 'like', actor: 'ann', postId: 'ann.1.aaaaaaaaaaaa', since: T })).toEqual([]);
  });

  it('groups likes, reposts and follows by 12-hour window of the fact; comments are groups of one', () => {
    const like = (since: number) =>
      noticesOf({ kind: 'like', actor: 'bob', postId: 'ann.1.aaaaaaaaaaaa', since })[0]!.groupKey;
    const start = Math.floor(T / GROUP_WINDOW_MS) * GROUP_WINDOW_MS;
    expect(like(start)).toBe(like(start + GROUP_WINDOW_MS - 1));
    expect(like(start)).not.toBe(like(start + GROUP_WINDOW_MS));
    expect(parseGroupKey(like(start))).toEqual({ type: 'like', postId: 'ann.1.aaaaaaaaaaaa' });
    expect(parseGroupKey('comment/ann.1.aaaaaaaaaaaa/0000000000001-aaaaaaaa')).toEqual({
      type: 'comment',
      postId: 'ann.1.aaaaaaaaaaaa',
      commentId: '0000000000001-aaaaaaaa',
    });
    expect(parseGroupKey('nonsense/x')).toBeNull();
  });
});

describe('a group’s one state', () => {
  it('a repost’s member is the reposter (a group counts people) and its instance the repost', () => {
    const [n] = noticesOf({
      kind: 'repost',
      actor: 'bob',
      postId: 'bob.5.bbbbbbbbbbbb',
      original: 'ann.1.aaaaaaaaaaaa',
      since: T,
    });
    expect([n!.member, n!.instance]).toEqual(['bob', 'bob.5.bbbbbbbbbbbb']);
  });

  it('moves count, place and names together; a redelivery changes nothing; a leave takes the name; the clock only moves forward', () => {
    const bob = changedGroup(EMPTY_GROUP, { kind: 'join', member: 'bob', at: 100, count: 1 }, 5_000)!;
    expect(bob).toEqual({ count: 1, at: 100, latest: [['bob', 100]], clock: 5_000 });
    expect(changedGroup(bob, { kind: 'join', member: 'bob', at: 100, count: 0 }, 6_000)).toBeNull();
    // An older fact of a member already named (a late delivery) neither ages the name nor moves the place.
    expect(changedGroup(bob, { kind: 'join', member: 'bob', at: 50, count: 0 }, 6_000)).toBeNull();
    const cat = changedGroup(bob, { kind: 'join', member: 'cat', at: 90, count: 1 }, 4_000)!; // a clock behind: still forward
    expect(cat).toEqual({
      count: 2,
      at: 100,
      latest: [
        ['bob', 100],
        ['cat', 90],
      ],
      clock: 5_001,
    });
    expect(changedGroup(cat, { kind: 'leave', member: 'bob', count: -1 }, 7_000)).toEqual({
      count: 1,
      at: 100,
      latest: [['cat', 90]],
      clock: 7_000,
    });
    // One of a member's facts gone while another lives: the member stays, nothing moves.
    expect(changedGroup(cat, { kind: 'leave', member: 'bob', count: 0 }, 7_000)).toBeNull();
    // A late leave of a member whose other, newer fact the group had not counted yet: up, name kept.
    expect(changedGroup(cat, { kind: 'leave', member: 'bob', count: 1 }, 7_000)).toEqual({
      count: 3,
      at: 100,
      latest: [
        ['bob', 100],
        ['cat', 90],
      ],
      clock: 7_000,
    });
  });
});

describe('mentions at write time', () => {
  it('link registered users only; unknown handles stay plain text', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: '@bob @ghost @Bob' }, T);
    expect(post.mentions).toEqual([
      { handle: 'bob', start: 0, end: 4 },
      { handle: 'bob', start: 12, end: 16 },
    ]);
  });
});

describe('notifications', () => {
  it('like → grouped with an exact count; unlike takes it back; a later window opens a new group', async () => {
    const deps = fakeFeed('ann', 'bob', 'cat');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await likePost(deps, 'bob', post.id, T + 1);
    await likePost(deps, 'cat', post.id, T + 2);
    await drain(deps);
    expect(await shown(deps, 'ann')).toEqual(['like:2:cat,bob']);
    await unlikePost(deps, 'cat', post.id, T + 3);
    await drain(deps);
    expect(await shown(deps, 'ann')).toEqual(['like:1:bob']);
    await likePost(deps, 'cat', post.id, T + GROUP_WINDOW_MS);
    await drain(deps);
    expect(await shown(deps, 'ann')).toEqual(['like:1:cat', 'like:1:bob']);
  });

  it('each fact is queued twice: delayed by the settle window before the write, and at once after it', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await drain(deps);
    await likePost(deps, 'bob', post.id, T + 1);
    expect(deps.queue.sent.map((m) => m.type)).toEqual(['notify', 'notify']);
    expect(deps.queue.delays).toEqual([deps.limits.settleSeconds, 0]);
  });

  it('unread counts groups after the marker; mark-read moves it forward only', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await follow(deps, 'bob', 'ann', T + 1);
    await likePost(deps, 'bob', post.id, T + 2);
    await drain(deps);
    expect(await unreadCount(deps, 'ann')).toEqual({ count: 2, capped: false });
    const [newest, older] = (await listNotifications(deps, 'ann', 10)).items;
    await markNotificationsRead(deps, 'ann', newest!.id, T + 10);
    expect(await unreadCount(deps, 'ann')).toEqual({ count: 0, capped: false });
    expect((await markNotificationsRead(deps, 'ann', older!.id, T + 10)).readUpTo).toBe(T + 2);
    await expect(markNotificationsRead(deps, 'ann', 'not-an-id')).rejects.toMatchObject({
      code: 'invalid_notification_id',
    });
  });

  it('none from a muted or blocked user, none about a deleted post', async () => {
    const deps = fakeFeed('ann', 'bob', 'cat');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await mute(deps, 'ann', 'cat', T);
    await likePost(deps, 'cat', post.id, T + 1);
    await addComment(deps, 'bob', post.id, { body: 'hi' }, T + 2);
    await drain(deps);
    expect(await shown(deps, 'ann')).toEqual(['comment:1:bob']);
    await deletePost(deps, 'ann', post.id, T + 3);
    await drain(deps);
    expect(await shown(deps, 'ann')).toEqual([]);
  });
});

describe('blocks and mutes', () => {
  it('a block removes follows both ways and refuses the blocked side; unblock restores nothing but the right to act', async () => {
    const deps = fakeFeed('ann', 'bob');
    const { post } = await publishPost(deps, 'ann', { body: 'p' }, T);
    await follow(deps, 'bob', 'ann', T);
    await block(deps, 'ann', 'bob', T + 1);
    expect(await deps.relations.isFollowing('bob', 'ann')).toBe(false);
    await expect(follow(deps, 'bob', 'ann', T + 2)).rejects.toMatchObject({ code: 'blocked' });
    await expect(likePost(deps, 'bob', post.id, T + 2)).rejects.toMatchObject({ code: 'blocked' });
    await expect(block(deps, 'ann', 'ann')).rejects.toMatchObject({ code: 'cannot_block_self' });
    await unblock(deps, 'ann', 'bob');
    expect(await deps.relations.isFollowing('bob', 'ann')).toBe(false);
    await likePost(deps, 'bob', post.id, T + 3);
  });

  it('a mute hides the muted user’s posts and reposts of them from the muter only', async () => {
    const deps = fakeFeed('ann', 'bob', 'cat');
    await follow(deps, 'ann', 'bob', T);
    await follow(deps, 'ann', 'cat', T);
    await follow(deps, 'bob', 'ann', T);
    await drain(deps);
    const { post: pb } = await publishPost(deps, 'bob', { body: 'bob' }, T + 1);
    const { post: pa } = await publishPost(deps, 'ann', { body: 'ann' }, T + 2);
    await drain(deps);
    await mute(deps, 'ann', 'bob', T + 3);
    expect((await homeTimeline(deps, 'ann', 10, undefined, T + 4)).items.map((p) => p.id)).toEqual([pa.id]);
    expect((await homeTimeline(deps, 'bob', 10, undefined, T + 4)).items.map((p) => p.id)).toEqual([pa.id, pb.id]);
  });
});

describe('topics', () => {
  it('normalise names and list public posts newest first; invalid names are 422', async () => {
    const deps = fakeFeed('ann');
    const { post: p1 } = await publishPost(deps, 'ann', { body: '#Hello World# one' }, T);
    const { post: p2 } = await publishPost(deps, 'ann', { body: '＃ＨＥＬＬＯ　ＷＯＲＬＤ＃ two' }, T + 1);
    expect(requireTopic('HELLO  world')).toBe('hello world');
    expect((await listTopicPosts(deps, 'Hello World', 10)).items.map((p) => p.id)).toEqual([p2.id, p1.id]);
    expect(() => requireTopic('a/b')).toThrow(expect.objectContaining({ code: 'invalid_topic' }));
  });
});
