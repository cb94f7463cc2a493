// test/unit/people-search.test.ts — finding people (找人): the search form and terms, the ranking
// (shared/domain/people-search.ts), and the use cases that keep and read the index over in-memory
// fakes of the ports. test/integration/people.test.ts runs them on HBase, races forced.
import { describe, expect, it } from 'vitest';
import { rankPeople, searchForm, searchTerms, TERMS_MAX } from '../../shared/domain/people-search.js';
import { findPeople } from '../../shared/use-cases/people.js';
import { registerUser } from '../../shared/use-cases/register-user.js';
import { updateProfile } from '../../shared/use-cases/update-profile.js';
import { fakeFeed, FakePeople } from '../support/fakes/feed.js';
import { scryptPasswords } from '../../shared/auth/password.js';

describe('the search form and the terms a user is found by', () => {
  it('folds width and case (NFKC, no locale), collapses spaces, drops a leading @', () => {
    expect(searchForm('  ＡＮＮ　Ｌｅｅ ')).toBe('ann lee');
    expect(searchForm('@Bob_1')).toBe('bob_1');
    expect(searchForm('ﾜｲﾎﾞｰ')).toBe('ワイボー');
    expect(searchForm('İstanbul')).toBe('i̇stanbul');
    expect(searchForm('王小明')).toBe('王小明');
  });

  it('a user is found by the handle, the whole name and each later word, each once, at most TERMS_MAX', () => {
    expect(searchTerms('ann', 'Ann')).toEqual(['ann']);
    expect(searchTerms('jsmith', 'John  Smith')).toEqual(['jsmith', 'john smith', 'smith']);
    expect(searchTerms('wang', '王小明')).toEqual(['wang', '王小明']);
    expect(searchTerms('x', 'a b c d e f')).toHaveLength(TERMS_MAX);
  });

  it('ranks an exact handle or name first, then more followers, then by handle', () => {
    const people = [
      { handle: 'annabel', displayName: 'Annabel', followers: 900 },
      { handle: 'zed', displayName: 'ＡＮＮ', followers: 1 },
      { handle: 'ann', displayName: 'Ann Lee', followers: 5 },
      { handle: 'anna', displayName: 'Anna', followers: 900 },
    ];
    expect(rankPeople('ann', people).map((p) => p.handle)).toEqual(['ann', 'zed', 'anna', 'annabel']);
  });
});

describe('findPeople over the ports', () => {
  const world = async () => {
    const deps = { ...fakeFeed(), people: new FakePeople(), passwords: scryptPasswords };
    for (const [handle, displayName] of [
      ['ann', 'Ann Lee'],
      ['bob', '王小明'],
      ['cat', 'Annie'],
    ] as const) {
      await registerUser(deps, { handle, displayName, password: 'a long password' });
    }
    return deps;
  };

  it('finds by handle and name prefixes, case-insensitively; says whom the searcher follows; hides blocks either way', async () => {
    const deps = await world();
    expect((await findPeople(deps, '', 'AN', 10)).map((p) => p.face.handle).sort()).toEqual(['ann', 'cat']);
    expect((await findPeople(deps, '', '王小', 10)).map((p) => p.face.handle)).toEqual(['bob']);
    expect((await findPeople(deps, '', 'lee', 10)).map((p) => p.face.handle)).toEqual(['ann']);
    await deps.relations.follow('bob', 'ann', 1);
    expect((await findPeople(deps, 'bob', 'ann', 10)).map((p) => [p.face.handle, p.followedByYou])).toEqual([
      ['ann', true],
      ['cat', false],
    ]);
    await deps.blocks.add('block', 'cat', 'bob', 1);
    expect((await findPeople(deps, 'bob', 'ann', 10)).map((p) => p.face.handle)).toEqual(['ann']);
    expect((await findPeople(deps, '', 'ann', 10)).map((p) => p.face.handle)).toEqual(['ann', 'cat']);
  });

  it('a rename finds by the new name at once and no longer by the old; the old naming’s entries are gone', async () => {
    const deps = await world();
    await updateProfile(deps, 'bob', 'bob', { displayName: 'Robert' });
    expect(await findPeople(deps, '', '王', 10)).toEqual([]);
    expect((await findPeople(deps, '', 'rob', 10)).map((p) => p.face.displayName)).toEqual(['Robert']);
    expect(
      [...deps.people.entries.values()]
        .filter((e) => e.handle === 'bob')
        .map((e) => e.term)
        .sort(),
    ).toEqual(['bob', 'robert']);
  });

  it('an entry whose naming is not the row’s never shows (a rename that died after its entries)', async () => {
    const deps = await world();
    await deps.people.add('ann', ['zoe'], '0123456789abcdef');
    expect(await findPeople(deps, '', 'zoe', 10)).toEqual([]);
  });
});
