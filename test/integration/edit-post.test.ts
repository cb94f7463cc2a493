// test/integration/edit-post.test.ts — editing a post (编辑) on the real HBase adapters: the
// version (If-Match), the history, the limits, timelines that need no rewrite, topics moving
// between topic pages and counted once in trending, mentions notified and retracted, and the
// races with a delete and with another edit forced step by step (test/support/interleave.ts;
// invariant B and the edit's paragraph of E in docs/consistency.md).
import { performance } from 'node:perf_hooks';
import { describe, expect, inject, it } from 'vitest';
import { EDIT_WINDOW_MS } from '../../shared/domain/post.js';
import { keyFromPostId } from '../../shared/schema/row-keys.js';
import { HBaseRestClient, type HBaseRequestEvent } from '../../shared/hbase/index.js';
import { trendBucketOf } from '../../shared/domain/trending.js';
import { editPost, postHistory } from '../../shared/use-cases/edit-post.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { listNotifications } from '../../shared/use-cases/notifications.js';
import { deletePost, getPost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { repost } from '../../shared/use-cases/reposts.js';
import { listTopicPosts } from '../../shared/use-cases/topics.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { drainQueue, userFactory, feedWorld } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_edit_${Date.now().toString(36)}`;
const requests: (HBaseRequestEvent & { end: number })[] = [];
const hbase = new HBaseRestClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: (e) => requests.push({ ...e, end: performance.now() }),
});
const { stores, gate, queued, deps } = feedWorld(hbase, ns);
useNamespace(hbase, ns);

const users = userFactory(stores.users);
const post = async (author: string, body: string) => (await publishPost(deps, author, { body })).post;
const topicIds = async (topic: string) => (await listTopicPosts(deps, topic, 20)).items.map((p) => p.id);

