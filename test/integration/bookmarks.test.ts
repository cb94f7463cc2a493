// test/integration/bookmarks.test.ts — 收藏 on the real HBase adapters: the private newest-first
// list, `bookmarked` in the reader's view of a post, a deleted post leaving the list, the list's
// two round trips, and the races of the entry and the truth forced step by step
// (test/support/interleave.ts; invariant K in docs/consistency.md).
import { performance } from 'node:perf_hooks';
import { describe, expect, inject, it } from 'vitest';
import { HBaseRestClient, type HBaseRequestEvent } from '../../shared/hbase/index.js';
import { sequentialDepth } from '../../shared/observability/round-trips.js';
import { bookmarkPost, listBookmarks, unbookmarkPost } from '../../shared/use-cases/bookmarks.js';
import { deletePost, getPost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { userFactory, feedWorld } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_bookmarks_${Date.now().toString(36)}`;
const requests: (HBaseRequestEvent & { end: number })[] = [];
const hbase = new HBaseRestClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: (e) => requests.push({ ...e, end: performance.now() }),
});
const { stores, gate, deps } = feedWorld(hbase, ns);
useNamespace(hbase, ns);

const users = userFactory(stores.users);
const post = async (author: string, body = `by ${author}`) => (await publishPost(deps, author, { body })).post.id;
const ids = async (reader: string, limit = 20, cursor?: string) =>
  (await listBookmarks(deps, reader, limit, cursor)).items.map((p) => p.id);

describe('bookmarks (收藏)', () => {
  it('a private list, newest bookmarked first, paged; the view says bookmarked; idempotent; a removal takes it out', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const [p1, p2, p3] = [await post(ann, 'one'), await post(ann, 'two'), await post(bob, 'three')];
    await bookmarkPost(deps, bob, p2, 1_000);
    await bookmarkPost(deps, bob, p1, 2_000);
    await bookmarkPost(deps, bob, p3, 3_000);
    await bookmarkPost(deps, bob, p1, 4_000); // again: nothing changes, it keeps its place
    expect(await ids(bob)).toEqual([p3, p1, p2]);
    expect(await ids(ann)).toEqual([]);
    // Paged: two, then the rest from the cursor, nobody twice.
    const first = await listBookmarks(deps, bob, 2);
    expect(first.items.map((p) => p.id)).toEqual([p3, p1]);
    expect(await ids(bob, 2, first.nextCursor)).toEqual([p2]);
    expect((await getPost(deps, p1, bob)).viewer).toMatchObject({ bookmarkedAt: 2_000 });
    expect((await getPost(deps, p1, ann)).viewer.bookmarkedAt).toBeUndefined();

    await unbookmarkPost(deps, bob, p1);
    await unbookmarkPost(deps, bob, p1); // again: nothing to remove
    expect(await ids(bob)).toEqual([p3, p2]);
    expect((await stores.reactions.bookmarks(bob, 10)).items.map((e) => e.postId)).toEqual([p3, p2]); // its entry went too
  });

  it('a deleted post leaves the list (no 500, no hole in the paging); an unknown post is 404', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const [p1, p2] = [await post(ann, 'keep'), await post(ann, 'gone')];
    await bookmarkPost(deps, bob, p1, 1_000);
    await bookmarkPost(deps, bob, p2, 2_000);
    await deletePost(deps, ann, p2);
    expect(await ids(bob)).toEqual([p1]);
    const page = await listBookmarks(deps, bob, 1);
    expect(page.items).toEqual([]); // the deleted one was read and left out; the cursor goes on
    expect(await ids(bob, 1, page.nextCursor)).toEqual([p1]);
    await expect(bookmarkPost(deps, bob, p2)).rejects.toMatchObject({ code: 'post_not_found' });
    await unbookmarkPost(deps, bob, p2); // allowed on a deleted post: it tidies your own list
    await expect(bookmarkPost(deps, bob, `${ann}.1.0123456789ab`)).rejects.toMatchObject({ code: 'post_not_found' });
  });

  it('the list reads in 2 round trips: the index scan, then the posts with the reader’s states', async () => {
    const [ann, bob] = await users('ann', 'bob');
    for (let i = 0; i < 5; i++) await bookmarkPost(deps, bob, await post(ann, `p${i}`), 1_000 + i);
    const from = requests.length;
    expect(await ids(bob)).toHaveLength(5);
    const calls = requests.slice(from);
    expect(sequentialDepth(calls.map((c) => ({ start: c.end - c.durationMs, end: c.end })))).toBe(2);
  });

  it('forced: a bookmark stopped between its list entry and its truth is not shown; finished, it is, once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    const held = gate.holdAt('bookmark.listed', (d) => d.actor === bob);
    const keeping = bookmarkPost(deps, bob, id, 1_000);
    await held.reached;
    expect((await stores.reactions.bookmarks(bob, 10)).items).toEqual([{ postId: id, since: 1_000 }]); // the entry is there
    expect(await ids(bob)).toEqual([]); // the truth is not: nothing shows it
    held.release();
    await keeping;
    expect(await ids(bob)).toEqual([id]);
  });

  it('forced: a bookmark made again inside a removal (after its truth delete, before its entry removal) stays, shown once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    await bookmarkPost(deps, bob, id, 1_000);
    const held = gate.holdAt('unbookmark.won', (d) => d.actor === bob);
    const removing = unbookmarkPost(deps, bob, id);
    await held.reached;
    await bookmarkPost(deps, bob, id, 2_000);
    held.release();
    await removing; // removes the entry of 1000 only
    expect((await stores.reactions.bookmarks(bob, 10)).items).toEqual([{ postId: id, since: 2_000 }]);
    expect(await ids(bob)).toEqual([id]);
  });

  it('two bookmarks of one post at once: one truth, one entry shown', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const id = await post(ann);
    await Promise.all([bookmarkPost(deps, bob, id, 1_000), bookmarkPost(deps, bob, id, 2_000)]);
    const since = await stores.reactions.bookmarkSince(bob, id);
    expect((await stores.reactions.bookmarks(bob, 10)).items).toEqual([{ postId: id, since }]);
    expect(await ids(bob)).toEqual([id]);
  });
});
