// test/integration/lists.test.ts — the newest-first lists (following, followers, likers, blocked,
// muted; tables.ts `lists`, invariant K in docs/consistency.md) on the real HBase
// adapters through the use cases: their order, paging while entries land, the cursor's checks,
// the round trips, and the races forced inside the adapters' two writes (an HBase client that
// holds, or stops, one named request: the use cases' step points lie outside the adapters).
import { performance } from 'node:perf_hooks';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { compareBytes, type HBaseRequestEvent } from '../../shared/hbase/index.js';
import { GatedClient } from '../support/gated-client.js';
import { sequentialDepth } from '../../shared/observability/round-trips.js';
import { userKey } from '../../shared/schema/row-keys.js';
import { block, listBlocked, mute, unblock } from '../../shared/use-cases/blocks.js';
import { encodeCursor } from '../../shared/use-cases/cursor.js';
import { likePost, listLikers, unlikePost } from '../../shared/use-cases/likes.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, listRelations, unfollow } from '../../shared/use-cases/relations.js';
import { drainQueue, userFactory, feedWorld } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';
import { withoutFaces } from '../support/faces.js';

const ns = `it_lists_${Date.now().toString(36)}`;
const requests: (HBaseRequestEvent & { end: number })[] = [];
const hbase = new GatedClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: (e) => requests.push({ ...e, end: performance.now() }),
});
const { stores, queued, deps } = feedWorld(hbase, ns);

useNamespace(hbase, ns);
beforeEach(() => {
  queued.length = 0;
});

const users = userFactory(stores.users);
const handles = (page: { items: { handle: string }[] }) => page.items.map((e) => e.handle);
/** Salted key order: the order the lists had before they were newest first. */
const bySalt = (hs: string[]) => [...hs].sort((a, b) => compareBytes(userKey(a), userKey(b)));

async function allPages<T extends { handle: string }>(
  read: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<{ pages: string[][]; all: T[] }> {
  const pages: string[][] = [];
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    pages.push(handles(page));
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 50);
  return { pages, all };
}

async function depthOf(op: () => Promise<unknown>): Promise<number> {
  const from = requests.length;
  await op();
  return sequentialDepth(requests.slice(from).map((c) => ({ start: c.end - c.durationMs, end: c.end })));
}

