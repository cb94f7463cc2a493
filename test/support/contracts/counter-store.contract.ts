// test/support/contracts/counter-store.contract.ts — what CounterStore promises
// (shared/ports/feed-store.ts): account counters that start at zero and whose increments all
// count, concurrent ones too, with the tally of their facts. Run on the fake and on HBase
// (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { describe, expect, it } from 'vitest';
import type { CounterStore } from '../../../shared/ports/feed-store.js';
import { countTallyCases } from './count-tally.contract.js';
import { fresh, type Make } from './fixtures.js';

export function counterStoreContract(make: Make<CounterStore>): void {
  describe('CounterStore contract', () => {
    it('counters start at zero; increments all count, concurrent ones too; each counter apart', async () => {
      const counters = await make();
      const ann = fresh('ann');
      expect(await counters.get(ann, 'followers')).toBe(0);
      await Promise.all([1, 2, 3, 4, 5, 6].map(() => counters.add(ann, 'followers', 1)));
      await counters.add(ann, 'followers', -2);
      await counters.add(ann, 'posts', 3);
      await counters.add(ann, 'posts', 0);
      expect(await counters.get(ann, 'followers')).toBe(4);
      expect(await counters.get(ann, 'posts')).toBe(3);
      expect(await counters.get(ann, 'following')).toBe(0);
      expect(await counters.get(fresh('bob'), 'followers')).toBe(0);
    });

    countTallyCases(async () => {
      const counters = await make();
      const ann = fresh('ann');
      return {
        tally: counters,
        id: ann,
        counter: 'following' as const,
        add: (delta: number, fact?: string) => counters.add(ann, 'following', delta, fact),
      };
    });
  });
}
