// test/integration/comment-likes.test.ts — likes of a comment on the real HBase (invariant E2 in
// docs/consistency.md): the liker's cell and the count move in one check-and-put on the likes'
// state read, so they never disagree; a like held after its read while other changes land
// fails its swap and reads again; a like held while the comment is deleted ends 404 with
// nothing left behind. Races are forced in one exact order (test/support/interleave.ts). The
// comment's author is told, and an unlike takes it back.
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { NotFoundError } from '../../shared/domain/errors.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { likeComment, unlikeComment } from '../../shared/use-cases/comment-likes.js';
import { addComment, deleteComment, listComments } from '../../shared/use-cases/comments.js';
import { listNotifications } from '../../shared/use-cases/notifications.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { drainQueue, userFactory, feedWorld } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_clike_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const { stores, gate, queued, deps } = feedWorld(hbase, ns);
useNamespace(hbase, ns);
beforeEach(() => {
  queued.length = 0;
});
const users = userFactory(stores.users);

/** ann's post with bob's comment on it. */
async function aComment(): Promise<{
  ann: string;
  bob: string;
  carol: string;
  dan: string;
  postId: string;
  id: string;
}> {
  const [ann, bob, carol, dan] = await users('ann', 'bob', 'carol', 'dan');
  const postId = (await publishPost(deps, ann, { body: 'a post' })).post.id;
  const { id } = await addComment(deps, bob, postId, { body: 'a comment worth a like' });
  return { ann, bob, carol, dan, postId, id };
}

/** The comment's likes as the list shows them to `reader`. */
async function shown(postId: string, id: string, reader: string) {
  const page = await listComments(deps, postId, 'newest', 20, undefined, reader);
  return page.items.find((c) => c.id === id)?.likes;
}

describe('comment likes (E2): count and likers move together', () => {
  it('like and unlike are idempotent; the count and "liked by me" come with the list', async () => {
    const { carol, dan, postId, id } = await aComment();
    expect(await likeComment(deps, carol, postId, id)).toEqual({ liked: true, count: 1 });
    expect(await likeComment(deps, carol, postId, id)).toEqual({ liked: true, count: 1 });
    await likeComment(deps, dan, postId, id);
    expect(await shown(postId, id, carol)).toEqual({ count: 2, liked: true });
    expect(await unlikeComment(deps, carol, postId, id)).toEqual({ liked: false, count: 1 });
    expect(await unlikeComment(deps, carol, postId, id)).toEqual({ liked: false, count: 1 });
    expect(await shown(postId, id, carol)).toEqual({ count: 1, liked: false });
    expect(await shown(postId, id, dan)).toEqual({ count: 1, liked: true });
  });

  it('a like held after its read while the same user likes and another unlikes: its swap fails, it reads again, the count stays exact', async () => {
    const { carol, dan, postId, id } = await aComment();
    await likeComment(deps, dan, postId, id); // count 1
    // carol's first like reads "carol: no like, count 1" and waits before its swap.
    const held = gate.holdAt('comment-like.read', (d) => d.actor === carol);
    const first = likeComment(deps, carol, postId, id);
    await held.reached;
    // In the gap: carol's retry likes (2), dan unlikes (1). The count is 1 again, as first read it;
    // a swap checked on the count alone would now land and count carol twice.
    await likeComment(deps, carol, postId, id);
    await unlikeComment(deps, dan, postId, id);
    expect(await shown(postId, id, carol)).toEqual({ count: 1, liked: true });
    held.release();
    expect(await first).toEqual({ liked: true, count: 1 });
    expect(await shown(postId, id, carol)).toEqual({ count: 1, liked: true });
    expect(await shown(postId, id, dan)).toEqual({ count: 1, liked: false });
  });

  it('an unlike held after its read while the like is taken back and given again: it takes back the like that holds now', async () => {
    const { carol, postId, id } = await aComment();
    await likeComment(deps, carol, postId, id);
    const held = gate.holdAt('comment-unlike.read', (d) => d.actor === carol);
    const first = unlikeComment(deps, carol, postId, id);
    await held.reached;
    await unlikeComment(deps, carol, postId, id);
    await likeComment(deps, carol, postId, id, Date.now() + 1);
    held.release();
    expect(await first).toEqual({ liked: false, count: 0 });
    expect(await shown(postId, id, carol)).toEqual({ count: 0, liked: false });
  });

  it('a like held after it read the comment live, while the comment is deleted: 404, and no notification', async () => {
    const { ann, bob, carol, postId, id } = await aComment();
    await drainQueue(deps, queued);
    const held = gate.holdAt('comment-like.read', (d) => d.actor === carol);
    const like = likeComment(deps, carol, postId, id);
    await held.reached;
    await deleteComment(deps, ann, postId, id);
    held.release();
    await expect(like).rejects.toMatchObject({ code: 'comment_not_found' });
    await expect(like).rejects.toBeInstanceOf(NotFoundError);
    // Nothing the like wrote: the comment's likes read as gone, and bob is told of nothing.
    expect(await stores.comments.likeState(postId, id, carol)).toBeNull();
    await drainQueue(deps, queued);
    const told = await listNotifications(deps, bob, 20);
    expect(told.items.filter((n) => n.type === 'commentLike')).toEqual([]);
    // A like of the deleted comment now: 404 at once.
    await expect(likeComment(deps, carol, postId, id)).rejects.toMatchObject({ code: 'comment_not_found' });
  });

  it('a deleted comment, whose likes’ cells stay on its row, never takes a slot of a page', async () => {
    const [ann, bob, carol] = await users('ann', 'bob', 'carol');
    const postId = (await publishPost(deps, ann, { body: 'a post' })).post.id;
    const older = await addComment(deps, bob, postId, { body: 'older' }, Date.now() - 1000);
    const newer = await addComment(deps, bob, postId, { body: 'newer' });
    await likeComment(deps, carol, postId, newer.id);
    await deleteComment(deps, bob, postId, newer.id);
    const page = await listComments(deps, postId, 'newest', 1, undefined, carol);
    expect(page.items.map((c) => c.id)).toEqual([older.id]);
  });

  it('the comment’s author is told (grouped per comment, with its words), and an unlike takes it back', async () => {
    const { bob, carol, dan, postId, id } = await aComment();
    await likeComment(deps, carol, postId, id);
    await likeComment(deps, dan, postId, id);
    await drainQueue(deps, queued);
    const told = (await listNotifications(deps, bob, 20, undefined, 'likes')).items;
    expect(told.map((n) => [n.type, n.count, n.comment?.id, n.comment?.body])).toEqual([
      ['commentLike', 2, id, 'a comment worth a like'],
    ]);
    await unlikeComment(deps, carol, postId, id);
    await unlikeComment(deps, dan, postId, id);
    await drainQueue(deps, queued);
    expect((await listNotifications(deps, bob, 20)).items.filter((n) => n.type === 'commentLike')).toEqual([]);
  });
});
