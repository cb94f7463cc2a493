// test/support/contracts/people-index.contract.ts — what PeopleIndex promises
// (shared/ports/people-index.ts): entries found by a prefix of their term, the exact term first,
// at most the bound asked; a repeat add changes nothing; a remove takes one naming's entries.
// Run on the fake and on HBase (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PeopleIndex } from '../../../shared/ports/people-index.js';
import { fresh, type Make } from './fixtures.js';

/** A naming version (16 hex digits, domain/people-search.ts). */
const naming = () => randomBytes(8).toString('hex');

export function peopleIndexContract(make: Make<PeopleIndex>): void {
  describe('PeopleIndex contract', () => {
    it('find: the entries whose term starts with the prefix, the exact term first, at most `bound`', async () => {
      const people = await make();
      const term = fresh('t'); // a term no other test uses
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      const [na, nb, nc] = [naming(), naming(), naming()];
      await people.add(ann, [`${term}xyz`, `${term}x`], na);
      await people.add(bob, [term], nb);
      await people.add(bob, [term], nb); // a repeat changes nothing
      await people.add(cy, [`${term}x`], nc);
      const found = await people.find(term, 10);
      expect(found[0]).toEqual({ term, handle: bob, naming: nb });
      expect(found.map((e) => `${e.term}/${e.handle}`).toSorted()).toEqual(
        [`${term}/${bob}`, `${term}x/${ann}`, `${term}x/${cy}`, `${term}xyz/${ann}`].toSorted(),
      );
      expect(found.findIndex((e) => e.term === `${term}x`)).toBeLessThan(
        found.findIndex((e) => e.term === `${term}xyz`),
      );
      expect(await people.find(`${term}x`, 2)).toHaveLength(2);
      expect((await people.find(`${term}xy`, 10)).map((e) => e.handle)).toEqual([ann]);
      expect(await people.find(`${term}q`, 10)).toEqual([]);
    });

    it('remove: only the entries of that naming go', async () => {
      const people = await make();
      const term = fresh('t');
      const ann = fresh('ann');
      const [old, now] = [naming(), naming()];
      await people.add(ann, [term, `${term}z`], old);
      await people.add(ann, [term], now);
      await people.remove(ann, [term, `${term}z`], old);
      expect(await people.find(term, 10)).toEqual([{ term, handle: ann, naming: now }]);
    });
  });
}
