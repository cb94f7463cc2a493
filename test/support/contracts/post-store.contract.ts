// test/support/contracts/post-store.contract.ts — what PostStore and IdempotencyStore promise
// (shared/ports/feed-store.ts), through their interfaces only: put-if-absent creation, tombstones
// that no retry gets past, the three lookups, an author's posts newest first and paged, edits as
// check-and-set on the version, counts that all count. Run on the fakes (test/unit/contracts.test.ts)
// and on HBase (test/integration/contracts.test.ts), so neither can drift from the other.
import { describe, expect, it } from 'vitest';
import { NO_COUNTS, type Post } from '../../../shared/domain/post.js';
import type { IdempotencyStore, PostStore } from '../../../shared/ports/feed-store.js';
import { countTallyCases } from './count-tally.contract.js';
import { cursorPages, fresh, type Make, post, T0 } from './fixtures.js';

/** A post as reads give it back: with its counts. */
const stored = (p: Post) => ({ ...p, counts: { ...NO_COUNTS } });

export function postStoreContract(make: Make<PostStore>): void {
  describe('PostStore contract', () => {
    it('create is put-if-absent: the same id again is refused and changes nothing', async () => {
      const posts = await make();
      const p = post(fresh('ann'), T0);
      expect(await posts.create(p)).toBe(true);
      expect(await posts.create({ ...p, body: 'another text' })).toBe(false);
      expect(await posts.get(p.id)).toEqual(stored(p));
      expect(await posts.lookup(p.id)).toEqual({ state: 'live', post: stored(p) });
    });

    it('keeps what a post carries: a repost its original, mentions and topics', async () => {
      const posts = await make();
      const author = fresh('ann');
      const original = post(fresh('bob'), T0);
      const p = post(author, T0 + 1, `@${author} #tea#`, {
        repostOf: original.id,
        mentions: [{ handle: author, start: 0, end: author.length + 1 }],
        topics: [{ name: 'tea', start: author.length + 2, end: author.length + 7 }],
      });
      expect(await posts.create(p)).toBe(true);
      expect(await posts.get(p.id)).toEqual(stored(p));
    });

    it('an id never created: get null, lookup absent, left out of getMany; so is one that is not a post id', async () => {
      const posts = await make();
      const never = post(fresh('ann'), T0).id;
      expect(await posts.get(never)).toBeNull();
      expect(await posts.lookup(never)).toEqual({ state: 'absent' });
      expect(await posts.getMany([never])).toEqual([]);
      expect(await posts.get('not-a-post-id')).toBeNull();
      expect(await posts.lookup('not-a-post-id')).toEqual({ state: 'absent' });
    });

    it('markDeleted: of two deletes one wins; the tombstone stays, so the id can never be created again', async () => {
      const posts = await make();
      const p = post(fresh('ann'), T0);
      await posts.create(p);
      expect(await posts.markDeleted(p.id, T0 + 5)).toBe(true);
      expect(await posts.markDeleted(p.id, T0 + 6)).toBe(false);
      expect(await posts.get(p.id)).toBeNull();
      expect(await posts.lookup(p.id)).toEqual({ state: 'deleted' });
      expect(await posts.create(p)).toBe(false);
      expect(await posts.lookup(p.id)).toEqual({ state: 'deleted' });
      expect(await posts.versions(p.id)).toBeNull();
    });

    it('getMany: the live posts found, in the order asked, missing and deleted ones left out', async () => {
      const posts = await make();
      const [a, b, c] = [fresh('ann'), fresh('bob'), fresh('cy')].map((h, i) => post(h, T0 + i));
      for (const p of [a!, b!, c!]) await posts.create(p);
      await posts.markDeleted(b!.id, T0 + 10);
      const missing = post(fresh('dee'), T0).id;
      expect((await posts.getMany([c!.id, missing, a!.id, b!.id])).map((p) => p.id)).toEqual([c!.id, a!.id]);
      expect(await posts.getMany([])).toEqual([]);
    });

    it("listByAuthor: the author's live posts newest first, paged by the last id, no cursor on the last page", async () => {
      const posts = await make();
      const author = fresh('ann');
      const mine = [0, 1, 2, 3, 4, 5].map((i) => post(author, T0 + i * 1000));
      for (const p of mine) await posts.create(p);
      await posts.create(post(fresh('bob'), T0 + 2500)); // another author's: never listed
      await posts.markDeleted(mine[2]!.id, T0 + 9000);
      const newestFirst = [5, 4, 3, 1, 0].map((i) => mine[i]!.id);
      const all = await posts.listByAuthor(author, 10);
      expect(all.items.map((p) => p.id)).toEqual(newestFirst);
      expect(all.nextCursor).toBeUndefined();
      expect(all.items[0]).toEqual(stored(mine[5]!));
      const paged = await cursorPages((cursor) => posts.listByAuthor(author, 2, cursor));
      for (const page of paged) expect(page.length).toBeLessThanOrEqual(2);
      expect(paged.flat().map((p) => p.id)).toEqual(newestFirst);
      expect(await posts.listByAuthor(fresh('nobody'), 5)).toEqual({ items: [] });
    });

    it("listByAuthor: a page read after the cursor's post was deleted goes on after it", async () => {
      const posts = await make();
      const author = fresh('ann');
      const mine = [0, 1, 2, 3, 4].map((i) => post(author, T0 + i * 1000));
      for (const p of mine) await posts.create(p);
      const first = await posts.listByAuthor(author, 2);
      expect(first.items.map((p) => p.id)).toEqual([mine[4]!.id, mine[3]!.id]);
      await posts.markDeleted(mine[3]!.id, T0 + 9000);
      const rest = await cursorPages((cursor) => posts.listByAuthor(author, 2, cursor ?? first.nextCursor));
      expect(rest.flat().map((p) => p.id)).toEqual([mine[2]!.id, mine[1]!.id, mine[0]!.id]);
    });

    it('recentByAuthor: at most `limit` posts, newest first, strictly after notOlderThan; the posts without counts', async () => {
      const posts = await make();
      const author = fresh('ann');
      const original = post(fresh('bob'), T0);
      const mine = [
        post(author, T0),
        post(author, T0 + 1000, 'a repost', { repostOf: original.id }),
        post(author, T0 + 2000),
      ];
      for (const p of mine) await posts.create(p);
      await posts.count(mine[2]!.id, 'likes', 1);
      expect(await posts.recentByAuthor(author, 10)).toEqual([mine[2], mine[1], mine[0]]);
      expect(await posts.recentByAuthor(author, 2)).toEqual([mine[2], mine[1]]);
      expect(await posts.recentByAuthor(author, 10, T0 + 1000)).toEqual([mine[2]]);
      expect(await posts.recentByAuthor(author, 10, T0 + 999)).toEqual([mine[2], mine[1]]);
      await posts.markDeleted(mine[2]!.id, T0 + 3000);
      expect(await posts.recentByAuthor(author, 1)).toEqual([mine[1]]);
      expect(await posts.recentByAuthor(author, 0)).toEqual([]);
    });

    it('edit: a check-and-set on the version; the replaced text is kept as its version, oldest first', async () => {
      const posts = await make();
      const author = fresh('ann');
      const p = post(author, T0, `hi @${author}`, { mentions: [{ handle: author, start: 3, end: 4 + author.length }] });
      await posts.create(p);
      expect(await posts.versions(p.id)).toEqual({ post: stored(p), earlier: [] });
      const first = { version: 0, body: p.body, mentions: p.mentions!, at: p.createdAt };
      expect(await posts.edit(p.id, 0, { body: 'one', editedAt: T0 + 10 }, first)).toBe(true);
      // Another edit from version 0 lost the race: nothing of it lands.
      expect(await posts.edit(p.id, 0, { body: 'lost', editedAt: T0 + 11 }, first)).toBe(false);
      const one = { id: p.id, author, body: 'one', createdAt: T0, version: 1, editedAt: T0 + 10, counts: NO_COUNTS };
      expect(await posts.get(p.id)).toEqual(one);
      const second = { version: 1, body: 'one', at: T0 + 10 };
      const topics = [{ name: 'tea', start: 0, end: 5 }];
      expect(await posts.edit(p.id, 1, { body: '#tea# two', topics, editedAt: T0 + 20 }, second)).toBe(true);
      expect(await posts.versions(p.id)).toEqual({
        post: { ...one, body: '#tea# two', topics, version: 2, editedAt: T0 + 20 },
        earlier: [first, second],
      });
    });

    it('edit: none lands on a deleted post, nor on one never created', async () => {
      const posts = await make();
      const p = post(fresh('ann'), T0);
      await posts.create(p);
      await posts.markDeleted(p.id, T0 + 1);
      const replaced = { version: 0, body: p.body, at: T0 };
      expect(await posts.edit(p.id, 0, { body: 'late', editedAt: T0 + 2 }, replaced)).toBe(false);
      expect(await posts.lookup(p.id)).toEqual({ state: 'deleted' });
      const never = post(fresh('bob'), T0);
      expect(await posts.edit(never.id, 1, { body: 'x', editedAt: T0 + 2 }, replaced)).toBe(false);
    });

    it('count: server-side increments, concurrent ones all counted; a count never reads below zero', async () => {
      const posts = await make();
      const p = post(fresh('ann'), T0);
      await posts.create(p);
      await Promise.all([1, 2, 3, 4, 5].map(() => posts.count(p.id, 'likes', 1)));
      await posts.count(p.id, 'reposts', 2);
      await posts.count(p.id, 'comments', -1);
      expect((await posts.get(p.id))?.counts).toEqual({ likes: 5, comments: 0, reposts: 2 });
      await posts.count(p.id, 'comments', 1); // back to zero, not to one
      await posts.count(p.id, 'likes', -2);
      expect((await posts.getMany([p.id]))[0]?.counts).toEqual({ likes: 3, comments: 0, reposts: 2 });
    });

    it('count: an increment never brings a deleted post back', async () => {
      const posts = await make();
      const p = post(fresh('ann'), T0);
      await posts.create(p);
      await posts.markDeleted(p.id, T0 + 1);
      await posts.count(p.id, 'likes', 1);
      expect(await posts.get(p.id)).toBeNull();
      expect(await posts.lookup(p.id)).toEqual({ state: 'deleted' });
      expect((await posts.listByAuthor(p.author, 5)).items).toEqual([]);
    });

    countTallyCases(async () => {
      const posts = await make();
      const p = post(fresh('ann'), T0);
      await posts.create(p);
      return {
        tally: posts,
        id: p.id,
        counter: 'likes' as const,
        add: (d, fact) => posts.count(p.id, 'likes', d, fact),
      };
    });
  });
}

