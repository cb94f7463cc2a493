// test/support/contracts/relation-store.contract.ts — what RelationStore promises
// (shared/ports/feed-store.ts), through its interface only: a follow is put-if-absent on the
// following side, an unfollow a check on the since read, the followers side repaired on its own
// since, the walks visit every edge once whatever happens between pages, the newest-first list
// index moves with the edge, and the audience pages with their away marks. Run on the fake and on
// HBase (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { describe, expect, it } from 'vitest';
import type { AudienceMember, ListPosition, Page, RelationStore } from '../../../shared/ports/feed-store.js';
import { cursorPages, fresh, type Make, pages, sorted, T0 } from './fixtures.js';

/** Every member of an author's audience, following each call's last cursor, with each call's pages. */
async function wholeAudience(
  relations: RelationStore,
  author: string,
  opts: { pageSize: number; pages: number; segment?: { index: number; of: number } },
): Promise<{ members: AudienceMember[]; calls: Page<AudienceMember>[][] }> {
  const calls: Page<AudienceMember>[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 50; guard++) {
    const call: Page<AudienceMember>[] = [];
    for await (const page of relations.audiencePages(author, {
      pageSize: opts.pageSize,
      pages: opts.pages,
      ...(cursor === undefined ? {} : { cursor }),
      ...(opts.segment ? { segment: opts.segment } : {}),
    }))
      call.push(page);
    calls.push(call);
    cursor = call.at(-1)?.nextCursor;
    if (cursor === undefined) return { members: calls.flat().flatMap((p) => p.items), calls };
  }
  throw new Error('the audience did not end');
}

