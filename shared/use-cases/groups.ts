// shared/use-cases/groups.ts — 分组 and 特别关注: a user's private groups of people they follow,
// and each group's timeline. Only the owner sees a group or its members (every route acts as
// the token's user).
//
// A group timeline is the home timeline read through the group: the reader's inbox (the same
// one get) kept to the entries the members wrote or reposted, and the outboxes of the members
// who are celebrities, then the same details stage as home (reposts folded, blocks and mutes,
// deleted posts, accounts that left). So a group converges with home (invariant A) and
// membership holds at read: a member added shows at once with whatever home holds of them (their
// recent posts, backfilled when they were followed), a member taken out leaves at once, and no
// fan-out ever writes more for a group. Its depth is what the inbox holds: the newest
// `inboxCap` entries of home (celebrity members: their whole outbox), never a trimmed entry.
//
// The book (every group of one owner) is one row, changed by a check on its version
// (ports/group-store.ts): changes to one owner's groups serialise. Members ⊆ the people the owner
// follows (invariant X, docs/consistency.md): an add checks the edge, commits, then checks the
// edge again and takes the member out if an unfollow came between; the unfollow (and the block,
// which unfollows both ways) takes the member out after its edge is gone, and its settle again W
// later; the members list shows only followed members meanwhile.
import { randomBytes } from 'node:crypto';
import {
  addMember,
  createGroup as createIn,
  deleteGroup as deleteIn,
  groupOf,
  GROUP_ID_PATTERN,
  groupsHolding,
  isSpecial,
  removeEverywhere,
  removeMember,
  renameGroup as renameIn,
  type Group,
  type GroupBook,
} from '../domain/groups.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.js';
import { authorOfPostId, isPostId } from '../domain/post.js';
import type { ReadBook } from '../ports/group-store.js';
import { decodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { SPARE_ENTRIES, timelineOf, type HomeTimelineDeps, type TimelinePage } from './home-timeline.js';
import { readFaces, type Face } from './faces.js';
import { atStep } from './steps.js';
import { requireUser } from './users.js';

export type GroupDeps = Pick<FeedDeps, 'groups' | 'users' | 'relations' | 'step'> & Partial<Pick<FeedDeps, 'pictures'>>;
export type GroupTimelineDeps = HomeTimelineDeps & Pick<FeedDeps, 'groups'>;

export interface GroupSummary {
  id: string;
  name: string;
  special: boolean;
  members: number;
  createdAt: number;
  /** With `member` asked: whether this group holds them. */
  hasMember?: boolean;
}

/** Commits a change of the book, reading again while other changes land first. */
const MAX_ATTEMPTS = 8;

async function changeBook(
  { groups, step }: Pick<FeedDeps, 'groups' | 'step'>,
  owner: string,
  next: (book: GroupBook) => GroupBook,
  beforeCommit?: (seen: ReadBook, next: GroupBook) => Promise<void>,
): Promise<{ seen: ReadBook; next: GroupBook }> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const seen = await groups.read(owner);
    const changed = next(seen.book);
    if (changed === seen.book) return { seen, next: changed };
    await beforeCommit?.(seen, changed);
    await atStep({ step }, 'group.book-read', { owner });
    if (await groups.commit(owner, seen, changed)) return { seen, next: changed };
  }
  throw new ConflictError('Your groups are changing in another request; try again', 'groups_busy');
}

const summaryOf = (g: Group, member?: string): GroupSummary => ({
  id: g.id,
  name: g.name,
  special: isSpecial(g.id),
  members: g.members.size,
  createdAt: g.createdAt,
  ...(member === undefined ? {} : { hasMember: g.members.has(member) }),
});

function checkGroupId(groupId: string): void {
  if (!GROUP_ID_PATTERN.test(groupId)) throw new NotFoundError(`No group "${groupId}"`, 'group_not_found');
}

/** The owner's groups, 特别关注 first; with `member`, whether each holds them (the follow button's picker). */
export async function listGroups(deps: GroupDeps, owner: string, member?: string): Promise<GroupSummary[]> {
  const { book } = await deps.groups.read(owner);
  return book.groups.map((g) => summaryOf(g, member));
}

export async function createGroup(deps: GroupDeps, owner: string, name: string, now = Date.now()) {
  const id = `g${randomBytes(8).readBigUInt64BE().toString(36).padStart(7, '0').slice(-7)}`;
  const { next } = await changeBook(deps, owner, (book) => createIn(book, id, name, now));
  return summaryOf(groupOf(next, id));
}

export async function renameGroup(deps: GroupDeps, owner: string, groupId: string, name: string) {
  checkGroupId(groupId);
  const { next } = await changeBook(deps, owner, (book) => renameIn(book, groupId, name));
  return summaryOf(groupOf(next, groupId));
}

/** Deletes a group of one's own (its members' index entries go after it); the groups left. */
export async function deleteGroup(deps: GroupDeps, owner: string, groupId: string): Promise<GroupSummary[]> {
  checkGroupId(groupId);
  const { seen, next } = await changeBook(deps, owner, (book) => deleteIn(book, groupId));
  const gone = seen.book.groups.find((g) => g.id === groupId);
  await Promise.all([...(gone?.members.keys() ?? [])].map((m) => deps.groups.removeHoldings(m, [{ owner, groupId }])));
  return next.groups.map((g) => summaryOf(g));
}

