// test/support/contracts/maintenance-store.contract.ts — what MaintenanceStore promises
// (shared/ports/maintenance-store.ts) to the scheduled jobs: bounded walks that resume where they
// stopped and visit everything once, a trim that drops only what was past the cap when visited
// (an entry written again since survives), the relations batch with both sides of every follow
// and the users' counters, and counter writes that land only on an unchanged counter. The world
// a case needs is made through `MaintenanceWorld` (the fake's setup, or the other HBase ports).
//
// The walks read the whole store: on HBase the suite gets a namespace of its own, every case
// filters what it reads to its own handles, and the trim case is the only one that writes feeds.
import { describe, expect, it } from 'vitest';
import type {
  Counter,
  Cursor,
  Feed,
  MaintenanceStore,
  UserRelations,
} from '../../../shared/ports/maintenance-store.js';
import { fresh, type Make, post, T0 } from './fixtures.js';

/** The store, and the way to put a world in it that the jobs would meet. */
export interface MaintenanceWorld {
  store: MaintenanceStore;
  /** A registered user, with stored counters where given. */
  account(handle: string, counters?: Partial<Record<Counter, number>>): Promise<void>;
  /** A counter moved as a live follow or unfollow moves it (an increment). */
  count(handle: string, counter: Counter, delta: number): Promise<void>;
  /** A follow of `since` with both sides, or only its following side (the truth), or only its followers-side copy. */
  follow(follower: string, followee: string, since: number, sides: 'both' | 'following' | 'followers'): Promise<void>;
  /** Entries (post ids) written into an owner's feed; one already there is written again. */
  feed(feed: Feed, owner: string, postIds: string[]): Promise<void>;
  /** An owner's feed as it stands, newest first. */
  entries(feed: Feed, owner: string): Promise<string[]>;
  /** A reader's recorded timeline read, away mark, and a rebuild asked (which records a read too). */
  seen(reader: string, at: number): Promise<void>;
  away(reader: string, at: number): Promise<void>;
  regenerating(reader: string, at: number): Promise<void>;
}

/** Every item of a resumable walk, read `limit` at a time from each position it returns. */
async function walk<T extends { next: Cursor }>(
  read: (start: Cursor | undefined) => AsyncIterable<T>,
  limit: number,
): Promise<T[]> {
  const all: T[] = [];
  let start: Cursor | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const chunk: T[] = [];
    for await (const item of read(start)) chunk.push(item);
    expect(chunk.length).toBeLessThanOrEqual(limit);
    all.push(...chunk);
    if (chunk.length < limit) return all;
    start = chunk.at(-1)!.next;
  }
  throw new Error('the walk did not end');
}

/** The whole relations walk in batches of `limit`, each user's parts put together. */
async function relationsOf(store: MaintenanceStore, limit: number): Promise<Map<string, UserRelations>> {
  const users = new Map<string, UserRelations>();
  let start: Cursor | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const batch = await store.relationsBatch({ limit, ...(start === undefined ? {} : { start }) });
    expect(batch.read).toBeLessThanOrEqual(limit);
    batch.users.forEach((part, i) => {
      if (i < batch.users.length - 1) expect(part.complete, `${part.user} cut short inside a batch`).toBe(true);
      if (!part.complete) expect(part.counters, `${part.user}'s counters before its relations end`).toBeUndefined();
      const seen = users.get(part.user);
      if (seen) expect(seen.complete, `${part.user} again after it was complete`).toBe(false);
      users.set(part.user, {
        user: part.user,
        follows: [...(seen?.follows ?? []), ...part.follows],
        followers: [...(seen?.followers ?? []), ...part.followers],
        complete: part.complete,
        ...((part.counters ?? seen?.counters) ? { counters: part.counters ?? seen!.counters! } : {}),
      });
    });
    if (batch.next === undefined) return users;
    start = batch.next;
  }
  throw new Error('the relations walk did not end');
}

const byFollow = <T extends { follower: string; followee: string }>(list: T[]) =>
  list.toSorted((a, b) => `${a.follower}>${a.followee}`.localeCompare(`${b.follower}>${b.followee}`));

