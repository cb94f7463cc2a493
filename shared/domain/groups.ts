// shared/domain/groups.ts — 分组 and 特别关注: a user's private groups of people they follow. The
// rules of a group book (one owner's groups and their members) as pure functions: each change
// takes the book as read and gives the next one, or refuses with a clear error; the use case
// (use-cases/groups.ts) commits it with a check on the book's version, so two changes to one
// owner's groups never both land on the same book.
//
// Limits: 20 groups of one's own (Weibo's), 200 members each. A group page is the home inbox
// read through the group's members (use-cases/groups.ts), so a group of more than 200 of the
// people one follows is close to the home timeline itself; 200 also bounds the one row read.
// 特别关注 (special attention) is built in: it always exists, cannot be renamed or deleted, and
// its members' new posts also notify its owner.
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';

export const SPECIAL_GROUP_ID = 'special';
export const SPECIAL_GROUP_NAME = '特别关注';
export const GROUPS_MAX = 20;
export const GROUP_MEMBERS_MAX = 200;
export const GROUP_NAME_MAX = 20;
/** 特别关注 fans one notify message tells of a post (each fan costs it about 7 requests). */
export const SPECIAL_FANS_PER_MESSAGE = 100;
/** `special`, or `g` + 7 of [0-9a-z] (made at random by the create). */
export const GROUP_ID_PATTERN = /^(special|g[0-9a-z]{7})$/;

export interface Group {
  id: string;
  name: string;
  createdAt: number;
  /** member handle → when they were added (millis) */
  members: ReadonlyMap<string, number>;
}

/** One owner's groups: 特别关注 first, then their own in the order they were made. */
export interface GroupBook {
  groups: readonly Group[];
}

export const isSpecial = (groupId: string) => groupId === SPECIAL_GROUP_ID;

/** The book with 特别关注 in front, whatever was stored (it exists before its first member). */
export function withSpecial(groups: readonly Group[]): GroupBook {
  const special = groups.find((g) => isSpecial(g.id)) ?? {
    id: SPECIAL_GROUP_ID,
    name: SPECIAL_GROUP_NAME,
    createdAt: 0,
    members: new Map(),
  };
  const own = groups.filter((g) => !isSpecial(g.id)).sort((a, b) => a.createdAt - b.createdAt || cmp(a.id, b.id));
  return { groups: [{ ...special, name: SPECIAL_GROUP_NAME }, ...own] };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** How two names compare: NFKC, lower case, inner spaces as one. "Friends" and "ｆｒｉｅｎｄｓ " are one name. */
export const foldGroupName = (name: string) => name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();

/** A name as kept: trimmed, 1–20 code points, no control characters, not another group's (nor 特别关注). */
function checkName(book: GroupBook, name: string, exceptId?: string): string {
  const kept = name.normalize('NFC').replace(/\s+/gu, ' ').trim();
  const length = [...kept].length;
  if (length === 0) throw new InvalidInputError('A group needs a name', 'group_name_invalid');
  if (length > GROUP_NAME_MAX)
    throw new InvalidInputError(`A group name holds at most ${GROUP_NAME_MAX} characters`, 'group_name_invalid');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/u.test(kept))
    throw new InvalidInputError('A group name cannot hold control characters', 'group_name_invalid');
  const folded = foldGroupName(kept);
  if (book.groups.some((g) => g.id !== exceptId && foldGroupName(g.name) === folded))
    throw new ConflictError(`You already have a group named "${kept}"`, 'group_name_taken');
  return kept;
}

export function groupOf(book: GroupBook, groupId: string): Group {
  const group = book.groups.find((g) => g.id === groupId);
  if (!group) throw new NotFoundError(`No group "${groupId}"`, 'group_not_found');
  return group;
}

const replaceGroup = (book: GroupBook, next: Group): GroupBook => ({
  groups: book.groups.map((g) => (g.id === next.id ? next : g)),
});

export function createGroup(book: GroupBook, id: string, name: string, now: number): GroupBook {
  if (!GROUP_ID_PATTERN.test(id) || isSpecial(id)) throw new TypeError(`not a new group id: ${id}`);
  const own = book.groups.filter((g) => !isSpecial(g.id)).length;
  if (own >= GROUPS_MAX)
    throw new InvalidInputError(`You have ${GROUPS_MAX} groups, the most one may have`, 'group_limit_reached');
  const kept = checkName(book, name);
  return { groups: [...book.groups, { id, name: kept, createdAt: now, members: new Map() }] };
}

export function renameGroup(book: GroupBook, groupId: string, name: string): GroupBook {
  const group = groupOf(book, groupId);
  if (isSpecial(groupId)) throw new InvalidInputError(`${SPECIAL_GROUP_NAME} cannot be renamed`, 'group_built_in');
  return replaceGroup(book, { ...group, name: checkName(book, name, groupId) });
}

export function deleteGroup(book: GroupBook, groupId: string): GroupBook {
  groupOf(book, groupId);
  if (isSpecial(groupId)) throw new InvalidInputError(`${SPECIAL_GROUP_NAME} cannot be deleted`, 'group_built_in');
  return { groups: book.groups.filter((g) => g.id !== groupId) };
}

/** Adds a member (already there: unchanged). Whether the owner follows them is the use case's check. */
export function addMember(book: GroupBook, groupId: string, member: string, now: number): GroupBook {
  const group = groupOf(book, groupId);
  if (group.members.has(member)) return book;
  if (group.members.size >= GROUP_MEMBERS_MAX)
    throw new InvalidInputError(`A group holds at most ${GROUP_MEMBERS_MAX} people`, 'group_full');
  return replaceGroup(book, { ...group, members: new Map([...group.members, [member, now]]) });
}

const without = (group: Group, member: string): Group => {
  const members = new Map(group.members);
  members.delete(member);
  return { ...group, members };
};

export function removeMember(book: GroupBook, groupId: string, member: string): GroupBook {
  const group = groupOf(book, groupId);
  return group.members.has(member) ? replaceGroup(book, without(group, member)) : book;
}

/** Takes the member out of every group (an unfollow, a block, an erasure). */
export function removeEverywhere(book: GroupBook, member: string): GroupBook {
  return { groups: book.groups.map((g) => (g.members.has(member) ? without(g, member) : g)) };
}

/** The groups that hold the member. */
export const groupsHolding = (book: GroupBook, member: string): string[] =>
  book.groups.filter((g) => g.members.has(member)).map((g) => g.id);