describe('editing a post (编辑)', () => {
  it('needs the version (428 without, 412 for an old one), keeps every version newest first, and only the author may', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const p = await post(ann, 'first text');
    await expect(editPost(deps, ann, p.id, { body: 'x', ifMatch: undefined })).rejects.toMatchObject({
      code: 'version_required',
    });
    await expect(editPost(deps, bob, p.id, { body: 'x', ifMatch: 0 })).rejects.toMatchObject({ code: 'forbidden' });
    const edited = await editPost(deps, ann, p.id, { body: 'second text', ifMatch: 0 }, p.createdAt + 1_000);
    expect(edited).toMatchObject({ body: 'second text', version: 1, editedAt: p.createdAt + 1_000 });
    await expect(editPost(deps, ann, p.id, { body: 'lost', ifMatch: 0 })).rejects.toMatchObject({
      code: 'version_mismatch',
    });
    await editPost(deps, ann, p.id, { body: 'third text', ifMatch: 1 }, p.createdAt + 2_000);
    expect((await postHistory(deps, p.id)).map((v) => [v.version, v.body, v.at])).toEqual([
      [2, 'third text', p.createdAt + 2_000],
      [1, 'second text', p.createdAt + 1_000],
      [0, 'first text', p.createdAt],
    ]);
    expect(await getPost(deps, p.id, bob)).toMatchObject({ body: 'third text', version: 2 });
    await expect(editPost(deps, ann, `${ann}.1.0123456789ab`, { body: 'x', ifMatch: 0 })).rejects.toMatchObject({
      code: 'post_not_found',
    });
  });

  it('within 24 hours of publishing and at most 10 times', async () => {
    const [ann] = await users('ann');
    const p = await post(ann, 'v0');
    await expect(
      editPost(deps, ann, p.id, { body: 'late', ifMatch: 0 }, p.createdAt + EDIT_WINDOW_MS + 1),
    ).rejects.toMatchObject({ code: 'edit_window_closed' });
    for (let v = 0; v < 10; v++) await editPost(deps, ann, p.id, { body: `v${v + 1}`, ifMatch: v });
    await expect(editPost(deps, ann, p.id, { body: 'v11', ifMatch: 10 })).rejects.toMatchObject({
      code: 'edit_limit_reached',
    });
    expect(await postHistory(deps, p.id)).toHaveLength(11);
  });

  it('timelines need no rewrite: a follower reads the new text with no inbox write, and a repost shows its original as it is now', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    await follow(deps, bob, ann);
    const p = await post(ann, 'before the edit');
    const shared = await repost(deps, cat, p.id, { comment: 'my own words' });
    await drainQueue(deps, queued);
    expect((await homeTimeline(deps, bob, 20)).items.map((x) => x.body)).toEqual(['before the edit']);
    const from = requests.length;
    await editPost(deps, ann, p.id, { body: 'after the edit', ifMatch: 0 });
    await drainQueue(deps, queued);
    const inbox = qualifiedTableName(ns, 'inbox');
    expect(requests.slice(from).filter((r) => decodeURIComponent(r.path).includes(inbox))).toEqual([]);
    expect((await homeTimeline(deps, bob, 20)).items.map((x) => [x.body, x.editedAt !== undefined])).toEqual([
      ['after the edit', true],
    ]);
    const seen = await getPost(deps, shared.post.id, bob);
    expect(seen.body).toBe('my own words');
    expect(seen.original).toMatchObject({ state: 'live', post: { body: 'after the edit', version: 1 } });
  });

  it('topics move between topic pages, and trending counts the post once per topic whatever its edits', async () => {
    const [ann] = await users('ann');
    const [a, b] = [`ta${Date.now().toString(36)}`, `tb${Date.now().toString(36)}`];
    const p = await post(ann, `on #${a}#`);
    const bucket = trendBucketOf(Date.now());
    await editPost(deps, ann, p.id, { body: `now on #${b}#`, ifMatch: 0 });
    expect(await topicIds(a)).toEqual([]);
    expect(await topicIds(b)).toEqual([p.id]);
    await editPost(deps, ann, p.id, { body: `back on #${a}# and #${b}#`, ifMatch: 1 });
    expect(await topicIds(a)).toEqual([p.id]);
    expect(await topicIds(b)).toEqual([p.id]);
    const counts = await stores.topics.trendCounts([bucket, bucket + 1]);
    expect([counts.get(a), counts.get(b)]).toEqual([1, 1]);
  });

  it('a mention the edit adds is notified as of the edit, one it drops is retracted, one it keeps stays where it was', async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    const p = await post(ann, `hi @${bob} and @${dan}`);
    await drainQueue(deps, queued);
    const before = (await listNotifications(deps, dan, 10)).items;
    expect(before).toMatchObject([{ type: 'mention' }]);
    await editPost(deps, ann, p.id, { body: `hi @${cat} and @${dan}`, ifMatch: 0 });
    await drainQueue(deps, queued);
    expect((await listNotifications(deps, bob, 10)).items).toEqual([]);
    const added = (await listNotifications(deps, cat, 10)).items;
    expect(added).toMatchObject([{ type: 'mention', post: { id: p.id } }]);
    expect(added[0]!.latestAt).toBeGreaterThan(p.createdAt);
    // Kept: the same group at the same place (it shows the post's text as it is now).
    const after = (await listNotifications(deps, dan, 10)).items;
    expect(after.map((n) => [n.id, n.latestAt, n.count])).toEqual(before.map((n) => [n.id, n.latestAt, n.count]));
    expect(after[0]?.post?.body).toBe(`hi @${cat} and @${dan}`);
  });

  it('those who reposted it are told: one edit notification per post, the latest edit standing for the earlier', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    const p = await post(ann, 'worth sharing');
    await repost(deps, bob, p.id, {});
    await repost(deps, cat, p.id, { comment: 'see this' });
    await drainQueue(deps, queued);
    const edits = async (h: string) => (await listNotifications(deps, h, 10)).items.filter((n) => n.type === 'edit');
    expect(await edits(bob)).toEqual([]);
    await editPost(deps, ann, p.id, { body: 'worth sharing, fixed', ifMatch: 0 });
    await drainQueue(deps, queued);
    for (const h of [bob, cat])
      expect(await edits(h)).toMatchObject([
        { type: 'edit', count: 1, actors: [{ handle: ann }], post: { id: p.id, body: 'worth sharing, fixed' } },
      ]);
    const first = (await edits(bob))[0]!;
    await editPost(deps, ann, p.id, { body: 'worth sharing, fixed again', ifMatch: 1 }, Date.now() + 1_000);
    await drainQueue(deps, queued);
    const again = await edits(bob);
    expect(again).toHaveLength(1);
    expect(again[0]!.latestAt).toBeGreaterThan(first.latestAt);
    expect(await edits(ann)).toEqual([]); // never told of your own edit
  });

  it('forced: an edit that loses its race tells nobody — the notification is the winner’s', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const p = await post(ann, 'shared');
    await repost(deps, bob, p.id, {});
    await drainQueue(deps, queued);
    const t = Date.now();
    const held = gate.holdAt('edit.read', (d) => d.postId === p.id);
    const loser = editPost(deps, ann, p.id, { body: 'loser', ifMatch: 0 }, t + 5_000);
    await held.reached;
    await editPost(deps, ann, p.id, { body: 'winner', ifMatch: 0 }, t + 1_000);
    held.release();
    await expect(loser).rejects.toMatchObject({ code: 'version_mismatch' });
    await drainQueue(deps, queued); // the loser's delayed notify too
    expect(
      (await listNotifications(deps, bob, 10)).items.filter((n) => n.type === 'edit').map((n) => n.latestAt),
    ).toEqual([t + 1_000]);
  });

  it('forced: an edit held after its read while the post is deleted answers 404, and no text comes back into the tombstone', async () => {
    const [ann] = await users('ann');
    const p = await post(ann, 'to be deleted');
    const held = gate.holdAt('edit.read', (d) => d.postId === p.id);
    const editing = editPost(deps, ann, p.id, { body: 'resurrected?', ifMatch: 0 });
    await held.reached;
    await deletePost(deps, ann, p.id);
    held.release();
    await expect(editing).rejects.toMatchObject({ code: 'post_not_found' });
    expect(await stores.posts.lookup(p.id)).toEqual({ state: 'deleted' });
    const row = await hbase.getRow(qualifiedTableName(ns, 'content'), keyFromPostId(p.id)!);
    expect(row?.cells.map((c) => new TextDecoder().decode(c.column)).sort()).toEqual(['p:d', 'p:t', 'p:v']);
  });

  it('forced: two edits from one version — the one held after its read loses to one inside its gap: 412, the winner’s text, one history entry', async () => {
    const [ann] = await users('ann');
    const p = await post(ann, 'v0');
    const held = gate.holdAt('edit.read', (d) => d.postId === p.id);
    const slow = editPost(deps, ann, p.id, { body: 'slow', ifMatch: 0 });
    await held.reached;
    await editPost(deps, ann, p.id, { body: 'fast', ifMatch: 0 });
    held.release();
    await expect(slow).rejects.toMatchObject({ code: 'version_mismatch' });
    expect((await postHistory(deps, p.id)).map((v) => v.body)).toEqual(['fast', 'v0']);
  });
});
