// test/integration/groups.test.ts — 分组 and 特别关注 on the real HBase adapters: the group book
// and its rules, group timelines read through the home inbox, the special-attention notice, and
// invariant X (docs/consistency.md) with its races forced step by step (test/support/interleave.ts).
// The rules alone: test/unit/groups.test.ts.
import { describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { block } from '../../shared/use-cases/blocks.js';
import {
  addToGroup,
  createGroup,
  deleteGroup,
  groupMembers,
  groupTimeline,
  listGroups,
  removeFromGroup,
  renameGroup,
} from '../../shared/use-cases/groups.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { listNotifications } from '../../shared/use-cases/notifications.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, unfollow } from '../../shared/use-cases/relations.js';
import { repost } from '../../shared/use-cases/reposts.js';
import { accountWorld, drainQueue, userFactory } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_groups_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const { stores, gate, queued, deps } = accountWorld(hbase, ns);
useNamespace(hbase, ns);
const users = userFactory(stores.users);
/** Runs every queued message through the worker, as the fan-out function would (delayed ones too). */
const drain = () => drainQueue(deps, queued);
const post = async (author: string, body: string) => (await publishPost(deps, author, { body })).post.id;
const bodies = async (reader: string, groupId: string) =>
  (await groupTimeline(deps, reader, groupId, 50)).items.map((p) => p.body);
const homeBodies = async (reader: string) => (await homeTimeline(deps, reader, 50)).items.map((p) => p.body);
const membersOf = async (owner: string, groupId: string) => (await stores.groups.members(owner, groupId))?.sort();
/** Follows, their backfills and settles done. */
async function following(reader: string, ...whom: string[]) {
  for (const w of whom) await follow(deps, reader, w);
  await drain();
}

