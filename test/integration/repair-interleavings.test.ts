// test/integration/repair-interleavings.test.ts — the races of the relation repair job
// (shared/use-cases/jobs/repair-relations.ts) forced on the real HBase in one exact order: the
// job is held at a named step (test/support/interleave.ts) while a follow operation runs inside
// the gap, then released. Each test first shows the bad intermediate state really happened, then
// delivers what is queued (the settles, as the worker would after the settle window) and asserts
// invariant C of docs/consistency.md.
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { HBaseMaintenanceStore } from '../../shared/adapters/hbase/hbase-maintenance-store.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { repairRelationsJob } from '../../shared/use-cases/jobs/repair-relations.js';
import { follow, unfollow } from '../../shared/use-cases/relations.js';
import { drainQueue, userFactory, feedWorld } from '../support/feed-harness.js';
import { runToCompletion } from '../support/job-driver.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_repair_race_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const { stores, gate, queued, deps } = feedWorld(hbase, ns);
const store = new HBaseMaintenanceStore(hbase, ns);

useNamespace(hbase, ns);

beforeEach(() => {
  queued.length = 0;
});

const users = userFactory(stores.users);
/** The worker: handles queued messages (settles included, as after the settle window) until none is left. */
const settleAll = () => drainQueue(deps, queued);
const followersOf = async (user: string) => (await stores.relations.followers(user, 100)).items.map((e) => e.handle);

/** Invariant C: both sides of the edge agree, and both counters match the rows. */
async function expectEdge(reader: string, author: string, following: boolean) {
  expect(await stores.relations.isFollowing(reader, author), `${reader} follows ${author}`).toBe(following);
  const followers = await followersOf(author);
  expect(followers.includes(reader), `${reader} among ${author}'s followers`).toBe(following);
  expect(await stores.counters.get(author, 'followers')).toBe(followers.length);
  expect(await stores.counters.get(reader, 'following')).toBe(
    (await stores.relations.following(reader, 100)).items.length,
  );
}

describe('the repair job never leaves a followers side behind an unfollow (invariant C)', () => {
  it('an unfollow (and its settle) landing between the job’s read and its write is healed by the settle the job queued', async () => {
    const [amy, bob] = await users('amy', 'bob');
    await follow(deps, bob, amy);
    await settleAll();
    // A follow stopped between its two writes: the followers side is missing, so the job will write it.
    const since = (await stores.relations.edge(bob, amy))!.since;
    await stores.relations.removeFollowerSide(bob, amy, since);

    // The job has read bob's follow of amy (and the missing other side), and waits before its write…
    const held = gate.holdAt('repair.edges-read', (d) => (d.owners ?? '').split(',').includes(bob));
    // The job's waits are where the worker delivers what is due (the settles), as it would meanwhile.
    let duringTheWait: string[] | undefined;
    const worker = async () => {
      duringTheWait ??= await followersOf(amy);
      await settleAll();
    };
    const job = runToCompletion(
      repairRelationsJob(store, { settleMs: 100, step: gate.hook, queue: deps.queue, sleep: worker }),
      { rowsPerStep: 1000 },
    );
    await held.reached;
    // …while bob unfollows amy, and that unfollow's settle runs: nothing to remove yet.
    await unfollow(deps, bob, amy);
    await settleAll();
    expect(await followersOf(amy)).toEqual([]);
    held.release();
    const { outcomes } = await job;
    expect(outcomes.at(-1)).toMatchObject({ status: 'done' });

    // The bad state, once the job had written (seen in its first wait, or at its end if it never
    // waited): the followers side is back, though bob follows nobody.
    expect(duringTheWait ?? (await followersOf(amy))).toEqual([bob]);

    // The heal: what the job queued, delivered after the settle window, removed it again; and the
    // job recounted amy's followers only after that, so her counter is exact too.
    await settleAll();
    await expectEdge(bob, amy, false);
  });
});
