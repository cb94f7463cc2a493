// test/integration/interleavings.test.ts — every race of the convergence issue, forced on the
// real HBase in one exact order (never "run both and hope"): an operation is held at a named
// step (test/support/interleave.ts) while the other runs inside the gap, then released. Each
// test first shows the bad intermediate state really happened, then delivers what is queued
// (the settle messages included, as the worker would after the settle window) and asserts the
// invariants of docs/consistency.md. On the code before the settle design, the
// tombstones and the idempotency fingerprints, every one of these ended in the bad state.
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { HBaseMaintenanceStore } from '../../shared/adapters/hbase/hbase-maintenance-store.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { GoneError, NotFoundError } from '../../shared/domain/errors.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { repairRelationsJob } from '../../shared/use-cases/jobs/repair-relations.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, unfollow } from '../../shared/use-cases/relations.js';
import { drainQueue, userFactory } from '../support/feed-harness.js';
import { interleaver } from '../support/interleave.js';
import { runToCompletion } from '../support/job-driver.js';
import { useNamespace } from '../support/namespace.js';

/** The whole inbox row as one window. */
const ALL = { limit: 100_000 };

const ns = `it_race_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const stores = hbaseFeedStores(hbase, ns);
const gate = interleaver();
const queued: FanoutMessage[] = [];
const deps: FeedDeps = {
  ...stores,
  queue: { send: async (m) => void queued.push(m) },
  // Threshold 3: the celebrity races need a celebrity; every other test keeps authors below it.
  limits: {
    fanoutChunkSize: 100,
    fanoutChunksPerMessage: 2,
    backfillLimit: 200,
    inboxCap: 800,
    maxFollowing: 5000,
    celebrityFollowers: 3,
    inactiveAfterMs: 30 * 86_400_000,
    settleSeconds: 1,
    writesPerMinute: { comment: 1000, like: 1000, repost: 1000 },
  },
  step: gate.hook,
};

useNamespace(hbase, ns);

beforeEach(() => {
  queued.length = 0;
});

/** Fresh users per test, so tests never see each other's rows. */
const users = userFactory(stores.users);

/** The worker: handles queued messages (settles included, as after the settle window) until none is left. */
const settleAll = () => drainQueue(deps, queued);

/** Takes the first queued message of a type out of the queue (to deliver it by hand). */
function take<T extends FanoutMessage['type']>(type: T): Extract<FanoutMessage, { type: T }> {
  const i = queued.findIndex((m) => m.type === type);
  if (i < 0) throw new Error(`no ${type} message queued`);
  return queued.splice(i, 1)[0] as Extract<FanoutMessage, { type: T }>;
}

async function timelineIds(reader: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await homeTimeline(deps, reader, 3, cursor);
    ids.push(...page.items.map((p) => p.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

const inboxIds = async (reader: string) => (await stores.inbox.read(reader, ALL)).entries;

/** Invariant C: both sides of the edge agree, and both counters match the rows. */
async function expectEdge(reader: string, author: string, following: boolean) {
  expect(await stores.relations.isFollowing(reader, author), `${reader} follows ${author}`).toBe(following);
  const followers = (await stores.relations.followers(author, 100)).items.map((e) => e.handle);
  expect(followers.includes(reader), `${reader} among ${author}'s followers`).toBe(following);
  expect(await stores.counters.get(author, 'followers')).toBe(followers.length);
  expect(await stores.counters.get(reader, 'following')).toBe(
    (await stores.relations.following(reader, 100)).items.length,
  );
}

async function publish(author: string, body: string) {
  return (await publishPost(deps, author, { body })).post.id;
}