describe('groups (分组) and 特别关注', () => {
  it("a group's timeline is exactly its members' posts and reposts, home's rules applied; only its owner has it", async () => {
    const [ann, bob, cat, dan] = await users('ann', 'bob', 'cat', 'dan');
    await following(ann, bob, cat, dan);
    const b1 = await post(bob, 'bob one');
    await post(cat, 'cat one');
    const d1 = await post(dan, 'dan one');
    await drain();
    const close = await createGroup(deps, ann, 'close friends');
    await addToGroup(deps, ann, close.id, bob);
    await addToGroup(deps, ann, close.id, dan);
    expect(await bodies(ann, close.id)).toEqual(['dan one', 'bob one']);
    expect(await homeBodies(ann)).toEqual(['dan one', 'cat one', 'bob one']);

    // A member's repost is theirs; a non-member's repost of a member's post is not in the group.
    await repost(deps, cat, b1, { comment: 'cat says' });
    await repost(deps, bob, d1, { comment: 'bob says' });
    await drain();
    expect(await bodies(ann, close.id)).toEqual(['bob says', 'dan one', 'bob one']);
    // A deleted post leaves; a muted or blocked member's posts are hidden as on home.
    await deletePost(deps, dan, d1);
    await drain();
    expect(await bodies(ann, close.id)).toEqual(['bob says', 'bob one']);
    // Paged by cursor, newest first, each once.
    const first = await groupTimeline(deps, ann, close.id, 1);
    const second = await groupTimeline(deps, ann, close.id, 1, first.nextCursor);
    expect([...first.items, ...second.items].map((p) => p.body)).toEqual(['bob says', 'bob one']);

    expect((await listGroups(deps, ann, bob)).map((g) => [g.name, g.members, g.hasMember])).toEqual([
      ['特别关注', 0, false],
      ['close friends', 2, true],
    ]);
    expect((await groupMembers(deps, ann, close.id)).map((m) => m.handle)).toEqual([dan, bob]);
    // Nobody else has ann's group: a group id is the owner's alone.
    await expect(groupTimeline(deps, bob, close.id, 20)).rejects.toMatchObject({ code: 'group_not_found' });
    await expect(removeFromGroup(deps, bob, close.id, dan)).rejects.toMatchObject({ code: 'group_not_found' });
  });

  it('bad input changes nothing: not followed, unknown group, duplicate or empty name, the built-in group', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    await following(ann, bob);
    const g = await createGroup(deps, ann, 'Work');
    const before = await stores.groups.read(ann);
    await expect(addToGroup(deps, ann, g.id, cat)).rejects.toMatchObject({ code: 'not_following' });
    await expect(addToGroup(deps, ann, g.id, ann)).rejects.toMatchObject({ code: 'not_following' });
    await expect(addToGroup(deps, ann, 'gnothere', bob)).rejects.toMatchObject({ code: 'group_not_found' });
    await expect(addToGroup(deps, ann, '../x', bob)).rejects.toMatchObject({ code: 'group_not_found' });
    await expect(addToGroup(deps, ann, g.id, 'nobody_here')).rejects.toMatchObject({ code: 'user_not_found' });
    await expect(createGroup(deps, ann, ' ｗｏｒｋ ')).rejects.toMatchObject({ code: 'group_name_taken' });
    await expect(createGroup(deps, ann, '特别关注')).rejects.toMatchObject({ code: 'group_name_taken' });
    await expect(createGroup(deps, ann, '   ')).rejects.toMatchObject({ code: 'group_name_invalid' });
    await expect(createGroup(deps, ann, 'x'.repeat(21))).rejects.toMatchObject({ code: 'group_name_invalid' });
    await expect(renameGroup(deps, ann, 'special', 'mine')).rejects.toMatchObject({ code: 'group_built_in' });
    await expect(deleteGroup(deps, ann, 'special')).rejects.toMatchObject({ code: 'group_built_in' });
    expect(await stores.groups.read(ann)).toEqual(before);

    // Rename, delete: the deleted group's members leave the holders index.
    await addToGroup(deps, ann, g.id, bob);
    expect((await renameGroup(deps, ann, g.id, 'Work (old)')).name).toBe('Work (old)');
    expect(await stores.groups.holders(bob)).toEqual([{ owner: ann, groupId: g.id }]);
    expect((await deleteGroup(deps, ann, g.id)).map((x) => x.id)).toEqual(['special']);
    expect(await stores.groups.holders(bob)).toEqual([]);
    await expect(groupTimeline(deps, ann, g.id, 20)).rejects.toMatchObject({ code: 'group_not_found' });
  });

  it('two changes of one book racing: the later commit reads again, and both land', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await following(ann, bob);
    const held = gate.holdAt('group.book-read', (d) => d.owner === ann);
    const first = createGroup(deps, ann, 'first');
    await held.reached;
    const second = await createGroup(deps, ann, 'second');
    await addToGroup(deps, ann, second.id, bob);
    held.release();
    await first;
    expect((await listGroups(deps, ann)).map((g) => [g.name, g.members])).toEqual([
      ['特别关注', 0],
      ['first', 0],
      ['second', 1],
    ]);
  });

  it('X: add racing a publish — the post is in the group whichever lands first', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await following(ann, bob);
    const g = await createGroup(deps, ann, 'g');
    // The fan-out has read ann as a follower and not yet written her inbox; the add lands then.
    const fanout = gate.holdAt('fanout.readers-read', (d) => (d.readers ?? '').split(',').includes(ann));
    await post(bob, 'during the add');
    const delivering = drain();
    await fanout.reached;
    await addToGroup(deps, ann, g.id, bob);
    fanout.release();
    await delivering;
    expect(await bodies(ann, g.id)).toEqual(['during the add']);
    // The add held after its checks while a post is published and fanned out whole.
    const add = gate.holdAt('group.add-checked', (d) => d.owner === ann);
    const other = await createGroup(deps, ann, 'other');
    const adding = addToGroup(deps, ann, other.id, bob);
    await add.reached;
    await post(bob, 'before the commit');
    await drain();
    add.release();
    await adding;
    expect(await bodies(ann, other.id)).toEqual(['before the commit', 'during the add']);
  });

  it('X: remove racing a fan-out — a member taken out is out, also of posts written after', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    await following(ann, bob, cat);
    const g = await createGroup(deps, ann, 'g');
    await addToGroup(deps, ann, g.id, bob);
    await addToGroup(deps, ann, g.id, cat);
    await post(bob, 'bob before');
    await drain();
    const fanout = gate.holdAt('fanout.readers-read', (d) => (d.readers ?? '').split(',').includes(ann));
    await post(bob, 'bob during');
    await post(cat, 'cat during');
    const delivering = drain();
    await fanout.reached;
    await removeFromGroup(deps, ann, g.id, bob);
    fanout.release();
    await delivering;
    expect(await bodies(ann, g.id)).toEqual(['cat during']);
    expect(await homeBodies(ann)).toEqual(['cat during', 'bob during', 'bob before']);
    expect(await stores.groups.holders(bob)).toEqual([]);
  });

  it("X: add then remove while a follow's backfill runs — the group ends without them, home with their posts", async () => {
    const [ann, bob] = await users('ann', 'bob');
    await post(bob, 'old one');
    await post(bob, 'old two');
    await drain();
    const g = await createGroup(deps, ann, 'g');
    const backfill = gate.holdAt('backfill.posts-read', (d) => d.reader === ann && d.followee === bob);
    await follow(deps, ann, bob);
    const filling = drain();
    await backfill.reached;
    await addToGroup(deps, ann, g.id, bob);
    await removeFromGroup(deps, ann, g.id, bob);
    backfill.release();
    await filling;
    await drain();
    expect(await bodies(ann, g.id)).toEqual([]);
    expect(await homeBodies(ann)).toEqual(['old two', 'old one']);
    // Added again: what home holds of them shows at once (the bounded backfill is home's).
    await addToGroup(deps, ann, g.id, bob);
    expect(await bodies(ann, g.id)).toEqual(['old two', 'old one']);
  });

  it('X: unfollow racing an add — the add that checked the edge before the unfollow takes the member out again', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await following(ann, bob);
    const g = await createGroup(deps, ann, 'g');
    const add = gate.holdAt('group.add-checked', (d) => d.owner === ann && d.member === bob);
    const adding = addToGroup(deps, ann, g.id, bob);
    await add.reached;
    await unfollow(deps, ann, bob); // its removal from groups finds nobody yet
    add.release();
    await expect(adding).rejects.toMatchObject({ code: 'not_following' });
    expect(await membersOf(ann, g.id)).toEqual([]);
    expect(await stores.groups.holders(bob)).toEqual([]);
  });

  it('X: an add stopped after its commit (frozen) is undone by the unfollow’s settle, W later', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await following(ann, bob);
    const g = await createGroup(deps, ann, 'g');
    const checked = gate.holdAt('group.add-checked', (d) => d.owner === ann && d.member === bob);
    const committed = gate.holdAt('group.add-committed', (d) => d.owner === ann && d.member === bob);
    const adding = addToGroup(deps, ann, g.id, bob);
    await checked.reached;
    await unfollow(deps, ann, bob);
    checked.release();
    await committed.reached; // the add has committed and is frozen before its second look
    expect(await membersOf(ann, g.id)).toEqual([bob]);
    // Listed only while followed: the members list leaves bob out at once.
    expect(await groupMembers(deps, ann, g.id)).toEqual([]);
    await drain(); // the unfollow's delayed settle
    expect(await membersOf(ann, g.id)).toEqual([]);
    committed.release();
    await expect(adding).rejects.toMatchObject({ code: 'not_following' });
  });

  it('a block takes the blocked out of every group, both ways', async () => {
    const [ann, bob] = await users('ann', 'bob');
    await following(ann, bob);
    await following(bob, ann);
    const g = await createGroup(deps, ann, 'g');
    await addToGroup(deps, ann, g.id, bob);
    await addToGroup(deps, ann, 'special', bob);
    await addToGroup(deps, bob, 'special', ann);
    await block(deps, bob, ann);
    expect(await membersOf(ann, g.id)).toEqual([]);
    expect(await membersOf(ann, 'special')).toEqual([]);
    expect(await membersOf(bob, 'special')).toEqual([]);
  });

  it('特别关注: a member’s new post notifies, once however often delivered; a stale index entry notifies nobody', async () => {
    const [ann, bob, cat] = await users('ann', 'bob', 'cat');
    await following(ann, bob);
    await following(cat, bob);
    await addToGroup(deps, ann, 'special', bob);
    const id = await post(bob, 'news from bob');
    const message = queued.find((m) => m.type === 'fanout')!;
    await drain();
    await handleFanoutMessage(deps, message); // a redelivery, and its notify message
    await drain();
    const notices = (await listNotifications(deps, ann, 20)).items.filter((n) => n.type === 'special');
    expect(notices.map((n) => [n.post?.id, n.actors.map((a) => a.face.handle)])).toEqual([[id, [bob]]]);
    expect((await listNotifications(deps, cat, 20)).items.filter((n) => n.type === 'special')).toEqual([]);
    // cat's index entry without cat's book holding bob (a crash before the commit): no notice.
    await stores.groups.addHoldings(bob, [{ owner: cat, groupId: 'special' }]);
    await removeFromGroup(deps, ann, 'special', bob);
    await post(bob, 'second news');
    await drain();
    expect((await listNotifications(deps, cat, 20)).items.filter((n) => n.type === 'special')).toEqual([]);
    expect((await listNotifications(deps, ann, 20)).items.filter((n) => n.type === 'special')).toHaveLength(1);
  });
});