export function maintenanceStoreContract(make: Make<MaintenanceWorld>): void {
  describe('MaintenanceStore contract', () => {
    it('activity and regeneration marks: every reader once, walked in chunks, with what was recorded', async () => {
      const world = await make();
      const [r1, r2, r3] = [fresh('r1'), fresh('r2'), fresh('r3')];
      await world.seen(r1, T0 + 1);
      await world.seen(r2, T0 + 2);
      await world.away(r2, T0 + 2);
      await world.seen(r3, T0 + 1);
      await world.regenerating(r3, T0 + 3);
      const mine = new Set([r1, r2, r3]);
      const activity = (await walk((start) => world.store.activityMarks({ limit: 2, ...(start ? { start } : {}) }), 2))
        .filter((m) => m.reader !== null && mine.has(m.reader))
        .map(({ next: _next, ...m }) => m)
        .toSorted((a, b) => a.reader!.localeCompare(b.reader!));
      expect(activity).toEqual(
        [
          { reader: r1, seenAt: T0 + 1, awayAt: null, regenerating: false },
          { reader: r2, seenAt: T0 + 2, awayAt: T0 + 2, regenerating: false },
          { reader: r3, seenAt: T0 + 3, awayAt: null, regenerating: true },
        ].toSorted((a, b) => a.reader.localeCompare(b.reader)),
      );
      const regen = (await walk((start) => world.store.regenerationMarks({ limit: 1, ...(start ? { start } : {}) }), 1))
        .filter((m) => m.reader !== null && mine.has(m.reader))
        .map(({ next: _next, ...m }) => m);
      expect(regen).toEqual([{ reader: r3, requestedAt: T0 + 3 }]);
    });

    it('counters: read with a version; set only while unchanged since that reading; only for accounts', async () => {
      const world = await make();
      const [ann, bob, ghost] = [fresh('ann'), fresh('bob'), fresh('ghost')];
      await world.account(ann, { following: 2 });
      await world.account(bob);
      const read = await world.store.counters([ann, bob, ghost]);
      expect([...read.keys()].toSorted()).toEqual([ann, bob].toSorted());
      expect(read.get(ann)?.following.value).toBe(2);
      expect(read.get(ann)?.followers.value).toBe(0);
      expect(read.get(bob)?.followers.value).toBe(0);
      const before = read.get(ann)!.following;
      expect(await world.store.setCounterIf(ann, 'following', before, 5)).toBe(true);
      expect(await world.store.setCounterIf(ann, 'following', before, 6)).toBe(false); // it moved: to 5
      expect((await world.store.counters([ann])).get(ann)?.following.value).toBe(5);
      // A counter never written: set from its reading as well.
      expect(await world.store.setCounterIf(bob, 'followers', read.get(bob)!.followers, 3)).toBe(true);
      expect((await world.store.counters([bob])).get(bob)?.followers.value).toBe(3);
      // A live follow's increment between the reading and the write: the write loses.
      const reading = (await world.store.counters([ann])).get(ann)!.followers;
      await world.count(ann, 'followers', 1);
      expect(await world.store.setCounterIf(ann, 'followers', reading, 9)).toBe(false);
      expect((await world.store.counters([ann])).get(ann)?.followers.value).toBe(1);
      expect(await world.store.counters([])).toEqual(new Map());
    });

    it('recount: follows and followers counted afresh from both sides; null past `max`', async () => {
      const world = await make();
      const [ann, bob, cy, dee] = [fresh('ann'), fresh('bob'), fresh('cy'), fresh('dee')];
      await world.follow(ann, bob, T0, 'both');
      await world.follow(ann, cy, T0, 'following');
      await world.follow(dee, ann, T0, 'followers');
      await world.follow(bob, ann, T0, 'both');
      expect(await world.store.recount(ann, 10)).toEqual({ following: 2, followers: 2 });
      expect(await world.store.recount(bob, 10)).toEqual({ following: 1, followers: 1 });
      expect(await world.store.recount(cy, 10)).toEqual({ following: 0, followers: 0 }); // no copy of ann's follow
      expect(await world.store.recount(ann, 1)).toBeNull();
      expect(await world.store.recount(fresh('nobody'), 10)).toEqual({ following: 0, followers: 0 });
    });

    it('followers-side copies: written with their since; dropped only while they hold it', async () => {
      const world = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      const since = String(T0 + 7);
      await world.store.copyFollowerSides([
        { follower: ann, followee: bob, since },
        { follower: cy, followee: bob, since },
      ]);
      expect((await world.store.recount(bob, 10))?.followers).toBe(2);
      expect(await world.store.dropFollowerSideIf({ follower: ann, followee: bob, since: String(T0 + 8) })).toBe(false);
      expect(await world.store.dropFollowerSideIf({ follower: ann, followee: bob, since })).toBe(true);
      expect(await world.store.dropFollowerSideIf({ follower: ann, followee: bob, since })).toBe(false);
      expect((await world.store.recount(bob, 10))?.followers).toBe(1);
    });

    it('relationsBatch: every user once, both sides of each follow with the other side as stored, and the counters', async () => {
      const world = await make();
      const [ann, bob, cy, eve, fay, dee] = ['ann', 'bob', 'cy', 'eve', 'fay', 'dee'].map((n) => fresh(n)) as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      for (const u of [ann, bob, cy]) await world.account(u);
      await world.account(eve, { followers: 7 }); // no relation at all: still walked, for its counters
      await world.count(ann, 'following', 2);
      await world.follow(ann, bob, T0 + 1, 'both');
      await world.follow(ann, cy, T0 + 2, 'following'); // its copy never written
      await world.follow(dee, ann, T0 + 3, 'followers'); // a copy whose follow is gone
      await world.follow(fay, bob, T0 + 4, 'both'); // fay has no account: relations, no counters
      const mine = new Set([ann, bob, cy, eve, fay, dee]);
      for (const limit of [2, 5, 100]) {
        const users = new Map([...(await relationsOf(world.store, limit))].filter(([u]) => mine.has(u)));
        expect([...users.keys()].toSorted(), `limit ${limit}`).toEqual([ann, bob, cy, eve, fay].toSorted());
        // An account's relations end in the batch that reads its counters. (A handle without an
        // account may stay marked open: a batch cut after its last relation cannot know it was the last.)
        for (const u of [ann, bob, cy, eve]) expect(users.get(u)?.complete, `${u}, limit ${limit}`).toBe(true);
        const s = (n: number) => String(T0 + n);
        expect(byFollow(users.get(ann)!.follows)).toEqual(
          byFollow([
            { follower: ann, followee: bob, since: s(1), copy: s(1) },
            { follower: ann, followee: cy, since: s(2), copy: null },
          ]),
        );
        expect(users.get(ann)!.followers).toEqual([{ follower: dee, followee: ann, since: s(3), truth: null }]);
        expect(users.get(bob)!.follows).toEqual([]);
        expect(byFollow(users.get(bob)!.followers)).toEqual(
          byFollow([
            { follower: ann, followee: bob, since: s(1), truth: s(1) },
            { follower: fay, followee: bob, since: s(4), truth: s(4) },
          ]),
        );
        expect(users.get(cy)).toMatchObject({ follows: [], followers: [] });
        expect(users.get(fay)).toMatchObject({ follows: [{ follower: fay, followee: bob, since: s(4), copy: s(4) }] });
        expect(users.get(fay)!.counters).toBeUndefined();
        expect(users.get(ann)!.counters?.following.value).toBe(2);
        expect(users.get(eve)).toMatchObject({ follows: [], followers: [] });
        expect(users.get(eve)!.counters?.followers.value).toBe(7);
        expect(users.get(eve)!.counters?.following.value).toBe(0);
      }
    });

    // The only case that writes feeds: the walks of the trim visit every feed of the store.
    it('feeds: every non-empty feed once, what lies past the cap; the drop spares an entry written again since', async () => {
      const world = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      const ids = (author: string, n: number, from = 0) =>
        Array.from({ length: n }, (_, i) => post(author, T0 + (from + i) * 1000).id);
      const annInbox = ids(fresh('x'), 5);
      await world.feed('inbox', ann, annInbox);
      await world.feed('inbox', bob, ids(fresh('y'), 2));
      await world.seen(cy, T0); // a reader with no entries: no feed to visit
      await world.feed('outbox', ann, ids(ann, 3));
      const visit = (feed: Feed, cap: number) =>
        walk((start) => world.store.feeds(feed, { limit: 1, cap, ...(start ? { start } : {}) }), 1);
      const first = await visit('inbox', 3);
      expect(first.map((v) => v.pastCap).toSorted()).toEqual([0, 2]);
      for (const v of first) await v.dropPastCap();
      expect((await visit('inbox', 3)).map((v) => v.pastCap)).toEqual([0, 0]);
      expect(await world.entries('inbox', ann)).toEqual(annInbox.toReversed().slice(0, 3));
      expect((await visit('outbox', 1)).map((v) => v.pastCap)).toEqual([2]);

      // An entry written again between the visit and the drop is spared (a refollow's backfill).
      const dan = fresh('dan');
      const danInbox = ids(fresh('z'), 4);
      await world.feed('inbox', dan, danInbox);
      const visits = await visit('inbox', 3);
      expect(visits.map((v) => v.pastCap).toSorted()).toEqual([0, 0, 1]);
      await world.feed('inbox', dan, [danInbox[0]!]); // the oldest, the one past the cap
      for (const v of visits) await v.dropPastCap();
      expect(await world.entries('inbox', dan)).toEqual(danInbox.toReversed());
      await world.feed('inbox', dan, []);
      const again = await visit('inbox', 3);
      for (const v of again) await v.dropPastCap();
      expect(await world.entries('inbox', dan)).toEqual(danInbox.toReversed().slice(0, 3));
    });
  });
}
