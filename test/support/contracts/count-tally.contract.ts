// test/support/contracts/count-tally.contract.ts — the CountTally promises (shared/ports/feed-store.ts)
// that PostStore and CounterStore both make: a change counted with its fact leaves that fact's
// mark in its direction, and a claim is put-if-absent or a takeover of a stale one, with exactly
// one winner among racing claimers. Declared inside the two stores' contracts.
import { expect, it } from 'vitest';
import type { CountTally } from '../../../shared/ports/feed-store.js';

/** A counted thing on a store: its id, one of its counters, and the store's way to count it. */
export interface Counted<C extends string> {
  tally: CountTally<C>;
  id: string;
  counter: C;
  add(delta: number, fact?: string): Promise<void>;
}

export function countTallyCases<C extends string>(counted: () => Promise<Counted<C>>): void {
  it('tally: a change counted with its fact marks that fact in its direction, and only then', async () => {
    const { tally, id, counter, add } = await counted();
    expect(await tally.tallied(id, counter, 'f1')).toEqual({ added: false, removed: false });
    await add(1, 'f1');
    expect(await tally.tallied(id, counter, 'f1')).toEqual({ added: true, removed: false });
    await add(-1, 'f1');
    expect(await tally.tallied(id, counter, 'f1')).toEqual({ added: true, removed: true });
    await add(1); // no fact: no mark anywhere
    await add(-1, 'f2');
    expect(await tally.tallied(id, counter, 'f2')).toEqual({ added: false, removed: true });
    expect(await tally.tallied(id, counter, 'f3')).toEqual({ added: false, removed: false });
  });

  it('claim: put-if-absent, a takeover only of a claim stamped before staleBefore, each direction apart', async () => {
    const { tally, id, counter } = await counted();
    expect(await tally.claim(id, counter, 'f', 1, 100, 0)).toBe(true);
    expect(await tally.claim(id, counter, 'f', 1, 200, 100)).toBe(false); // held at 100: not before 100
    expect(await tally.claim(id, counter, 'f', 1, 300, 101)).toBe(true); // stale: taken over
    expect(await tally.claim(id, counter, 'f', 1, 400, 300)).toBe(false); // the taker's claim holds
    expect(await tally.claim(id, counter, 'f', -1, 400, 0)).toBe(true); // the other direction is its own
    expect(await tally.claim(id, counter, 'g', 1, 400, 0)).toBe(true); // and so is another fact
  });

  it('claim: of racing claimers exactly one wins, fresh or taking a stale claim over', async () => {
    const { tally, id, counter } = await counted();
    const fresh = await Promise.all([1, 2, 3, 4, 5].map((i) => tally.claim(id, counter, 'race', 1, 1000 + i, 0)));
    expect(fresh.filter(Boolean)).toHaveLength(1);
    const takeover = await Promise.all([1, 2, 3, 4, 5].map((i) => tally.claim(id, counter, 'race', 1, 5000 + i, 4000)));
    expect(takeover.filter(Boolean)).toHaveLength(1);
  });
}
