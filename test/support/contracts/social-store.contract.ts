// test/support/contracts/social-store.contract.ts — what BlockStore, NotificationStore and
// TopicStore promise (shared/ports/social-store.ts), through their interfaces only: block and
// mute edges put-if-absent with their newest-first lists, notification members and groups as
// check-and-set values with one winner, the list of groups newest first, the read marker as a
// max-register, and topics' posts newest first with trend counts. Run on the fakes and on HBase
// (test/unit/contracts.test.ts, test/integration/contracts.test.ts).
import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../../shared/domain/notification.js';
import type { ListPosition } from '../../../shared/ports/feed-store.js';
import type { BlockStore, NotificationStore, TopicStore } from '../../../shared/ports/social-store.js';
import { cursorPages, fresh, type Make, pages, post, T0 } from './fixtures.js';

export function blockStoreContract(make: Make<BlockStore>): void {
  describe('BlockStore contract', () => {
    it('add is put-if-absent, remove false when there was none; blocks and mutes are apart', async () => {
      const blocks = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      expect(await blocks.has('block', ann, bob)).toBe(false);
      expect(await blocks.add('block', ann, bob, T0)).toBe(true);
      expect(await blocks.add('block', ann, bob, T0 + 1)).toBe(false);
      expect(await blocks.has('block', ann, bob)).toBe(true);
      expect(await blocks.has('mute', ann, bob)).toBe(false);
      expect(await blocks.has('block', bob, ann)).toBe(false);
      expect(await blocks.sinces('block', ann, [bob, fresh('cy')])).toEqual(new Map([[bob, T0]]));
      expect(await blocks.sinces('block', ann, [])).toEqual(new Map());
      expect(await blocks.remove('mute', ann, bob)).toBe(false);
      expect(await blocks.remove('block', ann, bob)).toBe(true);
      expect(await blocks.remove('block', ann, bob)).toBe(false);
      expect(await blocks.has('block', ann, bob)).toBe(false);
      expect(await blocks.add('block', ann, bob, T0 + 2)).toBe(true);
      expect(await blocks.sinces('block', ann, [bob])).toEqual(new Map([[bob, T0 + 2]]));
    });

    it('of racing adds of one edge exactly one is true, and only its entry is listed', async () => {
      const blocks = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      const won = await Promise.all([0, 1, 2].map((i) => blocks.add('mute', ann, bob, T0 + i)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await blocks.list('mute', ann, 10)).items).toEqual([{ handle: bob, since: T0 + won.indexOf(true) }]);
    });

    it('list: newest first by since, then handle; paged strictly after the position; an entry goes with its edge', async () => {
      const blocks = await make();
      const ann = fresh('ann');
      const [b, c, d, e] = ['b', 'c', 'd', 'e'].map((n) => fresh(n)) as [string, string, string, string];
      await blocks.add('block', ann, b, T0 + 1);
      await blocks.add('block', ann, c, T0 + 3);
      await blocks.add('block', ann, d, T0 + 2);
      await blocks.add('block', ann, e, T0 + 2);
      await blocks.add('mute', ann, b, T0 + 9);
      const [first, second] = d < e ? [d, e] : [e, d];
      const expected = [
        { handle: c, since: T0 + 3 },
        { handle: first, since: T0 + 2 },
        { handle: second, since: T0 + 2 },
        { handle: b, since: T0 + 1 },
      ];
      expect(await blocks.list('block', ann, 10)).toEqual({ items: expected });
      expect(await pages((after?: ListPosition) => blocks.list('block', ann, 2, after))).toEqual([
        expected.slice(0, 2),
        expected.slice(2),
      ]);
      expect(await blocks.list('mute', ann, 10)).toEqual({ items: [{ handle: b, since: T0 + 9 }] });
      await blocks.remove('block', ann, first);
      expect((await blocks.list('block', ann, 10)).items.map((x) => x.handle)).toEqual([c, second, b]);
    });

    it('eitherBlocks and existing: which of the edges asked exist, a mute no block', async () => {
      const blocks = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      await blocks.add('block', bob, ann, T0);
      await blocks.add('mute', ann, cy, T0);
      expect(await blocks.eitherBlocks(ann, bob)).toBe(true);
      expect(await blocks.eitherBlocks(bob, ann)).toBe(true);
      expect(await blocks.eitherBlocks(ann, cy)).toBe(false);
      const asked = [
        { kind: 'block' as const, from: ann, to: bob },
        { kind: 'block' as const, from: bob, to: ann },
        { kind: 'mute' as const, from: ann, to: cy },
        { kind: 'block' as const, from: ann, to: cy },
      ];
      expect((await blocks.existing(asked)).map((x) => `${x.kind}:${x.from}>${x.to}`).toSorted()).toEqual(
        [`block:${bob}>${ann}`, `mute:${ann}>${cy}`].toSorted(),
      );
      expect(await blocks.existing([])).toEqual([]);
    });
  });
}

