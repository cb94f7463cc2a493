// test/support/contracts/hot-store.contract.ts — what HotStore promises (shared/ports/hot-store.ts),
// run against its fake (test/unit/contracts.test.ts) and its HBase adapter
// (test/integration/contracts.test.ts). Times are recent: the adapter's entries live 3 days.
import { describe, expect, it } from 'vitest';
import { HOT_BUCKET_MS, hotBucketOf, type Engagement } from '../../../shared/domain/hot.js';
import type { HotStore } from '../../../shared/ports/hot-store.js';
import { fresh, type Make, post } from './fixtures.js';

export function hotStoreContract(make: Make<HotStore>): void {
  describe('HotStore contract', () => {
    it('engagements: by the hours asked; a person is one entry a post an hour, holding the latest; again changes nothing', async () => {
      const hot = await make();
      // The start of an hour two hours ago, so every time below falls in a known hour.
      const hour = (hotBucketOf(Date.now()) - 2) * HOT_BUCKET_MS;
      const [a, b] = [post(fresh('ha'), hour - 10_000), post(fresh('hb'), hour - 5_000)];
      const [amy, bob] = [fresh('amy'), fresh('bob')];
      await hot.engaged({ postId: a.id, handle: amy, at: hour + 2000 });
      await hot.engaged({ postId: a.id, handle: amy, at: hour + 1000 }); // an older one, delivered late
      await hot.engaged({ postId: a.id, handle: amy, at: hour + 2000 }); // a redelivery
      await hot.engaged({ postId: a.id, handle: bob, at: hour + 3000 });
      await hot.engaged({ postId: b.id, handle: amy, at: hour + HOT_BUCKET_MS + 1 }); // the next hour
      await hot.engaged({ postId: a.id, handle: amy, at: hour + HOT_BUCKET_MS + 5 });
      const mine = (list: Engagement[]) => list.filter((e) => e.postId === a.id || e.postId === b.id);
      const sorted = (list: Engagement[]) => list.toSorted((x, y) => x.at - y.at);
      const bucket = hotBucketOf(hour);
      expect(sorted(mine(await hot.engagements([bucket])))).toEqual([
        { postId: a.id, handle: amy, at: hour + 2000 },
        { postId: a.id, handle: bob, at: hour + 3000 },
      ]);
      expect(sorted(mine(await hot.engagements([bucket + 1])))).toEqual([
        { postId: b.id, handle: amy, at: hour + HOT_BUCKET_MS + 1 },
        { postId: a.id, handle: amy, at: hour + HOT_BUCKET_MS + 5 },
      ]);
      expect(mine(await hot.engagements([bucket, bucket + 1]))).toHaveLength(4);
      expect(mine(await hot.engagements([bucket - 1]))).toEqual([]);
      expect(await hot.engagements([])).toEqual([]);
    });

    it('ranking: what was saved last, replaced whole', async () => {
      const hot = await make();
      const [x, y] = [post(fresh('rx'), Date.now()), post(fresh('ry'), Date.now())];
      await hot.saveRanking({ rankedAt: 1, posts: [{ id: x.id, score: 2.5, people: 3 }] });
      expect(await hot.ranking()).toEqual({ rankedAt: 1, posts: [{ id: x.id, score: 2.5, people: 3 }] });
      const next = {
        rankedAt: 2,
        posts: [
          { id: y.id, score: 4.25, people: 5 },
          { id: x.id, score: 1, people: 3 },
        ],
      };
      await hot.saveRanking(next);
      expect(await hot.ranking()).toEqual(next);
      await hot.saveRanking({ rankedAt: 3, posts: [] });
      expect(await hot.ranking()).toEqual({ rankedAt: 3, posts: [] });
    });
  });
}
