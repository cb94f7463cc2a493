// test/integration/home-side-reads.test.ts — the home page's two small reads beside its timeline,
// on the real HBase adapters with every REST request counted: "anything newer?" (one round trip
// through a server-side filter on the inbox row; two for readers who follow celebrities; nothing
// written) and who to follow (shared/use-cases/suggestions.ts; at most 3 round trips).
import { performance } from 'node:perf_hooks';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { hbaseFeedStores } from '../../shared/composition.js';
import { HBaseRestClient, type HBaseRequestEvent } from '../../shared/hbase/index.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { sequentialDepth } from '../../shared/observability/round-trips.js';
import { mute } from '../../shared/use-cases/blocks.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { countNewer, NEWER_COUNT_MAX } from '../../shared/use-cases/newer-posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow } from '../../shared/use-cases/relations.js';
import { drainQueue, integrationLimits, userFactory } from '../support/feed-harness.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_side_${Date.now().toString(36)}`;
const requests: (HBaseRequestEvent & { end: number })[] = [];
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000, onRequest: (e) => requests.push({ ...e, end: performance.now() }) });
const stores = hbaseFeedStores(hbase, ns);
const queued: FanoutMessage[] = [];
const deps: FeedDeps = { ...stores, queue: { send: async (m) => void queued.push(m) }, limits: { ...integrationLimits } };

useNamespace(hbase, ns);
beforeEach(() => {
  queued.length = 0;
});

const users = userFactory(stores.users);
const drain = () => drainQueue(deps, queued);
const post = async (author: string, body = `by ${author}`) => (await publishPost(deps, author, { body })).post.id;

/** Runs `op`; its result, the requests it sent, and their depth (requests in flight together share a round trip). */
async function counted<T>(op: () => Promise<T>): Promise<{ result: T; calls: HBaseRequestEvent[]; depth: number }> {
  const from = requests.length;
  const result = await op();
  const calls = requests.slice(from);
  return { result, calls, depth: sequentialDepth(calls.map((c) => ({ start: c.end - c.durationMs, end: c.end }))) };
}

/** The table a request went to. */
const tableOf = (c: HBaseRequestEvent) => decodeURIComponent(c.path.split('/')[1]!).split(':')[1];

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
