// test/integration/people.test.ts — finding people (找人) on the real HBase adapters: prefixes of
// handles and names (CJK, full-width), the ranking, the search's two round trips, and the races of
// a rename's index rows and its user row forced step by step (test/support/interleave.ts;
// invariant P in docs/consistency.md).
import { performance } from 'node:perf_hooks';
import { describe, expect, inject, it } from 'vitest';
import { HBasePeopleIndex } from '../../shared/adapters/hbase/hbase-people-index.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseRestClient, type HBaseRequestEvent } from '../../shared/hbase/index.js';
import { sequentialDepth } from '../../shared/observability/round-trips.js';
import { findPeople, type PeopleDeps } from '../../shared/use-cases/people.js';
import { registerUser } from '../../shared/use-cases/register-user.js';
import type { StepHook } from '../../shared/use-cases/steps.js';
import { updateProfile } from '../../shared/use-cases/update-profile.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';
import { scryptPasswords } from '../../shared/auth/password.js';
import type { Passwords } from '../../shared/ports/credentials.js';

const ns = `it_people_${Date.now().toString(36)}`;
const requests: (HBaseRequestEvent & { end: number })[] = [];
const hbase = new HBaseRestClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: (e) => requests.push({ ...e, end: performance.now() }),
});
const stores = hbaseFeedStores(hbase, ns);
const people = new HBasePeopleIndex(hbase, ns);
const gate = interleaver();
const deps: PeopleDeps & { step: StepHook; passwords: Passwords } = {
  ...stores,
  people,
  passwords: scryptPasswords,
  step: gate.hook,
};
useNamespace(hbase, ns);

let run = 0;
/** Registers `names` (display names) under fresh handles `<base>_<run>`; returns the handles. */
async function register<N extends [base: string, displayName: string][]>(
  ...people: N
): Promise<{ [K in keyof N]: string }> {
  const tag = (run++).toString(36);
  const handles = people.map(([base]) => `${base}_${tag}`);
  for (const [i, [, displayName]] of people.entries())
    await registerUser(deps, { handle: handles[i]!, displayName, password: 'a long password' });
  return handles as { [K in keyof N]: string };
}
const found = async (q: string, searcher = '') => (await findPeople(deps, searcher, q, 30)).map((p) => p.face.handle);
/** The index rows of `handle` under `term` (every naming), as stored. */
const rowsOf = async (handle: string, term: string) =>
  (await people.find(term, 1000)).filter((e) => e.handle === handle && e.term === term);

