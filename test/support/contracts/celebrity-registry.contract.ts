// test/support/contracts/celebrity-registry.contract.ts — what CelebrityRegistry promises
// (shared/ports/feed-store.ts): nobody is a celebrity until flagged, and the flag goes both ways.
// Run on the fake and on HBase (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { describe, expect, it } from 'vitest';
import type { CelebrityRegistry } from '../../../shared/ports/feed-store.js';
import { fresh, type Make } from './fixtures.js';

export function celebrityRegistryContract(make: Make<CelebrityRegistry>): void {
  describe('CelebrityRegistry contract', () => {
    it('nobody is a celebrity until set; the flag goes both ways', async () => {
      const registry = await make();
      const ann = fresh('ann');
      expect(await registry.isCelebrity(ann)).toBe(false);
      await registry.setCelebrity(ann, true);
      await registry.setCelebrity(ann, true);
      expect(await registry.isCelebrity(ann)).toBe(true);
      await registry.setCelebrity(ann, false);
      expect(await registry.isCelebrity(ann)).toBe(false);
    });
  });
}