/** A group's members, newest added first: only people the owner still follows (X holds at read). */
export async function groupMembers(
  deps: GroupDeps,
  owner: string,
  groupId: string,
): Promise<(Face & { addedAt: number })[]> {
  checkGroupId(groupId);
  const { book } = await deps.groups.read(owner);
  const group = groupOf(book, groupId);
  const members = [...group.members].sort((a, b) => b[1] - a[1]);
  const [sinces, faces] = await Promise.all([
    deps.relations.followSinces(members.map(([m]) => ({ follower: owner, followee: m }))),
    readFaces(
      deps,
      members.map(([m]) => m),
    ),
  ]);
  return members.flatMap(([m, addedAt], i) => {
    const face = faces.get(m);
    return sinces[i] !== null && face ? [{ ...face, addedAt }] : [];
  });
}

/**
 * Adds someone the owner follows to a group (idempotent). Steps: the group id's shape → the member
 * exists (404) and is followed (422 `not_following`), side by side → the index entry → the
 * commit → the edge read again: an unfollow that came between took nobody out (the member was
 * not in yet), so this takes them out itself (X).
 */
export async function addToGroup(deps: GroupDeps, owner: string, groupId: string, member: string, now = Date.now()) {
  checkGroupId(groupId);
  if (member === owner) throw new InvalidInputError('You cannot add yourself to a group', 'not_following');
  const [, following] = await Promise.all([requireUser(deps.users, member), deps.relations.isFollowing(owner, member)]);
  if (!following) throw new InvalidInputError(`You do not follow ${member}`, 'not_following');
  await atStep(deps, 'group.add-checked', { owner, member });
  const { next } = await changeBook(
    deps,
    owner,
    (book) => addMember(book, groupId, member, now),
    () => deps.groups.addHoldings(member, [{ owner, groupId }]),
  );
  await atStep(deps, 'group.add-committed', { owner, member });
  if (!(await deps.relations.isFollowing(owner, member))) {
    await leaveGroupsOf(deps, owner, member);
    throw new InvalidInputError(`You do not follow ${member}`, 'not_following');
  }
  return summaryOf(groupOf(next, groupId), member);
}

/** Takes a member out of one group (idempotent); the index entry goes after the commit. */
export async function removeFromGroup(deps: GroupDeps, owner: string, groupId: string, member: string) {
  checkGroupId(groupId);
  const { next } = await changeBook(deps, owner, (book) => removeMember(book, groupId, member));
  await deps.groups.removeHoldings(member, [{ owner, groupId }]);
  return summaryOf(groupOf(next, groupId), member);
}

/**
 * Takes `member` out of every group of `owner`: the unfollow, the block (through its unfollows),
 * the settle of a pair no longer following, and the erasure. One get when they are in none.
 */
export async function leaveGroupsOf(
  deps: Pick<FeedDeps, 'groups' | 'step'>,
  owner: string,
  member: string,
): Promise<void> {
  const { seen } = await changeBook(deps, owner, (book) =>
    groupsHolding(book, member).length === 0 ? book : removeEverywhere(book, member),
  );
  const held = groupsHolding(seen.book, member);
  if (held.length > 0)
    await deps.groups.removeHoldings(
      member,
      held.map((groupId) => ({ owner, groupId })),
    );
}

/** The erasure: the account leaves every group that holds it, and its own groups go. */
export async function eraseGroups(deps: Pick<FeedDeps, 'groups' | 'step'>, handle: string): Promise<void> {
  const [holders, own] = await Promise.all([deps.groups.holders(handle), deps.groups.read(handle)]);
  await Promise.all([
    // Out of every book that holds it, then its cells there deleted: nothing in another's row names it.
    ...[...new Set(holders.map((h) => h.owner))].map((owner) =>
      leaveGroupsOf(deps, owner, handle).then(() => deps.groups.forgetMember(owner, handle)),
    ),
    ...own.book.groups.flatMap((g) =>
      [...g.members.keys()].map((m) => deps.groups.removeHoldings(m, [{ owner: handle, groupId: g.id }])),
    ),
  ]);
  await deps.groups.eraseBook(handle);
}

/** How many inbox entries a group page looks through: all the inbox holds, with room for what the trim has yet to cut. */
const groupWindow = (deps: Pick<FeedDeps, 'limits'>) => deps.limits.inboxCap * 2;

/**
 * A page of the group's timeline, newest first. Round trips: the group's members ∥ the inbox
 * (one get each), the members who are celebrities' outboxes (only when some are), the details
 * stage — 2, or 3 with the celebrity merge.
 */
export async function groupTimeline(
  deps: GroupTimelineDeps,
  reader: string,
  groupId: string,
  limit: number,
  cursor?: string,
  now = Date.now(),
): Promise<TimelinePage> {
  checkGroupId(groupId);
  const after = decodeCursor(cursor, isPostId);
  const span = { ...(after === undefined ? {} : { after }), limit: limit + SPARE_ENTRIES };
  const [members, view] = await Promise.all([
    deps.groups.members(reader, groupId),
    deps.inbox.read(reader, { ...(after === undefined ? {} : { after }), limit: groupWindow(deps) }),
  ]);
  if (members === null) throw new NotFoundError(`No group "${groupId}"`, 'group_not_found');
  const inGroup = new Set(members);
  const entries = view.entries.filter((id) => inGroup.has(authorOfPostId(id) ?? ''));
  const reposts = Object.fromEntries(
    Object.entries(view.reposts ?? {}).filter(([id]) => inGroup.has(authorOfPostId(id) ?? '')),
  );
  return timelineOf(
    deps,
    reader,
    {
      ...view,
      entries: entries.slice(0, span.limit),
      reposts,
      more: view.more || entries.length > span.limit,
      celebrities: view.celebrities.filter((c) => inGroup.has(c)),
    },
    span,
    limit,
    now,
  );
}