/**
 * A state's clock runs close to wall time (domain/notification.ts), and the store may drop list
 * entries whose clock is long past (a TTL bounds the list in time): list clocks start here.
 */
const CLOCK = Date.now();

const state = (over: Partial<GroupState>): GroupState => ({ count: 0, at: null, latest: [], clock: 0, ...over });

export function notificationStoreContract(make: Make<NotificationStore>): void {
  describe('NotificationStore contract', () => {
    it('member: none at first; swapped only from the value read; of racing swaps one wins', async () => {
      const notes = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      const group = `like/${post(ann, T0).id}`;
      const none = await notes.member(ann, group, bob);
      expect(none).toEqual({ value: [], version: null });
      expect(await notes.swapMember(ann, group, bob, ['i1'], none)).toBe(true);
      expect(await notes.swapMember(ann, group, bob, ['i2'], none)).toBe(false);
      const one = await notes.member(ann, group, bob);
      expect(one.value).toEqual(['i1']);
      expect(one.version).not.toBeNull();
      const racing = await Promise.all(
        [['i1', 'a'], ['i1', 'b'], []].map((next) => notes.swapMember(ann, group, bob, next, one)),
      );
      expect(racing.filter(Boolean)).toHaveLength(1);
      const emptied = await notes.swapMember(ann, group, bob, [], await notes.member(ann, group, bob));
      expect(emptied).toBe(true);
      expect((await notes.member(ann, group, bob)).value).toEqual([]);
      expect((await notes.member(ann, group, fresh('cy'))).value).toEqual([]); // members are apart
    });

    it("group: a group never written is begun recording; swapped from the state read, with the member's flag", async () => {
      const notes = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      const group = `like/${post(ann, T0).id}`;
      const begun = await notes.group(ann, group, bob);
      expect(begun).toEqual({ value: { count: 0, at: null, latest: [], clock: 0, recorded: true }, version: null });
      const next = state({ count: 1, at: T0 + 5, latest: [[bob, T0 + 5]], clock: 7, recorded: true });
      expect(await notes.swapGroup(ann, group, next, begun, { handle: bob, counts: true })).toBe(true);
      expect(await notes.swapGroup(ann, group, next, begun, { handle: bob, counts: true })).toBe(false);
      const read = await notes.group(ann, group, bob);
      expect(read.value).toEqual(next);
      expect(read.counts).toBe(true);
      expect((await notes.group(ann, group, cy)).counts).toBeUndefined(); // never recorded for cy
      const left = state({ count: 0, at: T0 + 5, latest: [], clock: 8, recorded: true });
      expect(await notes.swapGroup(ann, group, left, read, { handle: bob, counts: false })).toBe(true);
      expect(await notes.group(ann, group, bob)).toMatchObject({ value: left, counts: false });
      const racing = await Promise.all(
        [9, 10, 11].map((clock) =>
          notes.swapGroup(ann, group, { ...left, clock }, { value: left, version: null }, { handle: cy, counts: true }),
        ),
      );
      expect(racing.filter(Boolean)).toHaveLength(0); // a stale version never lands
    });

    it('states: the groups asked that exist, in one read', async () => {
      const notes = await make();
      const [ann, bob] = [fresh('ann'), fresh('bob')];
      const [g1, g2, g3] = [1, 2, 3].map((i) => `like/${post(ann, T0 + i).id}`) as [string, string, string];
      const s1 = state({ count: 1, at: T0 + 1, latest: [[bob, T0 + 1]], clock: 1 });
      const s2 = state({ count: 2, at: T0 + 2, latest: [[bob, T0 + 2]], clock: 2, recorded: true });
      await notes.swapGroup(ann, g1, s1, await notes.group(ann, g1, bob), { handle: bob, counts: true });
      await notes.swapGroup(ann, g2, s2, await notes.group(ann, g2, bob), { handle: bob, counts: true });
      expect(await notes.states(ann, [g1, g2, g3, g1])).toEqual(
        new Map([
          [g1, s1],
          [g2, s2],
        ]),
      );
      expect(await notes.states(ann, [])).toEqual(new Map());
    });

    it('list and entries: newest first, a group listed at its latest time only, paged strictly after a place', async () => {
      const notes = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      const [g1, g2, g3] = ['like', 'repost', 'edit'].map((t) => `${t}/${post(ann, T0).id}`) as [
        string,
        string,
        string,
      ];
      await notes.list(ann, g1, state({ at: T0 + 1, latest: [[bob, T0 + 1]], clock: CLOCK + 1 }), null);
      await notes.list(ann, g2, state({ at: T0 + 2, latest: [[bob, T0 + 2]], clock: CLOCK + 2 }), null, 'nice');
      await notes.list(ann, g3, state({ at: T0 + 3, latest: [[cy, T0 + 3]], clock: CLOCK + 3 }), null);
      // g1 joined again later: listed at its new time, its old entry gone.
      await notes.list(
        ann,
        g1,
        state({
          at: T0 + 4,
          latest: [
            [cy, T0 + 4],
            [bob, T0 + 1],
          ],
          clock: CLOCK + 4,
        }),
        T0 + 1,
      );
      await notes.list(ann, g2, state({ at: null, clock: CLOCK + 5 }), T0 + 2); // never joined: nothing to list
      const expected = [
        {
          groupKey: g1,
          at: T0 + 4,
          latest: [
            [cy, T0 + 4],
            [bob, T0 + 1],
          ],
        },
        { groupKey: g3, at: T0 + 3, latest: [[cy, T0 + 3]] },
        { groupKey: g2, at: T0 + 2, latest: [[bob, T0 + 2]], excerpt: 'nice' },
      ];
      expect(await notes.entries(ann, 10)).toEqual({ items: expected, more: false });
      const first = await notes.entries(ann, 2);
      expect(first).toEqual({ items: expected.slice(0, 2), more: true });
      expect(await notes.entries(ann, 2, { at: T0 + 3, groupKey: g3 })).toEqual({
        items: expected.slice(2),
        more: false,
      });
      expect(await notes.entries(fresh('dee'), 5)).toEqual({ items: [], more: false });
    });

    it('list: of two writes of one entry, the newer state (by its clock) keeps its names', async () => {
      const notes = await make();
      const [ann, bob, cy] = [fresh('ann'), fresh('bob'), fresh('cy')];
      const group = `like/${post(ann, T0).id}`;
      await notes.list(ann, group, state({ at: T0 + 1, latest: [[cy, T0 + 1]], clock: CLOCK + 20 }), null);
      await notes.list(ann, group, state({ at: T0 + 1, latest: [[bob, T0 + 1]], clock: CLOCK + 10 }), null); // late, older
      expect((await notes.entries(ann, 5)).items).toEqual([{ groupKey: group, at: T0 + 1, latest: [[cy, T0 + 1]] }]);
    });

    it('the read marker: 0 until set, and never moved back', async () => {
      const notes = await make();
      const ann = fresh('ann');
      expect(await notes.readUpTo(ann)).toBe(0);
      await notes.markRead(ann, T0 + 10);
      await notes.markRead(ann, T0 + 5);
      expect(await notes.readUpTo(ann)).toBe(T0 + 10);
      await notes.markRead(ann, T0 + 20);
      expect(await notes.readUpTo(ann)).toBe(T0 + 20);
    });
  });
}