describe('idempotent publish and delete (invariant B)', () => {
  it('a retry after the delete answers post_deleted and brings nothing back; another body is a mismatch', async () => {
    const [amy, bob] = await users('amy', 'bob');
    await follow(deps, bob, amy);
    const { post } = await publishPost(deps, amy, { body: 'oops', idempotencyKey: 'k1' });
    await settleAll();
    expect(await timelineIds(bob)).toEqual([post.id]);
    await deletePost(deps, amy, post.id);
    await settleAll();

    await expect(publishPost(deps, amy, { body: 'oops', idempotencyKey: 'k1' })).rejects.toBeInstanceOf(GoneError);
    await expect(publishPost(deps, amy, { body: 'something else', idempotencyKey: 'k1' })).rejects.toMatchObject({
      code: 'idempotency_key_mismatch',
    });
    await settleAll();
    expect(await stores.posts.get(post.id)).toBeNull();
    expect(await timelineIds(bob)).toEqual([]);
    expect(await timelineIds(amy)).toEqual([]);
    expect(await stores.counters.get(amy, 'posts')).toBe(0);
  });

  it('a retry that runs while the first request is between claim and create: one post, counted once', async () => {
    const [amy] = await users('amy');
    const held = gate.holdAt('publish.claimed', (d) => d.author === amy);
    const first = publishPost(deps, amy, { body: 'twice', idempotencyKey: 'k2' });
    await held.reached;
    const retry = await publishPost(deps, amy, { body: 'twice', idempotencyKey: 'k2' });
    held.release();
    const original = await first;
    expect(original.post.id).toBe(retry.post.id);
    expect([original.replayed, retry.replayed].sort()).toEqual([false, true]);
    expect(await stores.counters.get(amy, 'posts')).toBe(1);
    expect((await stores.posts.listByAuthor(amy, 10)).items.map((p) => p.id)).toEqual([retry.post.id]);
  });

  it('two deletes of one post: the one that lost answers 404 and changes nothing', async () => {
    const [amy] = await users('amy');
    const id = await publish(amy, 'to delete');
    queued.length = 0;
    const held = gate.holdAt('delete.checked', (d) => d.postId === id);
    const slow = deletePost(deps, amy, id);
    await held.reached;
    await deletePost(deps, amy, id); // the other delete, entirely inside the gap
    held.release();
    await expect(slow).rejects.toBeInstanceOf(NotFoundError);
    expect(await stores.counters.get(amy, 'posts')).toBe(0);
    expect(queued.filter((m) => m.type === 'retract')).toHaveLength(1);
  });

  it('a fan-out that read the followers before a delete writes after the retraction: the post is retracted again', async () => {
    const [amy, bob] = await users('amy', 'bob');
    await follow(deps, bob, amy);
    await settleAll();
    const id = await publish(amy, 'short-lived');
    const held = gate.holdAt('fanout.readers-read', (d) => d.readers?.includes(bob) ?? false);
    const fanout = handleFanoutMessage(deps, take('fanout'));
    await held.reached;
    await deletePost(deps, amy, id);
    await settleAll(); // the retraction runs before the held fan-out writes
    held.release();
    expect(await fanout).toMatchObject({ retractedAgain: true });
    expect(await inboxIds(bob)).toEqual([id]); // the late write really landed…
    await settleAll();
    expect(await inboxIds(bob)).toEqual([]); // …and was retracted again
  });
});

describe('unfollow against in-flight queue work (invariant A)', () => {
  it('follow then unfollow while the backfill is in flight: the settle purges what the backfill wrote late', async () => {
    const [amy, bob] = await users('amy', 'bob');
    const ids = [await publish(amy, 'a1'), await publish(amy, 'a2')];
    queued.length = 0;
    await follow(deps, bob, amy);
    const held = gate.holdAt('backfill.posts-read', (d) => d.reader === bob);
    const backfill = handleFanoutMessage(deps, take('backfill'));
    await held.reached;
    await unfollow(deps, bob, amy);
    held.release();
    await backfill;
    expect(new Set(await inboxIds(bob))).toEqual(new Set(ids)); // the stale entries are there…
    await settleAll();
    expect(await inboxIds(bob)).toEqual([]); // …until the settle
    expect(await timelineIds(bob)).toEqual([]);
    await expectEdge(bob, amy, false);
  });

  it('publish then unfollow while the fan-out is in flight: the settle purges the late cell', async () => {
    const [amy, bob] = await users('amy', 'bob');
    await follow(deps, bob, amy);
    await settleAll();
    const id = await publish(amy, 'just now');
    const held = gate.holdAt('fanout.readers-read', (d) => d.readers?.includes(bob) ?? false);
    const fanout = handleFanoutMessage(deps, take('fanout'));
    await held.reached;
    await unfollow(deps, bob, amy);
    held.release();
    await fanout;
    expect(await inboxIds(bob)).toEqual([id]);
    await settleAll();
    expect(await timelineIds(bob)).toEqual([]);
    await expectEdge(bob, amy, false);
  });

  it('a settle that read "following" writes after a later unfollow: that unfollow\'s settle cleans up', async () => {
    const [amy, bob] = await users('amy', 'bob');
    await publish(amy, 'a1');
    queued.length = 0;
    await follow(deps, bob, amy);
    const staleSettle = take('settle');
    await settleAll();
    const held = gate.holdAt('settle.state-read', (d) => d.reader === bob);
    const settling = handleFanoutMessage(deps, staleSettle);
    await held.reached;
    await unfollow(deps, bob, amy);
    held.release();
    await settling;
    expect((await inboxIds(bob)).length).toBe(1); // the old settle backfilled after the unfollow's purge
    await settleAll();
    expect(await timelineIds(bob)).toEqual([]);
  });
});

