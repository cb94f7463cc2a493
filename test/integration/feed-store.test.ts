// test/integration/feed-store.test.ts — the feed's HBase adapters (posts, idempotency, relations,
// inbox, counters) against the real REST gateway, in a throwaway namespace of their own.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { HBaseCounterStore } from '../../shared/adapters/hbase/hbase-counter-store.js';
import { HBaseInboxStore } from '../../shared/adapters/hbase/hbase-inbox-store.js';
import { HBaseIdempotencyStore, HBasePostStore } from '../../shared/adapters/hbase/hbase-post-store.js';
import { HBaseRelationStore } from '../../shared/adapters/hbase/hbase-relation-store.js';
import { postIdFromKey } from '../../shared/schema/row-keys.js';
import type { Post } from '../../shared/domain/post.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { Edge, Page } from '../../shared/ports/feed-store.js';
import { postKey, segmentOf, userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { dropNamespace } from '../support/namespace.js';

/** The whole inbox row as one window. */
const ALL = { limit: 100_000 };
const entries = (ids: string[]) => ids.map((id) => ({ id }));

const url = inject('hbaseRestUrl');
const ns = `it_feed_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const client = new HBaseRestClient({ baseUrl: url, timeoutMs: 60_000 });
const posts = new HBasePostStore(client, ns);
const idempotency = new HBaseIdempotencyStore(client, ns);
const relations = new HBaseRelationStore(client, ns);
const inbox = new HBaseInboxStore(client, ns);
const counters = new HBaseCounterStore(client, ns);

const T0 = 1_700_000_000_000;
const idAt = (author: string, millis: number) => postIdFromKey(postKey(author, millis));
/** A post as reads return it: with its counts (none yet). */
const stored = (p: Post) => ({ ...p, counts: { likes: 0, comments: 0, reposts: 0 } });
const newPost = (author: string, millis: number, body = `${author} at ${millis}`): Post => ({
  id: idAt(author, millis),
  author,
  body,
  createdAt: millis,
});

/** HTTP requests `fn` sent, and its result. */
async function counted<T>(fn: () => Promise<T>): Promise<{ requests: number; result: T }> {
  const before = client.requestCount;
  const result = await fn();
  return { requests: client.requestCount - before, result };
}

async function createAll(list: Post[]): Promise<void> {
  for (const p of list) expect(await posts.create(p)).toBe(true);
}

/** Follows every page of a cursor-paged list; checks the last page has no cursor. */
async function allPages<T>(fetch: (cursor?: string) => Promise<Page<T>>): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 50; guard++) {
    const page = await fetch(cursor);
    pages.push(page.items);
    if (!page.nextCursor) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

const inboxCellCount = async (reader: string) =>
  (await client.getRow(qualifiedTableName(ns, 'inbox'), userKey(reader), { versions: 5 }))?.cells.length ?? 0;

const allInboxIds = async (reader: string) => (await inbox.read(reader, ALL)).entries;

beforeAll(async () => {
  await applySchema(client, ns);
});

afterAll(async () => {
  await dropNamespace(client, ns);
  await client.close();
});

describe('HBasePostStore', () => {
  it('create, get, getMany (order of ids, missing and invalid left out), delete leaves a tombstone', async () => {
    const [a, b, c] = [newPost('carol', T0 + 1), newPost('carol', T0 + 2, 'second ✓ ünïcode'), newPost('dave', T0 + 3)];
    const created = await counted(() => posts.create(a!, 'idem-1'));
    expect(created).toEqual({ requests: 1, result: true });
    await createAll([b!, c!]);

    expect(await posts.get(a!.id)).toEqual(stored(a!));
    expect(await posts.get(b!.id)).toEqual(stored(b!));
    expect(await posts.get(idAt('carol', T0 + 99))).toBeNull();
    expect(await posts.get('not-an-id')).toBeNull();

    const many = await counted(() => posts.getMany([c!.id, 'bogus', idAt('carol', T0 + 99), a!.id, b!.id]));
    expect(many.requests).toBe(1);
    expect(many.result).toEqual([c, a, b].map((p) => stored(p!)));
    expect(await counted(() => posts.getMany(['bogus']))).toEqual({ requests: 0, result: [] });

    expect(await posts.lookup(a!.id)).toEqual({ state: 'live', post: stored(a!) });
    expect(await posts.markDeleted(a!.id, T0 + 10)).toBe(true);
    expect(await posts.markDeleted(a!.id, T0 + 11)).toBe(false); // exactly one delete wins
    expect(await posts.get(a!.id)).toBeNull();
    expect(await posts.lookup(a!.id)).toEqual({ state: 'deleted' });
    expect(await posts.lookup(idAt('carol', T0 + 99))).toEqual({ state: 'absent' });
    expect(await posts.getMany([a!.id, b!.id])).toEqual([stored(b!)]);
    // The tombstone keeps the id taken for good: nothing can create that post again.
    expect(await posts.create(a!)).toBe(false);
    expect(await posts.get(a!.id)).toBeNull();
    // The author's list and the backfill scan skip it without spending a slot of the limit.
    expect((await posts.listByAuthor('carol', 1)).items).toEqual([stored(b!)]);
    expect(await posts.recentByAuthor('carol', 1)).toEqual([b]);
  });

  it('of racing deletes of one post exactly one wins', async () => {
    const p = newPost('racer', T0 + 7);
    await posts.create(p);
    const wins = await Promise.all(Array.from({ length: 6 }, (_, i) => posts.markDeleted(p.id, T0 + 100 + i)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('two posts by one author in the same millisecond are both stored; the identical id is refused', async () => {
    const t = T0 + 500;
    const first = newPost('erin', t, 'first');
    const second = newPost('erin', t, 'second');
    expect(first.id).not.toBe(second.id);
    expect(first.id.split('.')[1]).toBe(second.id.split('.')[1]);
    await createAll([first, second]);
    expect(await posts.create({ ...first, body: 'overwrite attempt' })).toBe(false);
    expect(await posts.get(first.id)).toEqual(stored(first));
    expect((await posts.listByAuthor('erin', 10)).items.map((p) => p.body).sort()).toEqual(['first', 'second']);
  });

  it('listByAuthor pages newest first with no duplicates and no gaps', async () => {
    const mine = Array.from({ length: 8 }, (_, i) => newPost('pager', T0 + 1_000 + i));
    // Neighbours on both sides in time and in handle space must never leak in.
    await createAll([...mine, newPost('pager2', T0 + 1_003), newPost('pagea', T0 + 1_004)]);
    const pages = await allPages((cursor) => posts.listByAuthor('pager', 3, cursor));
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    expect(pages.flat().map((p) => p.id)).toEqual(mine.map((p) => p.id).reverse());
    // A page that ends exactly at the last post says so (limit+1 read), no empty page after it.
    expect((await posts.listByAuthor('pager', 8)).nextCursor).toBeUndefined();
  });

  // A cursor that is not a post of that author is refused by the use case before the store is
  // asked (test/unit/product-rules.test.ts, "cursors"): the store trusts what it is given.

  it('user 1 never sees user 10’s posts (and the other way round)', async () => {
    const one = [newPost('1', T0 + 10), newPost('1', T0 + 30)];
    const ten = [newPost('10', T0 + 20), newPost('10', T0 + 40)];
    await createAll([...one, ...ten]);
    expect((await posts.listByAuthor('1', 10)).items.map((p) => p.id)).toEqual([one[1]!.id, one[0]!.id]);
    expect((await posts.listByAuthor('10', 10)).items.map((p) => p.id)).toEqual([ten[1]!.id, ten[0]!.id]);
    expect((await posts.recentByAuthor('1', 10)).every((p) => p.author === '1')).toBe(true);
  });

  it('recentByAuthor respects limit and notOlderThan (strictly newer)', async () => {
    const mine = Array.from({ length: 10 }, (_, i) => newPost('recent', T0 + 2_000 + i));
    await createAll(mine);
    const newestFirst = mine.map((p) => p.id).reverse();
    expect((await posts.recentByAuthor('recent', 3)).map((p) => p.id)).toEqual(newestFirst.slice(0, 3));
    // T0+2005 itself is not newer than the bound: 2006..2009 only.
    expect((await posts.recentByAuthor('recent', 100, T0 + 2_005)).map((p) => p.id)).toEqual(newestFirst.slice(0, 4));
    expect((await posts.recentByAuthor('recent', 2, T0 + 2_005)).map((p) => p.id)).toEqual(newestFirst.slice(0, 2));
    expect(await posts.recentByAuthor('recent', 10, T0 + 2_009)).toEqual([]);
    expect(await posts.recentByAuthor('recent', 0)).toEqual([]);
    expect((await posts.recentByAuthor('recent', 100, 0)).length).toBe(10);
  });
});

describe('HBaseIdempotencyStore', () => {
  const claim = (id: string, fingerprint = 'fp') => ({ id, fingerprint });

  it('the first claim wins; a repeat answers the first post id and fingerprint; keys are per author', async () => {
    const first = idAt('ivy', T0);
    expect(await idempotency.claim('ivy', 'retry-key_1', claim(first, 'body-a'))).toBeNull();
    expect(await idempotency.claim('ivy', 'retry-key_1', claim(idAt('ivy', T0 + 1), 'body-b'))).toEqual({
      id: first,
      fingerprint: 'body-a',
    });
    expect(await idempotency.claim('ivan', 'retry-key_1', claim(idAt('ivan', T0)))).toBeNull();
  });

  it('a claim marked made reads back as made; a mark naming another id confirms nothing', async () => {
    expect(await idempotency.claim('ivy', 'made', claim('m-1'))).toBeNull();
    expect(await idempotency.claim('ivy', 'made', claim('m-2'))).toEqual({ id: 'm-1', fingerprint: 'fp' });
    await idempotency.markCreated('ivy', 'made', 'm-2');
    expect(await idempotency.claim('ivy', 'made', claim('m-3'))).toEqual({ id: 'm-1', fingerprint: 'fp' });
    await idempotency.markCreated('ivy', 'made', 'm-1');
    expect(await idempotency.claim('ivy', 'made', claim('m-4'))).toEqual({
      id: 'm-1',
      fingerprint: 'fp',
      created: true,
    });
  });

  it('of concurrent claims exactly one wins and all others see its post id', async () => {
    const ids = Array.from({ length: 5 }, (_, i) => idAt('ivy', T0 + 100 + i));
    const results = await Promise.all(ids.map((id) => idempotency.claim('ivy', 'race', claim(id))));
    const winners = results.map((r, i) => (r === null ? ids[i] : null)).filter((x) => x !== null);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r !== null).every((r) => r!.id === winners[0])).toBe(true);
  });
});

describe('HBaseRelationStore', () => {
  it('follow writes both directions; a second follow is false', async () => {
    expect(await relations.follow('fa', 'fb', T0 + 5)).toBe(true);
    expect(await relations.follow('fa', 'fb', T0 + 6)).toBe(false);
    expect(await relations.isFollowing('fa', 'fb')).toBe(true);
    expect(await relations.isFollowing('fb', 'fa')).toBe(false);
    expect(await relations.following('fa', 10)).toEqual({ items: [{ handle: 'fb', since: T0 + 5 }] });
    expect(await relations.followers('fb', 10)).toEqual({ items: [{ handle: 'fa', since: T0 + 5 }] });
    expect(await relations.followers('fa', 10)).toEqual({ items: [] });
  });

  it('of 5 concurrent follows of one pair exactly one is true', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => relations.follow('ra', 'rb', T0 + i)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await relations.followers('rb', 10)).items.map((e) => e.handle)).toEqual(['ra']);
  });

  it('unfollow removes both directions; a second unfollow is false', async () => {
    await relations.follow('ua', 'ub', T0);
    expect(await relations.unfollow('ua', 'ub')).toBe(true);
    expect(await relations.unfollow('ua', 'ub')).toBe(false);
    expect(await relations.isFollowing('ua', 'ub')).toBe(false);
    expect(await relations.following('ua', 10)).toEqual({ items: [] });
    expect(await relations.followers('ub', 10)).toEqual({ items: [] });
    // And it can be followed again afterwards.
    expect(await relations.follow('ua', 'ub', T0 + 1)).toBe(true);
    expect(await relations.followers('ub', 10)).toEqual({ items: [{ handle: 'ua', since: T0 + 1 }] });
  });

  it('an unfollow given the since it read removes only that edge: a refollow since then stays, with both sides', async () => {
    await relations.follow('sa', 'sb', T0);
    const read = (await relations.edge('sa', 'sb'))!.since;
    // Between that read and the delete, another request unfollows and follows again.
    expect(await relations.unfollow('sa', 'sb')).toBe(true);
    expect(await relations.follow('sa', 'sb', T0 + 5)).toBe(true);
    expect(await relations.unfollow('sa', 'sb', read)).toBe(false);
    expect(await relations.edge('sa', 'sb')).toEqual({ handle: 'sb', since: T0 + 5 });
    expect(await relations.followers('sb', 10)).toEqual({ items: [{ handle: 'sa', since: T0 + 5 }] });
    // Given the since that is there, it removes it, reading nothing first.
    expect(await relations.unfollow('sa', 'sb', T0 + 5)).toBe(true);
    expect(await relations.isFollowing('sa', 'sb')).toBe(false);
    expect(await relations.followers('sb', 10)).toEqual({ items: [] });
  });

  it('of 5 concurrent unfollows exactly one is true', async () => {
    await relations.follow('ca', 'cb', T0);
    const results = await Promise.all(Array.from({ length: 5 }, () => relations.unfollow('ca', 'cb')));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await relations.isFollowing('ca', 'cb')).toBe(false);
    expect(await relations.followers('cb', 10)).toEqual({ items: [] });
  });

  it('list entries: both sides with the edge, none left by a repeat or by racing losers; removed and restored with the followers side', async () => {
    expect(await relations.follow('la', 'lb', T0 + 5)).toBe(true);
    expect(await relations.follow('la', 'lb', T0 + 6)).toBe(false);
    expect(await relations.listed('la', 'following', 10)).toEqual({ items: [{ handle: 'lb', since: T0 + 5 }] });
    expect(await relations.listed('lb', 'followers', 10)).toEqual({ items: [{ handle: 'la', since: T0 + 5 }] });
    expect(await relations.listed('la', 'followers', 10)).toEqual({ items: [] });
    expect(
      await relations.followSinces([
        { follower: 'la', followee: 'lb' },
        { follower: 'lb', followee: 'la' },
      ]),
    ).toEqual([T0 + 5, null]);
    const racing = await Promise.all(Array.from({ length: 5 }, (_, i) => relations.follow('lr', 'ls', T0 + 10 * i)));
    expect(racing.filter(Boolean)).toHaveLength(1);
    const won = T0 + 10 * racing.indexOf(true);
    expect(await relations.listed('lr', 'following', 10)).toEqual({ items: [{ handle: 'ls', since: won }] });
    expect(await relations.listed('ls', 'followers', 10)).toEqual({ items: [{ handle: 'lr', since: won }] });
    expect(await relations.unfollow('la', 'lb')).toBe(true);
    expect(await relations.listed('la', 'following', 10)).toEqual({ items: [] });
    expect(await relations.listed('lb', 'followers', 10)).toEqual({ items: [] });
    await relations.restoreFollowerSide('la', 'lb', T0 + 7);
    expect(await relations.listed('la', 'following', 10)).toEqual({ items: [{ handle: 'lb', since: T0 + 7 }] });
    expect(await relations.listed('lb', 'followers', 10)).toEqual({ items: [{ handle: 'la', since: T0 + 7 }] });
    expect(await relations.removeFollowerSide('la', 'lb', T0 + 7)).toBe(true);
    expect(await relations.listed('la', 'following', 10)).toEqual({ items: [] });
    expect(await relations.listed('lb', 'followers', 10)).toEqual({ items: [] });
  });

  it('list entries page newest first by position (since, then handle), one stateless scan a page', async () => {
    const sinces: Record<string, number> = { pz: T0 + 3, pb: T0 + 1, py: T0 + 2, pa: T0 + 2, pc: T0 };
    for (const [f, since] of Object.entries(sinces)) await relations.follow('pown', f, since);
    const pages: Edge[][] = [];
    let after: { since: number; handle: string } | undefined;
    do {
      const before = client.requestCount;
      const page = await relations.listed('pown', 'following', 2, after);
      expect(client.requestCount - before).toBe(1);
      pages.push(page.items);
      after = page.next;
    } while (after);
    expect(pages.map((p) => p.map((e) => e.handle))).toEqual([['pz', 'pa'], ['py', 'pb'], ['pc']]);
    expect(pages.flat().map((e) => e.since)).toEqual([T0 + 3, T0 + 2, T0 + 2, T0 + 1, T0]);
  });

  it('following and followers page by cursor with no duplicates and no gaps', async () => {
    const fans = Array.from({ length: 7 }, (_, i) => `fan${i}`);
    for (const f of fans) await relations.follow(f, 'celeb', T0);
    for (const f of fans) await relations.follow('celeb', f, T0);
    const followerPages = await allPages((c) => relations.followers('celeb', 3, c));
    expect(followerPages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(
      followerPages
        .flat()
        .map((e) => e.handle)
        .sort(),
    ).toEqual(fans);
    const followingPages = await allPages((c) => relations.following('celeb', 3, c));
    expect(
      followingPages
        .flat()
        .map((e: Edge) => e.handle)
        .sort(),
    ).toEqual(fans);
    expect(new Set(followingPages.flat().map((e) => e.handle)).size).toBe(7);
    // A cursor that is not a handle is refused by the use case (listRelations, test/unit/feed.test.ts).
  });

  it('user 1’s lists never include user 10’s edges', async () => {
    await relations.follow('x', '10', T0);
    await relations.follow('y', '1', T0);
    await relations.follow('10', 'z', T0);
    await relations.follow('1', 'w', T0);
    expect((await relations.followers('1', 10)).items.map((e) => e.handle)).toEqual(['y']);
    expect((await relations.following('1', 10)).items.map((e) => e.handle)).toEqual(['w']);
    expect((await relations.followers('10', 10)).items.map((e) => e.handle)).toEqual(['x']);
  });

  it('audience: who is away comes with the followers scan; segments cover the list exactly once; clear and a re-follow reach them again', async () => {
    const readers = Array.from({ length: 40 }, (_, i) => `au_r${i}`);
    for (const r of readers) await relations.follow(r, 'au_star', T0);
    await relations.follow('au_r0', 'au_other', T0);
    await relations.markAway('au_r0', ['au_star', 'au_other'], T0 - 1);
    await relations.markAway('au_r1', ['au_star'], T0 - 1);
    const all = await relations.audience('au_star', 100);
    expect(all.items.map((m) => m.handle).sort()).toEqual([...readers].sort());
    expect(
      all.items
        .filter((m) => m.away)
        .map((m) => m.handle)
        .sort(),
    ).toEqual(['au_r0', 'au_r1']);
    expect((await relations.audience('au_other', 10)).items).toEqual([{ handle: 'au_r0', away: true }]);
    // The followers list and its since are unchanged by the mark.
    expect((await relations.followers('au_star', 100)).items.every((e) => e.since === T0)).toBe(true);

    for (const of of [1, 3, 16]) {
      const seen: string[] = [];
      for (let index = 0; index < of; index++) {
        let cursor: string | undefined;
        do {
          const page = await relations.audience('au_star', 4, {
            ...(cursor ? { cursor } : {}),
            segment: { index, of },
          });
          for (const m of page.items) expect(segmentOf(m.handle, of)).toBe(index);
          seen.push(...page.items.map((m) => m.handle));
          cursor = page.nextCursor;
        } while (cursor);
      }
      expect(seen.sort(), `${of} segments`).toEqual([...readers].sort());
    }

    await relations.clearAway('au_r0', ['au_star']);
    expect((await relations.audience('au_star', 100)).items.filter((m) => m.away).map((m) => m.handle)).toEqual([
      'au_r1',
    ]);
    // An unfollow removes the row with its mark; a re-follow writes a row without one.
    await relations.unfollow('au_r1', 'au_star');
    await relations.follow('au_r1', 'au_star', T0 + 5);
    expect((await relations.audience('au_star', 100)).items.filter((m) => m.away)).toEqual([]);
  });
});

describe('HBaseInboxStore', () => {
  it('add is one batched put; re-delivery rewrites the same cell; no readers sends nothing', async () => {
    const id = idAt('author1', T0);
    expect((await counted(() => inbox.add(['rd1', 'rd2', 'rd3'], { id: id }))).requests).toBe(1);
    await inbox.add(['rd1'], { id: id });
    expect(await inboxCellCount('rd1')).toBe(1);
    expect(await allInboxIds('rd2')).toEqual([id]);
    expect((await counted(() => inbox.add([], { id: id }))).requests).toBe(0);
  });

  it('read is one get: entries newest first across authors, celebrity markers, activity', async () => {
    const ids = [idAt('al', T0 + 3), idAt('bo', T0 + 1), idAt('cy', T0 + 2), idAt('al', T0 + 5), idAt('bo', T0 + 4)];
    expect((await counted(() => inbox.addMany('reader1', entries(ids)))).requests).toBe(1);
    await inbox.addCelebrity(['reader1'], 'star');
    await inbox.markSeen('reader1', T0 + 9);
    const view = await counted(() => inbox.read('reader1', ALL));
    expect(view.requests).toBe(1);
    // By post time, whoever wrote it: T0+5, T0+4, T0+3, T0+2, T0+1.
    expect(view.result).toEqual({
      entries: [ids[3], ids[4], ids[0], ids[2], ids[1]],
      more: false,
      celebrities: ['star'],
      lastSeen: T0 + 9,
    });
    // A window: strictly after a post, at most `limit`, and whether more follow.
    expect(await inbox.read('reader1', { after: ids[4]!, limit: 2 })).toMatchObject({
      entries: [ids[0], ids[2]],
      more: true,
    });
    expect(await inbox.read('reader1', { after: ids[2]!, limit: 2 })).toMatchObject({ entries: [ids[1]], more: false });
    expect(await inbox.read('nobody_here', ALL)).toEqual({ entries: [], more: false, celebrities: [] });
  });

  it('remove takes one post out of the given readers only', async () => {
    const id = idAt('rem', T0);
    const other = idAt('rem', T0 + 1);
    await inbox.add(['rr1', 'rr2', 'rr3'], { id: id });
    await inbox.add(['rr1'], { id: other });
    await inbox.remove(['rr1', 'rr2'], id);
    expect(await allInboxIds('rr1')).toEqual([other]);
    expect(await allInboxIds('rr2')).toEqual([]);
    expect(await allInboxIds('rr3')).toEqual([id]);
  });

  it('purgeAuthor removes only that author’s entries (and 1 is not 10)', async () => {
    const byOne = [idAt('1', T0 + 1), idAt('1', T0 + 3)];
    const byTen = [idAt('10', T0 + 2), idAt('10', T0 + 4)];
    const byOther = [idAt('other', T0 + 5)];
    await inbox.addMany('purger', entries([...byOne, ...byTen, ...byOther]));
    expect(await inbox.purgeAuthor('purger', '1')).toBe(2);
    expect(await allInboxIds('purger')).toEqual([byOther[0], byTen[1], byTen[0]]);
    expect(await counted(() => inbox.purgeAuthor('purger', '1'))).toEqual({ requests: 1, result: 0 });
    expect(await inbox.purgeAuthor('nobody', '1')).toBe(0);
  });

  it('HBASE-3300: entries re-added right after a purge are visible again', async () => {
    const ids = Array.from({ length: 5 }, (_, i) => idAt('refollowed', T0 + 30_000 + i));
    await inbox.addMany('refollower', entries(ids));
    const stays = idAt('stays', T0);
    await inbox.add(['refollower'], { id: stays });
    expect(await inbox.purgeAuthor('refollower', 'refollowed')).toBe(5);
    expect(await allInboxIds('refollower')).toEqual([stays]);
    // The refollow backfill, immediately (no sleep): both write paths.
    await inbox.addMany('refollower', entries(ids.slice(0, 3)));
    await inbox.add(['refollower'], { id: ids[3]! });
    expect(await allInboxIds('refollower')).toEqual([ids[3], ids[2], ids[1], ids[0], stays]);
  });

  it('stats: size and the oldest entry’s post time', async () => {
    expect(await inbox.stats('statless')).toEqual({ size: 0 });
    await inbox.addMany('statful', entries([idAt('sa', T0 + 7), idAt('sb', T0 + 3), idAt('sa', T0 + 9)]));
    expect(await inbox.stats('statful')).toEqual({ size: 3, oldestMillis: T0 + 3 });
  });
});

describe('HBaseCounterStore', () => {
  it('adds positive and negative deltas; absent is 0', async () => {
    expect(await counters.get('counted', 'followers')).toBe(0);
    await counters.add('counted', 'followers', 3);
    await counters.add('counted', 'followers', -1);
    await counters.add('counted', 'posts', -2);
    expect(await counters.get('counted', 'followers')).toBe(2);
    expect(await counters.get('counted', 'posts')).toBe(-2);
    expect(await counters.get('counted', 'following')).toBe(0);
  });

  it('concurrent increments are all counted', async () => {
    await Promise.all(Array.from({ length: 10 }, () => counters.add('busy', 'following', 1)));
    expect(await counters.get('busy', 'following')).toBe(10);
  });
});