export function relationStoreContract(make: Make<RelationStore>): void {
  describe('RelationStore contract', () => {
    it('follow is put-if-absent on the following side, and writes the followers side with it', async () => {
      const relations = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      expect(await relations.edge(ann, bob)).toBeNull();
      expect(await relations.follow(ann, bob, T0)).toBe(true);
      expect(await relations.follow(ann, bob, T0 + 5)).toBe(false); // a repeat keeps the first since
      expect(await relations.edge(ann, bob)).toEqual({ handle: bob, since: T0 });
      expect(await relations.isFollowing(ann, bob)).toBe(true);
      expect(await relations.isFollowing(bob, ann)).toBe(false);
      expect(await relations.followerSide(ann, bob)).toBe(T0);
      expect(await relations.followerSide(bob, ann)).toBeNull();
    });

    it('of racing follows of one edge exactly one is true', async () => {
      const relations = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      const won = await Promise.all([0, 1, 2, 3].map((i) => relations.follow(ann, bob, T0 + i)));
      expect(won.filter(Boolean)).toHaveLength(1);
      const since = T0 + won.indexOf(true);
      expect(await relations.edge(ann, bob)).toEqual({ handle: bob, since });
      expect(await relations.followerSide(ann, bob)).toBe(since);
      const listed = await relations.listed(ann, 'following', 10);
      expect(listed.items).toEqual([{ handle: bob, since }]); // the losers' entries went
    });

    it('unfollow: only an edge that holds the since; both sides go; a refollow is a new edge', async () => {
      const relations = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      expect(await relations.unfollow(ann, bob)).toBe(false);
      await relations.follow(ann, bob, T0);
      expect(await relations.unfollow(ann, bob, T0 + 1)).toBe(false); // not the edge's since: it stays
      expect(await relations.isFollowing(ann, bob)).toBe(true);
      expect(await relations.unfollow(ann, bob, T0)).toBe(true);
      expect(await relations.unfollow(ann, bob, T0)).toBe(false);
      expect(await relations.edge(ann, bob)).toBeNull();
      expect(await relations.followerSide(ann, bob)).toBeNull();
      expect(await relations.follow(ann, bob, T0 + 10)).toBe(true);
      expect(await relations.unfollow(ann, bob)).toBe(true); // without a since: the store reads it
      expect(await relations.isFollowing(ann, bob)).toBe(false);
    });

    it('of racing unfollows exactly one is true', async () => {
      const relations = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      await relations.follow(ann, bob, T0);
      const won = await Promise.all([0, 1, 2].map(() => relations.unfollow(ann, bob, T0)));
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it('the followers side: removed only while it holds the since, restored from the following side', async () => {
      const relations = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      await relations.follow(ann, bob, T0);
      expect(await relations.removeFollowerSide(ann, bob, T0 + 1)).toBe(false);
      expect(await relations.followerSide(ann, bob)).toBe(T0);
      expect(await relations.removeFollowerSide(ann, bob, T0)).toBe(true);
      expect(await relations.followerSide(ann, bob)).toBeNull();
      expect(await relations.edge(ann, bob)).toEqual({ handle: bob, since: T0 }); // the truth stays
      expect((await relations.followers(bob, 10)).items).toEqual([]);
      expect((await relations.following(ann, 10)).items).toEqual([{ handle: bob, since: T0 }]);
      await relations.restoreFollowerSide(ann, bob, T0);
      await relations.restoreFollowerSide(ann, bob, T0); // idempotent
      expect(await relations.followerSide(ann, bob)).toBe(T0);
      expect((await relations.followers(bob, 10)).items).toEqual([{ handle: ann, since: T0 }]);
    });

    it('the list entries move with the followers side: removed with it, restored with it', async () => {
      const relations = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      await relations.follow(ann, bob, T0);
      await relations.removeFollowerSide(ann, bob, T0);
      expect((await relations.listed(ann, 'following', 10)).items).toEqual([]);
      expect((await relations.listed(bob, 'followers', 10)).items).toEqual([]);
      await relations.restoreFollowerSide(ann, bob, T0);
      expect((await relations.listed(ann, 'following', 10)).items).toEqual([{ handle: bob, since: T0 }]);
      expect((await relations.listed(bob, 'followers', 10)).items).toEqual([{ handle: ann, since: T0 }]);
    });

    it('following / followers: each edge once with its since, in pages whatever the order', async () => {
      const relations = await make();
      const ann = fresh('ann');
      const others = [0, 1, 2, 3, 4].map((i) => fresh(`u${i}`));
      for (const [i, o] of others.entries()) {
        await relations.follow(ann, o, T0 + i);
        await relations.follow(o, ann, T0 + 100 + i);
      }
      const following = (await cursorPages((c) => relations.following(ann, 2, c))).flat();
      expect(sorted(following.map((e) => `${e.handle}@${e.since}`))).toEqual(
        sorted(others.map((o, i) => `${o}@${T0 + i}`)),
      );
      const followers = (await cursorPages((c) => relations.followers(ann, 2, c))).flat();
      expect(sorted(followers.map((e) => `${e.handle}@${e.since}`))).toEqual(
        sorted(others.map((o, i) => `${o}@${T0 + 100 + i}`)),
      );
      // The order is the store's own, but the same on every read.
      const once = (await relations.following(ann, 10)).items;
      expect(following).toEqual(once);
      expect(await relations.following(fresh('nobody'), 5)).toEqual({ items: [] });
    });

    it("following: a page read after the cursor's edge went goes on after it", async () => {
      const relations = await make();
      const ann = fresh('ann');
      const others = [0, 1, 2, 3, 4].map((i) => fresh(`u${i}`));
      for (const o of others) await relations.follow(ann, o, T0);
      const order = (await relations.following(ann, 10)).items.map((e) => e.handle);
      const first = await relations.following(ann, 2);
      await relations.unfollow(ann, first.nextCursor!);
      const rest = (await cursorPages((c) => relations.following(ann, 2, c ?? first.nextCursor))).flat();
      expect(rest.map((e) => e.handle)).toEqual(order.slice(2));
    });

    it('listed: newest first by since (then by handle), paged strictly after the position', async () => {
      const relations = await make();
      const ann = fresh('ann');
      const [b, c, d, e] = ['b', 'c', 'd', 'e'].map((n) => fresh(n)) as [string, string, string, string];
      await relations.follow(ann, b, T0 + 1);
      await relations.follow(ann, c, T0 + 3);
      await relations.follow(ann, d, T0 + 2);
      await relations.follow(ann, e, T0 + 2);
      await relations.follow(b, ann, T0 + 7);
      const [first, second] = d < e ? [d, e] : [e, d];
      const expected = [
        { handle: c, since: T0 + 3 },
        { handle: first, since: T0 + 2 },
        { handle: second, since: T0 + 2 },
        { handle: b, since: T0 + 1 },
      ];
      expect(await relations.listed(ann, 'following', 10)).toEqual({ items: expected });
      const paged = await pages((after?: ListPosition) => relations.listed(ann, 'following', 3, after));
      expect(paged).toEqual([expected.slice(0, 3), expected.slice(3)]);
      expect(await relations.listed(ann, 'followers', 10)).toEqual({ items: [{ handle: b, since: T0 + 7 }] });
      await relations.unfollow(ann, first);
      expect((await relations.listed(ann, 'following', 10)).items.map((x) => x.handle)).toEqual([c, second, b]);
      expect(await relations.listed(first, 'followers', 10)).toEqual({ items: [] });
    });

    it('followSinces: the since of each edge asked, null where there is none, in the order asked', async () => {
      const relations = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      await relations.follow(ann, bob, T0);
      await relations.follow(cy, ann, T0 + 1);
      expect(
        await relations.followSinces([
          { follower: cy, followee: ann },
          { follower: bob, followee: ann },
          { follower: ann, followee: bob },
        ]),
      ).toEqual([T0 + 1, null, T0]);
      expect(await relations.followSinces([])).toEqual([]);
    });

    it("sampleEdges: from points across the store's order, edges as indexed, every edge turning up", async () => {
      const relations = await make();
      const ann = fresh('ann');
      const others = [0, 1, 2, 3].map((i) => fresh(`s${i}`));
      for (const [i, o] of others.entries()) await relations.follow(ann, o, T0 + i);
      const mine = new Set([ann, ...others]);
      const seen = new Set<string>();
      for (let k = 0; k < 16; k++) {
        for (const s of await relations.sampleEdges(k / 16, 1000)) {
          if (!mine.has(s.follower)) continue;
          expect(s.follower).toBe(ann);
          expect(s.since).toBe(T0 + others.indexOf(s.followee));
          seen.add(s.followee);
        }
      }
      expect(sorted([...seen])).toEqual(sorted(others));
    });

    it('audience: the followers fan-out writes to, with the away marks the sweep sets and clears', async () => {
      const relations = await make();
      const author = fresh('ann');
      const [bob, cy] = [fresh('bob'), fresh('cy')];
      await relations.follow(bob, author, T0);
      await relations.follow(cy, author, T0 + 1);
      const members = async () =>
        Object.fromEntries((await relations.audience(author, 10)).items.map((m) => [m.handle, m.away]));
      expect(await members()).toEqual({ [bob]: false, [cy]: false });
      await relations.markAway(bob, [author], T0 + 50);
      expect(await members()).toEqual({ [bob]: true, [cy]: false });
      await relations.clearAway(bob, [author]);
      expect(await members()).toEqual({ [bob]: false, [cy]: false });
      await relations.markAway(cy, [author], T0 + 60);
      await relations.unfollow(cy, author);
      await relations.follow(cy, author, T0 + 70); // a new edge starts unmarked
      expect(await members()).toEqual({ [bob]: false, [cy]: false });
      expect(await relations.audience(fresh('nobody'), 10)).toEqual({ items: [] });
    });

    it('audiencePages: every follower once across calls, at most `pages` pages, only the last with a cursor', async () => {
      const relations = await make();
      const author = fresh('ann');
      const followers = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => fresh(`f${i}`));
      for (const f of followers) await relations.follow(f, author, T0);
      for (const [pageSize, count] of [
        [2, 2],
        [3, 1],
        [8, 1],
      ] as const) {
        const { members, calls } = await wholeAudience(relations, author, { pageSize, pages: count });
        expect(sorted(members.map((m) => m.handle))).toEqual(sorted(followers));
        for (const call of calls) {
          expect(call.length).toBeLessThanOrEqual(count);
          for (const page of call.slice(0, -1)) expect(page.nextCursor).toBeUndefined();
          for (const page of call) expect(page.items.length).toBeLessThanOrEqual(pageSize + Math.floor(pageSize / 4));
        }
      }
    });

    it('audiencePages: a last page takes up to a quarter page more where that ends the list', async () => {
      const relations = await make();
      const author = fresh('ann');
      const followers = [0, 1, 2, 3, 4].map((i) => fresh(`f${i}`));
      for (const f of followers) await relations.follow(f, author, T0);
      const { calls } = await wholeAudience(relations, author, { pageSize: 4, pages: 1 });
      expect(calls).toHaveLength(1);
      expect(calls[0]).toHaveLength(1);
      expect(calls[0]![0]!.items).toHaveLength(5);
      expect(calls[0]![0]!.nextCursor).toBeUndefined();
    });

    it('audience segments: the slices of a follower list are disjoint and make up the whole', async () => {
      const relations = await make();
      const author = fresh('ann');
      const followers = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => fresh(`g${i}`));
      for (const f of followers) await relations.follow(f, author, T0);
      const slices: string[] = [];
      for (let index = 0; index < 3; index++) {
        const { members } = await wholeAudience(relations, author, {
          pageSize: 2,
          pages: 1,
          segment: { index, of: 3 },
        });
        slices.push(...members.map((m) => m.handle));
      }
      expect(sorted(slices)).toEqual(sorted(followers));
    });
  });
}
