// test/support/contracts/inbox-store.contract.ts — what InboxStore promises
// (shared/ports/feed-store.ts), through its interface only: a reader's entries in feed order
// (newest first across authors), windows strictly after a post, re-adds that change nothing,
// removals, the newer-than check, the size and oldest entry, celebrity markers and the activity
// marks. Run on the fake and on HBase (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { describe, expect, it } from 'vitest';
import type { InboxStore } from '../../../shared/ports/feed-store.js';
import { fresh, type Make, post, T0 } from './fixtures.js';

const ALL = { limit: 1000 };

export function inboxStoreContract(make: Make<InboxStore>): void {
  describe('InboxStore contract', () => {
    it('an inbox never written: no entries, no markers, no activity', async () => {
      const inbox = await make();
      const reader = fresh('ann');
      expect(await inbox.read(reader, ALL)).toEqual({ entries: [], more: false, celebrities: [] });
      expect(await inbox.stats(reader)).toEqual({ size: 0 });
      expect(await inbox.newer(reader, post(fresh('bob'), T0).id, 5)).toEqual({
        entries: [],
        more: false,
        celebrities: [],
      });
    });

    it('entries newest first across authors; a re-add changes nothing; one add reaches many readers', async () => {
      const inbox = await make();
      const [ann, cy] = [fresh('ann'), fresh('cy')];
      const [bob, dee] = [fresh('bob'), fresh('dee')];
      const posts = [post(bob, T0), post(dee, T0 + 1000), post(bob, T0 + 2000), post(dee, T0 + 3000)];
      for (const p of [posts[2]!, posts[0]!, posts[3]!, posts[1]!]) await inbox.add([ann, cy], { id: p.id });
      await inbox.add([ann], { id: posts[0]!.id });
      const newestFirst = [3, 2, 1, 0].map((i) => posts[i]!.id);
      expect(await inbox.read(ann, ALL)).toEqual({ entries: newestFirst, more: false, celebrities: [] });
      expect((await inbox.read(cy, ALL)).entries).toEqual(newestFirst);
      expect(await inbox.stats(ann)).toEqual({ size: 4, oldestMillis: T0 });
    });

    it('a window: at most `limit` entries strictly after the post `after`, and whether more follow', async () => {
      const inbox = await make();
      const reader = fresh('ann');
      const author = fresh('bob');
      const posts = [0, 1, 2, 3, 4].map((i) => post(author, T0 + i * 1000));
      await inbox.addMany(
        reader,
        posts.map((p) => ({ id: p.id })),
      );
      const ids = [4, 3, 2, 1, 0].map((i) => posts[i]!.id);
      expect(await inbox.read(reader, { limit: 2 })).toMatchObject({ entries: ids.slice(0, 2), more: true });
      expect(await inbox.read(reader, { limit: 2, after: ids[1] })).toMatchObject({
        entries: ids.slice(2, 4),
        more: true,
      });
      expect(await inbox.read(reader, { limit: 2, after: ids[3] })).toMatchObject({
        entries: ids.slice(4),
        more: false,
      });
      expect(await inbox.read(reader, { limit: 3, after: ids[2] })).toMatchObject({
        entries: ids.slice(3),
        more: false,
      });
      // `after` need not be in the inbox: its place in feed order decides.
      const between = post(fresh('cy'), T0 + 2500).id;
      expect((await inbox.read(reader, { limit: 10, after: between })).entries).toEqual(ids.slice(2));
    });

    it("reposts: a window carries each of its reposts' original", async () => {
      const inbox = await make();
      const reader = fresh('ann');
      const original = post(fresh('bob'), T0);
      const repost = post(fresh('cy'), T0 + 1000);
      const plain = post(fresh('dee'), T0 + 2000);
      await inbox.add([reader], { id: repost.id, repostOf: original.id });
      await inbox.add([reader], { id: plain.id });
      expect(await inbox.read(reader, ALL)).toEqual({
        entries: [plain.id, repost.id],
        more: false,
        reposts: { [repost.id]: original.id },
        celebrities: [],
      });
      expect(await inbox.read(reader, { limit: 1 })).toEqual({ entries: [plain.id], more: true, celebrities: [] });
    });

    it('remove takes one post from each reader given; purgeAuthor every entry of one author, counted', async () => {
      const inbox = await make();
      const [ann, cy] = [fresh('ann'), fresh('cy')];
      const [bob, dee] = [fresh('bob'), fresh('dee')];
      const posts = [post(bob, T0), post(dee, T0 + 1000), post(bob, T0 + 2000)];
      await inbox.addManyToReaders(
        [ann, cy],
        posts.map((p) => ({ id: p.id })),
      );
      await inbox.remove([ann], posts[1]!.id);
      await inbox.remove([ann], post(bob, T0 + 5).id); // never there: nothing happens
      expect((await inbox.read(ann, ALL)).entries).toEqual([posts[2]!.id, posts[0]!.id]);
      expect((await inbox.read(cy, ALL)).entries).toEqual([posts[2]!.id, posts[1]!.id, posts[0]!.id]);
      expect(await inbox.purgeAuthor(cy, bob)).toBe(2);
      expect(await inbox.purgeAuthor(cy, bob)).toBe(0);
      expect((await inbox.read(cy, ALL)).entries).toEqual([posts[1]!.id]);
      expect(await inbox.stats(cy)).toEqual({ size: 1, oldestMillis: T0 + 1000 });
    });

    it('newer: the entries strictly newer than a post, at most `limit`, and the celebrity markers', async () => {
      const inbox = await make();
      const reader = fresh('ann');
      const author = fresh('bob');
      const posts = [0, 1, 2, 3, 4].map((i) => post(author, T0 + i * 1000));
      await inbox.addMany(
        reader,
        posts.map((p) => ({ id: p.id })),
      );
      const celeb = fresh('star');
      await inbox.addCelebrity([reader], celeb);
      expect(await inbox.newer(reader, posts[1]!.id, 10)).toEqual({
        entries: [posts[4]!.id, posts[3]!.id, posts[2]!.id],
        more: false,
        celebrities: [celeb],
      });
      expect(await inbox.newer(reader, posts[1]!.id, 2)).toEqual({
        entries: [posts[4]!.id, posts[3]!.id],
        more: true,
        celebrities: [celeb],
      });
      expect(await inbox.newer(reader, posts[4]!.id, 10)).toEqual({ entries: [], more: false, celebrities: [celeb] });
    });

    it('celebrity markers: added for many readers, removed, read beside the entries', async () => {
      const inbox = await make();
      const [ann, cy] = [fresh('ann'), fresh('cy')];
      const [s1, s2] = [fresh('star'), fresh('star')];
      await inbox.addCelebrity([ann, cy], s1);
      await inbox.addCelebrity([ann], s2);
      await inbox.addCelebrity([ann], s2);
      expect((await inbox.read(ann, ALL)).celebrities.toSorted()).toEqual([s1, s2].toSorted());
      await inbox.removeCelebrity([ann, cy], s1);
      expect((await inbox.read(ann, ALL)).celebrities).toEqual([s2]);
      expect((await inbox.read(cy, ALL)).celebrities).toEqual([]);
      expect(await inbox.stats(ann)).toEqual({ size: 0 }); // markers are not entries
    });

    it('activity: the last read, the rebuild flag set with a read and cleared alone', async () => {
      const inbox = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      await inbox.markSeen(ann, T0);
      await inbox.markSeen(ann, T0 + 10);
      await inbox.markSeen(bob, T0 + 5);
      expect(await inbox.lastSeen([ann, bob, cy])).toEqual(
        new Map([
          [ann, T0 + 10],
          [bob, T0 + 5],
        ]),
      );
      expect(await inbox.lastSeen([])).toEqual(new Map());
      expect(await inbox.read(ann, ALL)).toEqual({ entries: [], more: false, celebrities: [], lastSeen: T0 + 10 });
      await inbox.markRegenerating(ann, T0 + 20);
      expect(await inbox.read(ann, ALL)).toMatchObject({ lastSeen: T0 + 20, regeneratingSince: T0 + 20 });
      await inbox.clearRegenerating(ann);
      const after = await inbox.read(ann, ALL);
      expect(after.lastSeen).toBe(T0 + 20);
      expect(after.regeneratingSince).toBeUndefined();
      await inbox.markAway(ann, T0 + 20); // a mark for the sweep: nothing a read shows
      expect(await inbox.read(ann, ALL)).toEqual({ entries: [], more: false, celebrities: [], lastSeen: T0 + 20 });
    });
  });
}