describe('find people (找人)', () => {
  it('finds by prefixes of handles, names and later words of names; CJK and full-width; exact first, then followers', async () => {
    const [wang, ann, annie, lee, hall, bell] = await register(
      ['wang', '王小明'],
      ['ann', 'Ann Smith'],
      ['annie', 'Annie'],
      ['lee', 'Ｌｅｅ'],
      ['hall', 'Annie Hall'],
      ['bell', 'Annie Bell'],
    );
    expect(await found('王')).toContain(wang);
    expect(await found('王小明')).toContain(wang);
    expect(await found('小明')).not.toContain(wang); // a CJK name is one term
    expect(await found('SMI')).toContain(ann);
    expect(await found('lee')).toContain(lee); // the name was full-width
    expect(await found(`@${ann}`)).toEqual([ann]);
    // The exact name first, then by followers.
    await stores.counters.add(hall, 'followers', 2);
    await stores.counters.add(bell, 'followers', 1);
    expect(await found('annie')).toEqual([annie, hall, bell]);
    expect(await found('zzz_nobody')).toEqual([]);
  });

  it('with a token: whom you follow says so, and nobody you block or who blocks you shows', async () => {
    const [a, b, c] = await register(['pa', 'Pat One'], ['pb', 'Pat Two'], ['pc', 'Pat Three']);
    await stores.relations.follow(a, b, Date.now());
    await stores.blocks.add('block', c, a, Date.now());
    const seen = await findPeople(deps, a, 'pat', 30);
    expect(seen.filter((p) => [a, b, c].includes(p.face.handle)).map((p) => [p.face.handle, p.followedByYou])).toEqual([
      [a, false],
      [b, true],
    ]);
  });

  it('reads in 2 round trips: the index scan, then the users, your edges and the visibility rule side by side', async () => {
    const [a] = await register(['rt', 'Round Trip'], ['rt2', 'Round Trip Two']);
    const from = requests.length;
    expect((await findPeople(deps, a, 'round', 30)).length).toBeGreaterThanOrEqual(2);
    const calls = requests.slice(from);
    expect(sequentialDepth(calls.map((c) => ({ start: c.end - c.durationMs, end: c.end })))).toBe(2);
    expect(calls).toHaveLength(4);
  });

  it('forced: a rename held after its new rows finds by the old name only; held after its row write, by the new only — before the old rows are gone', async () => {
    const [h] = await register(['ren', 'Oldname']);
    const indexed = gate.holdAt('rename.indexed', (d) => d.handle === h);
    const renaming = updateProfile(deps, h, h, { displayName: 'Newname' });
    await indexed.reached;
    expect(await found('oldname')).toEqual([h]);
    expect(await found('newname')).toEqual([]); // its rows are there, its naming is not yet the row's
    expect(await rowsOf(h, 'newname')).toHaveLength(1);
    const won = gate.holdAt('rename.won', (d) => d.handle === h);
    indexed.release();
    await won.reached;
    expect(await rowsOf(h, 'oldname')).toHaveLength(1); // not yet removed…
    expect(await found('oldname')).toEqual([]); // …and never found again
    expect(await found('newname')).toEqual([h]);
    won.release();
    await renaming;
    expect(await rowsOf(h, 'oldname')).toEqual([]);
  });

  it('forced: two renames at once — the one held after its rows loses to one that runs inside, removes its rows and renames again on top: its name is the one found, neither other', async () => {
    const [h] = await register(['two', 'First']);
    const held = gate.holdAt('rename.indexed', (d) => d.handle === h);
    const slow = updateProfile(deps, h, h, { displayName: 'Slow' });
    await held.reached;
    await updateProfile(deps, h, h, { displayName: 'Fast' });
    expect(await found('fast')).toEqual([h]);
    held.release();
    expect((await slow).displayName).toBe('Slow');
    expect(await found('slow')).toEqual([h]);
    expect(await found('fast')).toEqual([]);
    expect(await found('first')).toEqual([]);
    // Only the current naming's rows are left: the loser's first rows and both old namings' went.
    expect(await rowsOf(h, 'slow')).toHaveLength(1);
    expect([...(await rowsOf(h, 'fast')), ...(await rowsOf(h, 'first'))]).toEqual([]);
    expect(await rowsOf(h, h)).toHaveLength(1);
  });

  it('a rename that dies after its row write (its old rows never removed) is not found by the old name', async () => {
    const [h] = await register(['die', 'Before']);
    const dying: PeopleDeps & { step: StepHook } = {
      ...deps,
      step: async (point, d) => {
        if (point === 'rename.won' && d.handle === h) throw new Error('the container died here');
      },
    };
    await expect(updateProfile(dying, h, h, { displayName: 'After' })).rejects.toThrow('died');
    expect(await rowsOf(h, 'before')).toHaveLength(1);
    expect(await found('before')).toEqual([]);
    expect(await found('after')).toEqual([h]);
  });

  it('forced: a registration that loses the handle to one inside its gap leaves nothing findable and removes its rows', async () => {
    const h = `race_${(run++).toString(36)}`;
    const held = gate.holdAt('register.indexed', (d) => d.handle === h);
    const loser = registerUser(deps, { handle: h, displayName: 'Loser Name', password: 'a long password' });
    await held.reached;
    await registerUser(
      { ...deps, step: async () => {} },
      { handle: h, displayName: 'Winner Name', password: 'a long password' },
    );
    held.release();
    await expect(loser).rejects.toMatchObject({ code: 'handle_taken' });
    expect(await found('loser')).toEqual([]);
    expect(await rowsOf(h, 'loser name')).toEqual([]);
    expect(await found('winner')).toEqual([h]);
    expect(await rowsOf(h, h)).toHaveLength(1); // the winner's handle row; the loser's went
  });
});
