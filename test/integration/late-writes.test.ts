// test/integration/late-writes.test.ts — writes that come late, forced on the real HBase: what an
// overloaded machine does to the feed (docs/consistency.md "Time"). An invocation held
// past its operation budget and then resumed (as Lambda thaws a frozen one, or as the local
// emulator keeps running a handler past its timeout) must write nothing more; a settle that read
// the celebrity flag in the middle of a promotion must not leave a follower unmarked for good.
// Each test shows the state the late write would have left, then the heal or the refusal.
import type { Context } from 'aws-lambda';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { inInvocation } from '../../shared/observability/invocation.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { currentDeadline, operationBudgetMs } from '../../shared/runtime/deadline.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, unfollow } from '../../shared/use-cases/relations.js';
import { drainQueue, integrationLimits, userFactory } from '../support/feed-harness.js';
import { interleaver } from '../support/interleave.js';
import { useNamespace } from '../support/namespace.js';

const ALL = { limit: 100_000 };
const ns = `it_late_${Date.now().toString(36)}`;
// As the functions build it (shared/wiring/hbase.ts): every call obeys the invocation's deadline.
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000, deadline: currentDeadline });
const stores = hbaseFeedStores(hbase, ns);
const gate = interleaver();
const queued: FanoutMessage[] = [];
const deps: FeedDeps = {
  ...stores,
  queue: { send: async (m) => void queued.push(m) },
  // Threshold 3: every author here becomes a celebrity with its third follower.
  limits: { ...integrationLimits, celebrityFollowers: 3 },
  step: gate.hook,
};
useNamespace(hbase, ns);
beforeEach(() => {
  queued.length = 0;
});

const users = userFactory(stores.users);
/** The worker, the settle messages included (as after the settle window), until nothing is queued. */
const settleAll = () => drainQueue(deps, queued);
const markers = async (reader: string) => (await stores.inbox.read(reader, ALL)).celebrities;
function take<T extends FanoutMessage['type']>(
  type: T,
  match: (m: Extract<FanoutMessage, { type: T }>) => boolean = () => true,
) {
  const i = queued.findIndex((m) => m.type === type && match(m as Extract<FanoutMessage, { type: T }>));
  if (i < 0) throw new Error(`no ${type} message queued`);
  return queued.splice(i, 1)[0] as Extract<FanoutMessage, { type: T }>;
}
async function timelineIds(reader: string): Promise<string[]> {
  return (await homeTimeline(deps, reader, 50)).items.map((p) => p.id);
}
/** A celebrity `star` followed by `reader` and two others, everything settled. */
async function celebrityFollowedBy(reader: string) {
  const [star, f1, f2] = await users('star', 'f1', 'f2');
  for (const f of [f1, f2, reader]) await follow(deps, f, star);
  await settleAll();
  expect(await stores.celebrities.isCelebrity(star)).toBe(true);
  expect(await markers(reader)).toEqual([star]);
  return star;
}

describe('an invocation resumed after its operation budget writes nothing (docs/consistency.md "Time")', () => {
  // A 10 s function timeout, a settle window of 5 s: the budget (750 ms) cuts first, as it must.
  const settleMs = 5_000;
  const budget = operationBudgetMs(settleMs);
  const lambdaContext = { awsRequestId: 'late-unfollow', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
  const asInvocation = <T>(fn: () => Promise<T>) =>
    inInvocation(() => 'late-writes', fn, { budgetMs: () => budget })(undefined, lambdaContext);

  it('forced: an unfollow frozen between its edge removal and its marker removal, thawed after a refollow and its settle, leaves the refollow marked', async () => {
    const bob = (await users('bob'))[0]!;
    const star = await celebrityFollowedBy(bob);
    const held = gate.holdAt('unfollow.view-next', (d) => d.follower === bob);
    const unfollowing = asInvocation(() => unfollow(deps, bob, star)).catch((e: unknown) => e);
    await held.reached;
    // Frozen past its budget, well inside its function timeout: the old deadline (timeout − 1 s)
    // would still let its writes through. Meanwhile bob follows again, and everything settles.
    await sleep(budget + 300);
    await follow(deps, bob, star);
    await settleAll();
    expect(await markers(bob)).toEqual([star]);
    held.release();
    const outcome = await unfollowing;
    expect(outcome).toMatchObject({ name: 'HBaseError', deadline: true });
    // Nothing of the thawed unfollow landed: the marker the refollow set stays, and the posts show.
    expect(await markers(bob)).toEqual([star]);
    const post = (await publishPost(deps, star, { body: 'after the refollow' })).post.id;
    await settleAll();
    expect(await timelineIds(bob)).toContain(post);
    expect(await stores.relations.isFollowing(bob, star)).toBe(true);
  });
});

describe('a celebrity flag change has a settle of its own (invariant D)', () => {
  it('forced: a follow’s settle that read the flag between the promotion’s markers and its flag drops the marker; the promotion’s recheck restores it', async () => {
    const [star, f1, f2, bob] = await users('star', 'f1', 'f2', 'bob');
    for (const f of [f1, f2]) await follow(deps, f, star);
    await settleAll();
    await follow(deps, bob, star); // the third follower: marks bob, queues the promotion and bob's settle
    const held = gate.holdAt('promote.marked', (d) => d.author === star);
    const promoting = handleFanoutMessage(deps, take('promote'));
    await held.reached;
    // Every follower is marked, the flag not yet written: bob's settle reads "not a celebrity"
    // and replaces the marker with a backfill.
    await handleFanoutMessage(
      deps,
      take('settle', (m) => m.reader === bob && m.followee === star),
    );
    held.release();
    await promoting;
    expect(await stores.celebrities.isCelebrity(star)).toBe(true);
    expect(await markers(bob)).toEqual([]); // a celebrity's follower with no marker: blind to its posts
    const post = (await publishPost(deps, star, { body: 'after the promotion' })).post.id;
    await settleAll(); // the promotion's recheck among what is queued
    expect(await markers(bob)).toEqual([star]);
    expect(await timelineIds(bob)).toContain(post);
    for (const f of [f1, f2]) expect(await timelineIds(f)).toContain(post);
  });

  it('forced: a part of a demotion walk that runs after a new promotion stops, and leaves the promotion’s markers', async () => {
    const [star, f1, f2, f3] = await users('star', 'f1', 'f2', 'f3');
    for (const f of [f1, f2, f3]) await follow(deps, f, star);
    await settleAll();
    // The demotion's first part (the flag), then a promotion lands whole, its recheck included,
    // before the demotion's next part runs (a long walk, or a message delivered late).
    await stores.celebrities.setCelebrity(star, false);
    await handleFanoutMessage(deps, { v: 1, type: 'promote', author: star });
    await settleAll();
    expect(await stores.celebrities.isCelebrity(star)).toBe(true);
    // A later part of the demotion walk (its cursor past the first follower) finds the flag set again.
    const cursor = (await stores.relations.followers(star, 1)).nextCursor!;
    const late = await handleFanoutMessage(deps, { v: 1, type: 'demote', author: star, cursor });
    expect(late).toMatchObject({ skipped: 'flag-changed' });
    await settleAll();
    for (const f of [f1, f2, f3]) expect(await markers(f)).toEqual([star]);
  });
});