describe('the lists are newest first', () => {
  it('following, followers, likers, blocked and muted: newest first, paged exactly once, in 2 round trips', async () => {
    const [ann, cat, ...others] = await users('ann', 'cat', 'o1', 'o2', 'o3', 'o4');
    // Times rise along the salted order, so newest first is its reverse: the old order fails.
    const salted = bySalt(others);
    const newest = [...salted].reverse();
    const post = (await publishPost(deps, ann, { body: 'like me' })).post.id;
    for (const [i, o] of salted.entries()) {
      await follow(deps, ann, o, 1_000 + i);
      await follow(deps, o, ann, 2_000 + i);
      await likePost(deps, o, post, 3_000 + i);
      await block(deps, cat, o, 4_000 + i);
      await mute(deps, cat, o, 5_000 + i);
    }
    // Edges ended and made again: the old entries must not show beside the new ones.
    for (const [i, o] of salted.entries()) {
      await unfollow(deps, ann, o);
      await follow(deps, ann, o, 6_000 + i);
      await unblock(deps, cat, o);
      await block(deps, cat, o, 8_000 + i);
    }
    const lists = {
      following: (c?: string) => listRelations(deps, ann, 'following', 3, c),
      followers: (c?: string) => listRelations(deps, ann, 'followers', 3, c),
      likers: (c?: string) => listLikers(deps, post, 3, c),
      blocked: (c?: string) => listBlocked(deps, cat, 'block', 3, c),
      muted: (c?: string) => listBlocked(deps, cat, 'mute', 3, c),
    };
    const since = { following: 6_000, followers: 2_000, likers: 3_000, blocked: 8_000, muted: 5_000 };
    for (const [name, read] of Object.entries(lists)) {
      const { pages, all } = await allPages(read);
      expect(pages.flat(), name).toEqual(newest);
      expect(
        pages.map((p) => p.length),
        name,
      ).toEqual([3, 1]);
      // Each shown with the since its edge holds now.
      expect(
        all.map((e) => (e as { since?: number }).since),
        name,
      ).toEqual(newest.map((o) => since[name as keyof typeof since] + salted.indexOf(o)));
      expect(await depthOf(() => read()), `${name}: round trips`).toBe(2);
    }
  });

  it('a liker who arrives while the list is paged sorts before the cursor: never on a later page, nobody twice or skipped', async () => {
    const [ann, ...fans] = await users('ann', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6');
    const post = (await publishPost(deps, ann, { body: 'paged' })).post.id;
    const salted = bySalt(fans);
    for (const [i, f] of salted.entries()) await likePost(deps, f, post, 1_000 + i);
    const first = await listLikers(deps, post, 3);
    expect(first.nextCursor).toBeDefined();
    // Newcomers on both sides of the page's last handle in salted order: the old order (salted
    // keys, cursor = last handle) showed the one after it on the next page.
    const last = first.items.at(-1)!.handle;
    const late = await users('l1', 'l2', 'l3', 'l4', 'l5', 'l6');
    const after = late.filter((h) => compareBytes(userKey(h), userKey(last)) > 0);
    expect(after.length).toBeGreaterThan(0);
    for (const l of late) await likePost(deps, l, post, 5_000);
    const rest = await allPages((c) => listLikers(deps, post, 3, c ?? first.nextCursor));
    const seen = [...handles(first), ...rest.pages.flat()];
    expect(seen).toEqual([...salted].reverse());
    for (const l of late) expect(rest.pages.flat()).not.toContain(l);
    // From the top, the newcomers come first (one since: by handle).
    expect(handles(await listLikers(deps, post, 6))).toEqual([...late].sort());
  });

  it('a cursor this API did not make is 422 invalid_cursor (the old handle cursor too), checked before any read', async () => {
    const [ann] = await users('ann');
    const post = (await publishPost(deps, ann, { body: 'x' })).post.id;
    for (const bad of [
      '%%%',
      encodeCursor(ann),
      encodeCursor(`12345678901234.${ann}`),
      encodeCursor(`-1.${ann}`),
      encodeCursor('12.Not A Handle'),
      encodeCursor('.ann'),
    ]) {
      await expect(listRelations(deps, ann, 'following', 5, bad), bad).rejects.toMatchObject({
        code: 'invalid_cursor',
      });
      await expect(listLikers(deps, post, 5, bad), bad).rejects.toMatchObject({ code: 'invalid_cursor' });
      await expect(listBlocked(deps, ann, 'mute', 5, bad), bad).rejects.toMatchObject({ code: 'invalid_cursor' });
    }
  });
});

describe('invariant K: a list shows exactly the edges that hold, each once', () => {
  it('forced: a follow stopped between its list entries and its edge shows nothing; dead there, a later follow shows once', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const held = hbase.hold('checkAndPut', 'relations', 'before');
    const following = follow(deps, ann, bob, 1_000);
    await held.reached;
    // The entries are written, the edge is not: neither list shows the follow yet.
    expect(handles(await stores.relations.listed(ann, 'following', 10))).toEqual([bob]);
    expect(handles(await listRelations(deps, ann, 'following', 10))).toEqual([]);
    expect(handles(await listRelations(deps, bob, 'followers', 10))).toEqual([]);
    held.stop();
    await expect(following).rejects.toThrow(/stopped/);
    // Its orphans stay, never shown; a later follow has entries of its own since.
    await follow(deps, ann, bob, 2_000);
    expect((await stores.relations.listed(ann, 'following', 10)).items).toHaveLength(2);
    expect(withoutFaces((await listRelations(deps, ann, 'following', 10)).items)).toEqual([
      { handle: bob, since: 2_000 },
    ]);
    expect(withoutFaces((await listRelations(deps, bob, 'followers', 10)).items)).toEqual([
      { handle: ann, since: 2_000 },
    ]);
  });

  it('forced: an unfollow stopped between its edge delete and its entries’ removal, a refollow inside: shown once, with the new since', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await follow(deps, ann, bob, 1_000);
    const held = hbase.hold('checkAndDelete', 'relations', 'after');
    const unfollowing = unfollow(deps, ann, bob);
    await held.reached;
    expect(handles(await listRelations(deps, ann, 'following', 10))).toEqual([]);
    await follow(deps, ann, bob, 2_000);
    // Two entries (1000, 2000) and one edge (2000): one row shown.
    expect((await stores.relations.listed(ann, 'following', 10)).items).toHaveLength(2);
    expect(withoutFaces((await listRelations(deps, ann, 'following', 10)).items)).toEqual([
      { handle: bob, since: 2_000 },
    ]);
    held.release();
    await unfollowing; // removes the 1000 entries only; the followers side holds 2000 and stays
    expect((await stores.relations.listed(ann, 'following', 10)).items).toEqual([{ handle: bob, since: 2_000 }]);
    expect((await stores.relations.listed(bob, 'followers', 10)).items).toEqual([{ handle: ann, since: 2_000 }]);
    expect(await stores.relations.followerSide(ann, bob)).toBe(2_000);
  });

  it('forced: an unfollow that died after its edge delete: the list is exact at once, and its settle removes the entries with the followers side', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await follow(deps, ann, bob, 1_000);
    queued.length = 0;
    const held = hbase.hold('checkAndDelete', 'relations', 'after');
    const unfollowing = unfollow(deps, ann, bob);
    await held.reached;
    held.stop();
    await expect(unfollowing).rejects.toThrow(/stopped/);
    expect(handles(await listRelations(deps, ann, 'following', 10))).toEqual([]);
    expect(handles(await listRelations(deps, bob, 'followers', 10))).toEqual([]);
    expect(await stores.relations.followerSide(ann, bob)).toBe(1_000);
    await drainQueue(deps, queued); // the settle, queued before the first write
    expect(await stores.relations.followerSide(ann, bob)).toBeNull();
    expect((await stores.relations.listed(ann, 'following', 10)).items).toEqual([]);
    expect((await stores.relations.listed(bob, 'followers', 10)).items).toEqual([]);
  });

  it('a settle that restores a missing followers side writes its list entries back with it', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await follow(deps, ann, bob, 1_000);
    queued.length = 0;
    // Both gone as a same-millisecond unfollow → refollow can leave them; the edge stays.
    await stores.relations.removeFollowerSide(ann, bob, 1_000);
    expect(handles(await listRelations(deps, ann, 'following', 10))).toEqual([]);
    await deps.queue.send({ v: 1, type: 'settle', reader: ann, followee: bob, at: 1_000 });
    await drainQueue(deps, queued);
    expect(withoutFaces((await listRelations(deps, ann, 'following', 10)).items)).toEqual([
      { handle: bob, since: 1_000 },
    ]);
    expect(withoutFaces((await listRelations(deps, bob, 'followers', 10)).items)).toEqual([
      { handle: ann, since: 1_000 },
    ]);
  });

  it('a repeated like leaves no entry of its own; the unlike takes the entry with the truth', async () => {
    const [ann, bob] = await users('ann', 'bob');
    const post = (await publishPost(deps, ann, { body: 'x' })).post.id;
    await likePost(deps, bob, post, 1_000);
    await likePost(deps, bob, post, 2_000); // a repeat: loses, its entry at 2000 goes
    expect((await stores.reactions.likers(post, 10)).items).toEqual([{ handle: bob, since: 1_000 }]);
    await unlikePost(deps, bob, post);
    expect((await stores.reactions.likers(post, 10)).items).toEqual([]);
    await likePost(deps, bob, post, 3_000);
    expect(withoutFaces((await listLikers(deps, post, 10)).items)).toEqual([{ handle: bob, since: 3_000 }]);
  });

  it('a repeat block or mute leaves no entry of its own; unblock takes the entry with the edge', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await block(deps, ann, bob, 1_000);
    await block(deps, ann, bob, 2_000);
    expect((await stores.blocks.list('block', ann, 10)).items).toEqual([{ handle: bob, since: 1_000 }]);
    await unblock(deps, ann, bob);
    expect((await stores.blocks.list('block', ann, 10)).items).toEqual([]);
    expect(withoutFaces((await listBlocked(deps, ann, 'block', 10)).items)).toEqual([]);
  });
});
