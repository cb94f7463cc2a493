// test/integration/comment-threads.test.ts — replies in threads (楼中楼) on the real HBase
// (invariant E3 in docs/consistency.md): a reply lives under its root (a reply to a reply keeps
// the root); the post's list shows top-level comments only, each with its live-reply count and
// oldest two replies, in 2 round trips; the thread pages oldest first. Races are forced in one
// exact order (test/support/interleave.ts): two replies racing, a reply deleted while another
// is added (each swap checks the summary it read), and a reply racing its root's delete (the
// root stays as a placeholder while its replies remain).
import { performance } from 'node:perf_hooks';
import { describe, expect, inject, it } from 'vitest';
import { HBaseRestClient, type HBaseRequestEvent } from '../../shared/hbase/index.js';
import { sequentialDepth } from '../../shared/observability/round-trips.js';
import { addComment, deleteComment, listComments, listReplies } from '../../shared/use-cases/comments.js';
import { likeComment } from '../../shared/use-cases/comment-likes.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { getPost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { integrationLimits, userFactory } from '../support/feed-harness.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_thread_${Date.now().toString(36)}`;
const requests: (HBaseRequestEvent & { end: number })[] = [];
const hbase = new HBaseRestClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: (e) => requests.push({ ...e, end: performance.now() }),
});

/** How many HBase round trips one after another `op` took. */
async function measured<T>(op: () => Promise<T>): Promise<{ result: T; depth: number }> {
  const from = requests.length;
  const result = await op();
  const calls = requests.slice(from);
  return { result, depth: sequentialDepth(calls.map((c) => ({ start: c.end - c.durationMs, end: c.end }))) };
}
const stores = hbaseFeedStores(hbase, ns);
const gate = interleaver();
const deps: FeedDeps = {
  ...stores,
  queue: { send: async () => undefined },
  limits: integrationLimits,
  step: gate.hook,
};
useNamespace(hbase, ns);
const users = userFactory(stores.users);

/** ann's post with bob's top-level comment on it. */
async function aRoot() {
  const [ann, bob, carol, dan] = await users('ann', 'bob', 'carol', 'dan');
  const postId = (await publishPost(deps, ann, { body: 'a post' })).post.id;
  const root = await addComment(deps, bob, postId, { body: 'root' });
  return { ann, bob, carol, dan, postId, root: root.id };
}

/** The root's thread as the post's list shows it: count and preview bodies; null if not listed. */
async function summary(postId: string, root: string) {
  const page = await listComments(deps, postId, 'oldest', 20);
  const c = page.items.find((i) => i.id === root);
  return c
    ? { deleted: c.deleted ?? false, count: c.replies.count, preview: c.replies.preview.map((r) => r.body) }
    : null;
}

/** Every reply in the thread, paging 2 at a time. */
async function thread(postId: string, root: string) {
  const bodies: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listReplies(deps, postId, root, 2, cursor);
    bodies.push(...page.items.map((r) => r.body));
    cursor = page.nextCursor;
  } while (cursor);
  return bodies;
}

describe('comment threads (E3)', () => {
  it('replies live under their root; the list shows count + oldest two in 2 round trips; the thread pages oldest first', async () => {
    const { ann, bob, carol, dan, postId, root } = await aRoot();
    const t = Date.now();
    const r1 = await addComment(deps, carol, postId, { body: 'r1', replyTo: root }, t + 1);
    // A reply to a reply stays in the root's thread, answering its author.
    const r2 = await addComment(deps, dan, postId, { body: 'r2', replyTo: r1.id }, t + 2);
    expect(r2).toMatchObject({ root, replyTo: { id: r1.id, author: carol } });
    await addComment(deps, ann, postId, { body: 'r3', replyTo: root }, t + 3);
    await likeComment(deps, bob, postId, r1.id);
    const { result, depth } = await measured(() => listComments(deps, postId, 'newest', 20, undefined, bob));
    expect(depth).toBe(2);
    expect(result.items.map((c) => c.body)).toEqual(['root']);
    const [listed] = result.items;
    expect(listed!.replies.count).toBe(3);
    expect(listed!.replies.preview.map((r) => [r.body, r.likes, r.face.handle])).toEqual([
      ['r1', { count: 1, liked: true }, carol],
      ['r2', { count: 0, liked: false }, dan],
    ]);
    const opened = await measured(() => listReplies(deps, postId, root, 20));
    expect(opened.depth).toBe(2);
    expect(await thread(postId, root)).toEqual(['r1', 'r2', 'r3']);
    // A reply has no thread of its own; the post counts every comment.
    await expect(listReplies(deps, postId, r1.id, 20)).rejects.toMatchObject({ code: 'comment_not_found' });
    expect((await getPost(deps, postId)).counts.comments).toBe(4);
    // Deleting a preview reply brings the next oldest into the preview.
    await deleteComment(deps, carol, postId, r1.id);
    expect(await summary(postId, root)).toEqual({ deleted: false, count: 2, preview: ['r2', 'r3'] });
    expect(await thread(postId, root)).toEqual(['r2', 'r3']);
  });

  it('two replies racing: the one read first swaps on a summary already changed, reads again, and both count', async () => {
    const { carol, dan, postId, root } = await aRoot();
    const held = gate.holdAt('thread.read', (d) => d.actor === carol);
    const first = addComment(deps, carol, postId, { body: 'carol', replyTo: root }, Date.now() - 500);
    await held.reached;
    await addComment(deps, dan, postId, { body: 'dan', replyTo: root });
    held.release();
    await first;
    // carol's reply is older: the preview keeps the oldest first, whatever order the swaps landed in.
    expect(await summary(postId, root)).toEqual({ deleted: false, count: 2, preview: ['carol', 'dan'] });
  });

  it('a reply deleted while another is added: the delete’s swap fails, it reads again, count and preview stay exact', async () => {
    const { carol, dan, postId, root } = await aRoot();
    const t = Date.now();
    const gone = await addComment(deps, carol, postId, { body: 'gone', replyTo: root }, t - 2000);
    await addComment(deps, dan, postId, { body: 'stays', replyTo: root }, t - 1000);
    // The delete has read "2, [gone, stays]" and computed "1, [stays]"; it waits before its swap.
    const held = gate.holdAt('thread.read', (d) => d.actor === carol);
    const removal = deleteComment(deps, carol, postId, gone.id);
    await held.reached;
    await addComment(deps, dan, postId, { body: 'late', replyTo: root }, t);
    held.release();
    await removal;
    expect(await summary(postId, root)).toEqual({ deleted: false, count: 2, preview: ['stays', 'late'] });
    expect(await thread(postId, root)).toEqual(['stays', 'late']);
  });

  it('a reply racing its root’s delete: the root stays as a placeholder with the reply; the last reply gone, it goes', async () => {
    const { bob, carol, postId, root } = await aRoot();
    // carol's reply has checked the root live; the root is deleted before her reply lands.
    const held = gate.holdAt('comment.checked', (d) => d.actor === carol);
    const reply = addComment(deps, carol, postId, { body: 'late reply', replyTo: root });
    await held.reached;
    await deleteComment(deps, bob, postId, root);
    expect(await summary(postId, root)).toBeNull(); // no replies yet: nothing to show
    held.release();
    const made = await reply;
    expect(await summary(postId, root)).toEqual({ deleted: true, count: 1, preview: ['late reply'] });
    expect(await thread(postId, root)).toEqual(['late reply']);
    // The deleted root can no longer be replied to; its thread's replies can.
    await expect(addComment(deps, carol, postId, { body: 'x', replyTo: root })).rejects.toMatchObject({
      code: 'comment_not_found',
    });
    await deleteComment(deps, carol, postId, made.id);
    expect(await summary(postId, root)).toBeNull();
    expect((await getPost(deps, postId)).counts.comments).toBe(0);
  });
});
