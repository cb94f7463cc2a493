// test/support/contracts/outbox-store.contract.ts — what OutboxStore promises
// (shared/ports/feed-store.ts), through its interface only: an author's newest posts, and the
// windows of many authors for the read-time merge. Run on the fake and on HBase
// (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { describe, expect, it } from 'vitest';
import type { OutboxStore } from '../../../shared/ports/feed-store.js';
import { fresh, type Make, post, sorted, T0 } from './fixtures.js';

export function outboxStoreContract(make: Make<OutboxStore>): void {
  describe('OutboxStore contract', () => {
    it("recent: an author's newest entries first, at most `limit`, reposts with their original", async () => {
      const outbox = await make();
      const author = fresh('ann');
      const original = post(fresh('bob'), T0);
      const posts = [0, 1, 2, 3].map((i) => post(author, T0 + i * 1000));
      await outbox.add(author, { id: posts[1]!.id, repostOf: original.id });
      for (const i of [3, 0, 2]) await outbox.add(author, { id: posts[i]!.id });
      await outbox.add(author, { id: posts[0]!.id }); // again: nothing changes
      expect(await outbox.recent(author, 10)).toEqual([
        { id: posts[3]!.id },
        { id: posts[2]!.id },
        { id: posts[1]!.id, repostOf: original.id },
        { id: posts[0]!.id },
      ]);
      expect(await outbox.recent(author, 2)).toEqual([{ id: posts[3]!.id }, { id: posts[2]!.id }]);
      await outbox.remove(author, posts[3]!.id);
      await outbox.remove(author, post(author, T0 + 99).id); // never there
      expect((await outbox.recent(author, 1)).map((e) => e.id)).toEqual([posts[2]!.id]);
      expect(await outbox.recent(fresh('nobody'), 5)).toEqual([]);
    });

    it('recentOf / windowOf: the same window of each author, not merged; more if any has more; held counts all', async () => {
      const outbox = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      const original = post(fresh('cy'), T0);
      const a = [0, 1, 2].map((i) => post(ann, T0 + i * 1000));
      const b = [0, 1].map((i) => post(bob, T0 + 500 + i * 1000));
      for (const p of a) await outbox.add(ann, { id: p.id });
      await outbox.add(bob, { id: b[0]!.id });
      await outbox.add(bob, { id: b[1]!.id, repostOf: original.id });
      const both = await outbox.recentOf([ann, bob, ann], { limit: 2 });
      expect(both.more).toBe(true);
      expect(sorted(both.entries)).toEqual(sorted([a[2]!.id, a[1]!.id, b[1]!.id, b[0]!.id]));
      // Each author's entries in feed order within the answer.
      expect(both.entries.filter((id) => id.startsWith(`${ann}.`))).toEqual([a[2]!.id, a[1]!.id]);
      expect(both.reposts).toEqual({ [b[1]!.id]: original.id });
      const after = await outbox.recentOf([ann, bob], { limit: 5, after: a[1]!.id });
      expect(sorted(after.entries)).toEqual(sorted([a[0]!.id, b[0]!.id]));
      expect(after.more).toBe(false);
      expect(after.reposts).toBeUndefined();
      expect(await outbox.recentOf([], { limit: 5 })).toEqual({ entries: [], more: false });
      expect(await outbox.windowOf(ann, { limit: 1 })).toEqual({ entries: [a[2]!.id], more: true, held: 3 });
      expect(await outbox.windowOf(fresh('nobody'), { limit: 1 })).toEqual({ entries: [], more: false, held: 0 });
    });

    it("newerOf: each author's entries strictly newer than a post, at most `limit` each", async () => {
      const outbox = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      const a = [0, 1, 2, 3].map((i) => post(ann, T0 + i * 1000));
      const b = [0, 1].map((i) => post(bob, T0 + 1500 + i * 1000));
      for (const p of a) await outbox.add(ann, { id: p.id });
      for (const p of b) await outbox.add(bob, { id: p.id, repostOf: a[0]!.id });
      const than = a[1]!.id;
      const newer = await outbox.newerOf([ann, bob], than, 5);
      expect(sorted(newer.entries)).toEqual(sorted([a[3]!.id, a[2]!.id, b[1]!.id, b[0]!.id]));
      expect(newer.more).toBe(false);
      expect(newer.reposts).toBeUndefined(); // keys only
      const capped = await outbox.newerOf([ann, bob], than, 1);
      expect(sorted(capped.entries)).toEqual(sorted([a[3]!.id, b[1]!.id]));
      expect(capped.more).toBe(true);
      expect(await outbox.newerOf([], than, 5)).toEqual({ entries: [], more: false });
    });
  });
}
