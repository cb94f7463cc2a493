// test/integration/home-side-reads.test.ts — the home page's two small reads beside its timeline,
// on the real HBase adapters with every REST request counted: "anything newer?" (one round trip
// through a server-side filter on the inbox row; two for readers who follow celebrities; nothing
// written) and who to follow (shared/use-cases/suggestions.ts; at most 3 round trips).
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { listPrefix } from '../../shared/schema/row-keys.js';
import { block, mute } from '../../shared/use-cases/blocks.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { countNewer } from '../../shared/use-cases/newer-posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { SuggestionCache, suggestFollows } from '../../shared/use-cases/suggestions.js';
import { drainQueue, requestRecorder, tableOf, userFactory, feedWorld } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';
import { NEWER_COUNT_MAX } from '../../shared/domain/limits.js';

const ns = `it_side_${Date.now().toString(36)}`;
const { onRequest, counted } = requestRecorder();
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000, onRequest });
const { stores, queued, deps } = feedWorld(hbase, ns);

useNamespace(hbase, ns);
beforeEach(() => {
  queued.length = 0;
});

const users = userFactory(stores.users);
const drain = () => drainQueue(deps, queued);
const post = async (author: string, body = `by ${author}`) => (await publishPost(deps, author, { body })).post.id;

describe('anything newer? (GET /users/{handle}/timeline/newer)', () => {
  it('counts what the timeline shows above the post on screen in ONE round trip, and writes nothing', async () => {
    const [amy, bob, cat] = await users('amy', 'bob', 'cat');
    await follow(deps, bob, amy);
    await follow(deps, bob, cat);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await post(i % 3 === 0 ? cat : i % 5 === 0 ? bob : amy));
    await drain();
    const page = await homeTimeline(deps, bob, 40);
    expect(page.items).toHaveLength(30);
    const seen = await stores.inbox.read(bob, { limit: 1 });

    for (const at of [0, 1, 7, 19, 20]) {
      const { result, calls, depth } = await counted(() => countNewer(deps, bob, page.items[at]!.id));
      expect(result, `after the entry at ${at}`).toEqual({ count: at, more: false });
      expect(depth).toBe(1);
      // The inbox row through its filter, beside the mute list's stateless scan; no PUT.
      expect(calls.map((c) => `${c.method} ${tableOf(c)}`).sort()).toEqual(['GET inbox', 'GET lists']);
      expect(calls.find((c) => tableOf(c) === 'inbox')!.path).toContain('filter_b64=');
    }
    // 29 newer than the oldest: the count stops at 20 and says so.
    expect(await countNewer(deps, bob, page.items[29]!.id)).toEqual({ count: NEWER_COUNT_MAX, more: true });
    expect(await countNewer(deps, bob, page.items[21]!.id)).toEqual({ count: NEWER_COUNT_MAX, more: true });
    // Not a read of the timeline: the activity marker is as it was.
    expect((await stores.inbox.read(bob, { limit: 1 })).lastSeen).toBe(seen.lastSeen);
  });

  it('leaves out muted authors within the same round trip', async () => {
    const [amy, bob, cat] = await users('amy', 'bob', 'cat');
    await follow(deps, bob, amy);
    await follow(deps, bob, cat);
    const shown = await post(amy);
    await post(cat);
    await post(amy);
    await post(cat);
    await drain();
    expect((await countNewer(deps, bob, shown)).count).toBe(3);
    await mute(deps, bob, cat);
    const { result, depth } = await counted(() => countNewer(deps, bob, shown));
    expect(result).toEqual({ count: 1, more: false });
    expect(depth).toBe(1);
  });

  it('merges in followed celebrities’ outboxes: 2 round trips for such readers', async () => {
    const [star, bob, cat] = await users('star', 'bob', 'cat');
    await follow(deps, bob, cat);
    await follow(deps, bob, star);
    await drain();
    // star is a celebrity: bob's row has the marker, star's posts stay in the outbox.
    await stores.celebrities.setCelebrity(star, true);
    await stores.inbox.addCelebrity([bob], star);
    const shown = await post(cat);
    await drain();
    for (let i = 0; i < 3; i++) await post(star);
    await post(cat);
    await drain(); // star's fan-out is skipped: a celebrity's posts stay in the outbox
    const { result, calls, depth } = await counted(() => countNewer(deps, bob, shown));
    expect(result).toEqual({ count: 4, more: false });
    expect(depth).toBe(2);
    expect(calls.map((c) => tableOf(c)).sort()).toEqual(['inbox', 'lists', 'outbox']);
    expect((await stores.inbox.read(bob, { limit: 20 })).entries).toHaveLength(2); // cat's two only
    expect((await homeTimeline(deps, bob, 20)).items.findIndex((p) => p.id === shown)).toBe(4);
  });
});

