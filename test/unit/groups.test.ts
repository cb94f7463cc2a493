// test/unit/groups.test.ts — the rules of a group book (shared/domain/groups.ts): limits, names,
// the built-in 特别关注, and taking someone out everywhere. On the real stack:
// test/integration/groups.test.ts.
import { describe, expect, it } from 'vitest';
import {
  addMember,
  createGroup,
  deleteGroup,
  GROUP_MEMBERS_MAX,
  GROUPS_MAX,
  groupsHolding,
  removeEverywhere,
  removeMember,
  renameGroup,
  SPECIAL_FANS_PER_MESSAGE,
  SPECIAL_GROUP_ID,
  withSpecial,
  type GroupBook,
} from '../../shared/domain/groups.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { fakeFeed } from '../support/fakes/feed.js';

const empty = withSpecial([]);
const id = (n: number) => `g${String(n).padStart(7, '0')}`;
const withGroups = (n: number): GroupBook => {
  let book = empty;
  for (let i = 0; i < n; i++) book = createGroup(book, id(i), `group ${i}`, i + 1);
  return book;
};

describe('a group book', () => {
  it('always has 特别关注 first, then the own groups in the order they were made', () => {
    const book = createGroup(createGroup(empty, id(2), 'b', 20), id(1), 'a', 30);
    expect(book.groups.map((g) => g.name)).toEqual(['特别关注', 'b', 'a']);
    expect(withSpecial([...book.groups].reverse()).groups.map((g) => g.name)).toEqual(['特别关注', 'b', 'a']);
  });

  it(`holds at most ${GROUPS_MAX} groups of one's own, ${GROUP_MEMBERS_MAX} members a group`, () => {
    const full = withGroups(GROUPS_MAX);
    expect(() => createGroup(full, id(99), 'one more', 99)).toThrow(
      expect.objectContaining({ code: 'group_limit_reached' }),
    );
    let book = withGroups(1);
    for (let i = 0; i < GROUP_MEMBERS_MAX; i++) book = addMember(book, id(0), `m${i}`, i);
    expect(() => addMember(book, id(0), 'late', 0)).toThrow(expect.objectContaining({ code: 'group_full' }));
    // Adding someone already there is no change, even when full.
    expect(addMember(book, id(0), 'm0', 5)).toBe(book);
  });

  it('names: 1–20 characters, unlike the others folded for case, width and spaces; control characters refused', () => {
    const book = createGroup(empty, id(1), '  Close   Friends ', 1);
    expect(book.groups[1]!.name).toBe('Close Friends');
    for (const taken of ['close friends', 'ＣＬＯＳＥ　ＦＲＩＥＮＤＳ', '特别关注'])
      expect(() => createGroup(book, id(2), taken, 2)).toThrow(expect.objectContaining({ code: 'group_name_taken' }));
    for (const bad of ['', '   ', 'x'.repeat(21), 'a\u0000b', 'a\u202eb'])
      expect(() => createGroup(book, id(2), bad, 2)).toThrow(expect.objectContaining({ code: 'group_name_invalid' }));
    expect(createGroup(book, id(2), '同学'.repeat(10), 2).groups).toHaveLength(3);
    // A rename may keep its own name (another case of it too).
    expect(renameGroup(book, id(1), 'close FRIENDS').groups[1]!.name).toBe('close FRIENDS');
  });

  it('特别关注 cannot be renamed or deleted; unknown groups are 404', () => {
    expect(() => renameGroup(empty, 'special', 'x')).toThrow(expect.objectContaining({ code: 'group_built_in' }));
    expect(() => deleteGroup(empty, 'special')).toThrow(expect.objectContaining({ code: 'group_built_in' }));
    expect(() => addMember(empty, id(1), 'bob', 1)).toThrow(expect.objectContaining({ code: 'group_not_found' }));
    expect(() => removeMember(empty, id(1), 'bob')).toThrow(expect.objectContaining({ code: 'group_not_found' }));
  });

  it('a person in several groups leaves them all at once', () => {
    let book = withGroups(2);
    for (const g of ['special', id(0), id(1)]) book = addMember(book, g, 'bob', 1);
    book = addMember(book, id(1), 'cat', 1);
    expect(groupsHolding(book, 'bob')).toEqual(['special', id(0), id(1)]);
    const after = removeEverywhere(book, 'bob');
    expect(groupsHolding(after, 'bob')).toEqual([]);
    expect(groupsHolding(after, 'cat')).toEqual([id(1)]);
  });
});

describe('特别关注 at fan-out', () => {
  it(`tells the fans in notify messages of at most ${SPECIAL_FANS_PER_MESSAGE}, so one post's first message stays bounded`, async () => {
    const deps = fakeFeed('star');
    const fans = Array.from({ length: 2 * SPECIAL_FANS_PER_MESSAGE + 50 }, (_, i) => `fan${i}`);
    await deps.groups.addHoldings('star', [
      ...fans.map((owner) => ({ owner, groupId: SPECIAL_GROUP_ID })),
      { owner: 'other', groupId: 'g0000001' }, // an ordinary group: no notice
    ]);
    await publishPost(deps, 'star', { body: 'news' });
    const fanout = deps.queue.sent.find((m) => m.type === 'fanout')!;
    deps.queue.sent.length = 0;
    await handleFanoutMessage(deps, fanout);
    const told = deps.queue.sent.flatMap((m) =>
      m.type === 'notify' && m.fact.kind === 'special' ? [m.fact.fans] : [],
    );
    expect(told.map((f) => f.length)).toEqual([SPECIAL_FANS_PER_MESSAGE, SPECIAL_FANS_PER_MESSAGE, 50]);
    expect(told.flat().sort()).toEqual([...fans].sort());
  });
});