describe('unfollow and refollow of the same edge (invariants A, C, D)', () => {
  it('celebrity: the unfollow removes the marker after the refollow set it; the settle restores it', async () => {
    const [star, bob, f1, f2] = await users('star', 'bob', 'f1', 'f2');
    for (const f of [bob, f1, f2]) await follow(deps, f, star); // the third crosses the threshold
    await settleAll();
    expect(await stores.celebrities.isCelebrity(star)).toBe(true);
    const id = await publish(star, 'celebrity post');
    await settleAll();
    expect(await timelineIds(bob)).toEqual([id]);

    // The edge removed, the marker removal and purge (which run beside it) not yet run.
    const removed = gate.holdAt('unfollow.edge-removed', (d) => d.follower === bob);
    const held = gate.holdAt('unfollow.view-next', (d) => d.follower === bob);
    const leaving = unfollow(deps, bob, star);
    await Promise.all([removed.reached, held.reached]);
    await follow(deps, bob, star); // refollow inside the gap: edge back, marker set
    removed.release();
    held.release();
    await leaving; // …then the unfollow's marker removal and purge
    expect((await stores.inbox.read(bob, ALL)).celebrities).toEqual([]); // following, but no marker
    expect(await timelineIds(bob)).toEqual([]);

    await settleAll();
    expect((await stores.inbox.read(bob, ALL)).celebrities).toEqual([star]);
    expect(await timelineIds(bob)).toEqual([id]);
    await expectEdge(bob, star, true);
  });

  it("normal author: the unfollow purge deletes the refollow's backfill; the settle backfills again", async () => {
    const [amy, bob] = await users('amy', 'bob');
    const ids = [await publish(amy, 'a1'), await publish(amy, 'a2')];
    await follow(deps, bob, amy);
    await settleAll();
    const removed = gate.holdAt('unfollow.edge-removed', (d) => d.follower === bob);
    const held = gate.holdAt('unfollow.view-next', (d) => d.follower === bob);
    const leaving = unfollow(deps, bob, amy);
    await Promise.all([removed.reached, held.reached]);
    await follow(deps, bob, amy);
    await handleFanoutMessage(deps, take('backfill')); // the refollow's backfill lands…
    removed.release();
    held.release();
    await leaving; // …and the unfollow's purge removes it
    expect(await inboxIds(bob)).toEqual([]);

    await settleAll();
    expect(await timelineIds(bob)).toEqual([...ids].reverse());
    await expectEdge(bob, amy, true);
  });

  it('a promotion walk that read the followers before an unfollow marks the reader after it: the settle drops the marker', async () => {
    const [star, bob, f1, f2] = await users('star', 'bob', 'f1', 'f2');
    for (const f of [bob, f1]) await follow(deps, f, star);
    await settleAll();
    await follow(deps, f2, star); // the third follower: queues the promotion walk
    const held = gate.holdAt('fanout.readers-read', (d) => d.readers?.includes(bob) ?? false);
    const promoting = handleFanoutMessage(deps, take('promote'));
    await held.reached;
    await unfollow(deps, bob, star);
    held.release();
    await promoting;
    expect((await stores.inbox.read(bob, ALL)).celebrities).toEqual([star]); // marked, though not following
    const id = await publish(star, 'after the promotion');
    await settleAll();
    expect((await stores.inbox.read(bob, ALL)).celebrities).toEqual([]);
    expect(await timelineIds(bob)).toEqual([]);
    expect(await timelineIds(f1)).toEqual([id]);
    await expectEdge(bob, star, false);
  });

  it('the followers side deleted by a racing unfollow after the refollow wrote it is restored by the settle', async () => {
    const [amy, bob] = await users('amy', 'bob');
    await follow(deps, bob, amy);
    await settleAll();
    // The unfollow's followers-side delete is conditional on the since it removed, so a racing
    // refollow's row survives; here the row goes anyway (as a crash between the two writes of
    // a follow would leave it), and only the settle can notice.
    const since = (await stores.relations.edge(bob, amy))!.since;
    await stores.relations.removeFollowerSide(bob, amy, since);
    expect((await stores.relations.followers(amy, 10)).items).toEqual([]);
    await follow(deps, bob, amy); // a retry of the follow: already following, but it queues a settle
    await settleAll();
    expect((await stores.relations.followers(amy, 10)).items.map((e) => e.handle)).toEqual([bob]);
  });
});

describe('the repair job never overwrites a counter a live operation is changing (invariant C)', () => {
  it('an increment landing while the job recounts wins; the job fixes the drift on its next run', async () => {
    const [amy, bob, cat] = await users('amy', 'bob', 'cat');
    await follow(deps, bob, amy);
    await stores.counters.add(amy, 'followers', 5); // a drift left by a crash: stored 6, truth 1
    const store = new HBaseMaintenanceStore(hbase, ns);
    let raced = false;
    const racing = Object.assign(Object.create(store) as HBaseMaintenanceStore, {
      async recount(user: string, max: number) {
        const counted = await store.recount(user, max);
        if (user === amy && !raced) {
          raced = true;
          await follow(deps, cat, amy); // a live follow: its rows and its increment land now
        }
        return counted;
      },
    });
    await runToCompletion(repairRelationsJob(racing, { settleMs: 300, queue: deps.queue }), { rowsPerStep: 1000 });
    expect(raced).toBe(true);
    // The plain put of the old job would have written the pre-follow count (1) over the increment.
    expect(await stores.counters.get(amy, 'followers')).toBe(7);
    await runToCompletion(repairRelationsJob(store, { settleMs: 300, queue: deps.queue }), { rowsPerStep: 1000 });
    expect(await stores.counters.get(amy, 'followers')).toBe(2);
    await expectEdge(cat, amy, true);
  });
});