describe('who to follow (GET /users/{handle}/suggestions)', () => {
  const suggest = (reader: string, limit = 10) =>
    suggestFollows(deps, reader, limit, { cache: new SuggestionCache(), random: () => Math.random() });

  it('people your followees follow, best first, none you follow, block or mute — in 3 round trips', async () => {
    const [amy, bob, cat, dan, eve, fay, gil] = await users('amy', 'bob', 'cat', 'dan', 'eve', 'fay', 'gil');
    for (const [a, b] of [
      [amy, bob],
      [amy, cat],
      [amy, eve],
      [bob, dan],
      [cat, dan],
      [bob, gil],
      [bob, eve],
      [cat, amy],
      [bob, fay],
    ] as const) {
      await follow(deps, a, b);
    }
    await mute(deps, amy, fay);
    await block(deps, gil, amy); // ends follows between gil and amy only: bob still follows gil
    await drain();
    const { result, calls, depth } = await counted(() => suggest(amy));
    // dan twice (bob and cat), then the fallback's sample, whatever it found; never amy herself,
    // bob / cat / eve (followed), fay (muted) or gil (blocks amy).
    expect(result[0]).toMatchObject({ face: { handle: dan, displayName: dan, avatar: null }, followedBy: 2 });
    const shown = result.map((s) => s.face.handle);
    for (const never of [amy, bob, cat, eve, fay, gil]) expect(shown, never).not.toContain(never);
    expect(result.slice(1).every((s) => s.followedBy === 0)).toBe(true);
    expect(depth).toBe(3);
    // 1: amy's list ∥ the sample; 2: bob's, cat's and eve's lists; 3: edges ∥ blocks ∥ faces.
    expect(calls.filter((c) => tableOf(c) === 'lists')).toHaveLength(5);
    expect(
      calls
        .filter((c) => tableOf(c) !== 'lists')
        .map((c) => `${tableOf(c)} ${c.path.includes('/multiget') ? 'multiget' : c.method}`)
        .sort(),
    ).toEqual(['blocks multiget', 'relations multiget', 'users multiget']);
  });

  it('someone followed before your newest 20 is not suggested (the last stage checks your edges)', async () => {
    const [amy, bob, old] = await users('amy', 'bob', 'old');
    const fillers = await users(...Array.from({ length: 20 }, (_, i) => `f${i}`));
    await follow(deps, amy, old);
    for (const f of fillers) await follow(deps, amy, f);
    await follow(deps, fillers.at(-1)!, bob);
    await follow(deps, fillers.at(-1)!, old);
    await drain();
    const circle = (await suggest(amy)).filter((s) => s.followedBy > 0).map((s) => s.face.handle);
    expect(circle).toEqual([bob]);
  });

  it('follows nobody: the most followed in a sample of the graph read from the lists table (followedBy 0), 2 round trips', async () => {
    const [fresh, bob, cat, dan] = await users('fresh', 'bob', 'cat', 'dan');
    await follow(deps, bob, dan);
    await follow(deps, cat, dan);
    await drain();
    // The sample starts where dan's own entries do (his followers list: bob's and cat's edges).
    const at = parseInt(listPrefix(dan, 'R').slice(0, 4), 16) / 0x10000;
    const { result, depth } = await counted(() =>
      suggestFollows(deps, fresh, 5, { cache: new SuggestionCache(), random: () => at }),
    );
    expect(result[0]).toEqual({ face: { handle: dan, displayName: dan, avatar: null }, followedBy: 0 });
    expect(depth).toBe(2);
  });
});