export function idempotencyStoreContract(make: Make<IdempotencyStore>): void {
  describe('IdempotencyStore contract', () => {
    it("claim: the first request's claim holds; a later one is told what it was", async () => {
      const keys = await make();
      const user = fresh('ann');
      expect(await keys.claim(user, 'k1', { id: 'p1', fingerprint: 'h1' })).toBeNull();
      expect(await keys.claim(user, 'k1', { id: 'p2', fingerprint: 'h2' })).toEqual({ id: 'p1', fingerprint: 'h1' });
      expect(await keys.claim(user, 'k2', { id: 'p3', fingerprint: 'h3' })).toBeNull(); // another key
      expect(await keys.claim(fresh('bob'), 'k1', { id: 'p4', fingerprint: 'h4' })).toBeNull(); // another user
    });

    it('markCreated: a later claim says its id was created; a mark for another id confirms nothing', async () => {
      const keys = await make();
      const user = fresh('ann');
      await keys.claim(user, 'k', { id: 'p1', fingerprint: 'h' });
      await keys.markCreated(user, 'k', 'p9');
      expect(await keys.claim(user, 'k', { id: 'p2', fingerprint: 'h' })).toEqual({ id: 'p1', fingerprint: 'h' });
      await keys.markCreated(user, 'k', 'p1');
      expect(await keys.claim(user, 'k', { id: 'p2', fingerprint: 'h' })).toEqual({
        id: 'p1',
        fingerprint: 'h',
        created: true,
      });
    });

    it('of racing claims of one key exactly one is claimed now; the others are told its id', async () => {
      const keys = await make();
      const user = fresh('ann');
      const answers = await Promise.all(
        [1, 2, 3, 4].map((i) => keys.claim(user, 'race', { id: `p${i}`, fingerprint: `h${i}` })),
      );
      const winners = answers.flatMap((a, i) => (a === null ? [`p${i + 1}`] : []));
      expect(winners).toHaveLength(1);
      for (const a of answers) if (a !== null) expect(a.id).toBe(winners[0]);
    });
  });
}