export function topicStoreContract(make: Make<TopicStore>): void {
  describe('TopicStore contract', () => {
    it("posts: a topic's posts newest first, paged by the last id; an add again changes nothing; remove", async () => {
      const topics = await make();
      const [tea, rain] = [fresh('tea'), fresh('rain')];
      const all = [0, 1, 2, 3, 4].map((i) => post(fresh(`a${i}`), T0 + i * 1000));
      for (const p of all) await topics.add(p.id, p.createdAt, [tea], null);
      await topics.add(all[0]!.id, all[0]!.createdAt, [tea, rain], null);
      const newestFirst = all.map((p) => p.id).toReversed();
      expect((await cursorPages((c) => topics.posts(tea, 2, c))).flat()).toEqual(newestFirst);
      expect(await topics.posts(tea, 10)).toEqual({ items: newestFirst });
      expect(await topics.posts(rain, 10)).toEqual({ items: [all[0]!.id] });
      await topics.remove(all[2]!.id, [tea]);
      expect((await topics.posts(tea, 10)).items).toEqual(newestFirst.filter((id) => id !== all[2]!.id));
      expect(await topics.posts(fresh('none'), 10)).toEqual({ items: [] });
    });

    it("posts: a page read after the cursor's post left the topic goes on after it", async () => {
      const topics = await make();
      const tea = fresh('tea');
      const all = [0, 1, 2, 3].map((i) => post(fresh(`a${i}`), T0 + i * 1000));
      for (const p of all) await topics.add(p.id, p.createdAt, [tea], null);
      const first = await topics.posts(tea, 2);
      expect(first.items).toEqual([all[3]!.id, all[2]!.id]);
      await topics.remove(all[2]!.id, [tea]);
      expect((await topics.posts(tea, 10, first.nextCursor)).items).toEqual([all[1]!.id, all[0]!.id]);
    });

    it('named: the topic names a prefix starts, in name order, bounded; a removed post leaves its name', async () => {
      const topics = await make();
      const stem = fresh('tp');
      const [a, ab, b, other] = [`${stem}a`, `${stem}a b`, `${stem}b`, `${fresh('tq')}a`];
      const p = (i: number) => post(fresh('a'), T0 + i).id;
      await topics.add(p(1), T0, [b, a], 500);
      await topics.add(p(2), T0, [ab, other], null);
      const gone = p(3);
      await topics.add(gone, T0, [`${stem}c话题`], null);
      await topics.remove(gone, [`${stem}c话题`]);
      expect(await topics.named(stem, 10)).toEqual([a, ab, b, `${stem}c话题`]);
      expect(await topics.named(`${stem}a`, 10)).toEqual([a, ab]);
      expect(await topics.named(stem, 2)).toEqual([a, ab]);
      expect(await topics.named(`${stem}c话`, 10)).toEqual([`${stem}c话题`]);
      expect(await topics.named(fresh('none'), 10)).toEqual([]);
    });

    it('trendCounts: posts counted per topic in the buckets asked, summed; an add without a bucket counts none', async () => {
      const topics = await make();
      const [tea, rain, snow] = [fresh('tea'), fresh('rain'), fresh('snow')];
      const p = (i: number) => post(fresh('a'), T0 + i).id;
      await topics.add(p(1), T0, [tea, rain], 500);
      await topics.add(p(2), T0, [tea], 500);
      await topics.add(p(3), T0, [tea], 501);
      await topics.add(p(4), T0, [rain], 502);
      await topics.add(p(5), T0, [snow], null);
      const ours = (counts: Map<string, number>) =>
        Object.fromEntries([...counts].filter(([name]) => [tea, rain, snow].includes(name)));
      expect(ours(await topics.trendCounts([500, 501]))).toEqual({ [tea]: 3, [rain]: 1 });
      expect(ours(await topics.trendCounts([502]))).toEqual({ [rain]: 1 });
      expect(await topics.trendCounts([])).toEqual(new Map());
    });
  });
}
