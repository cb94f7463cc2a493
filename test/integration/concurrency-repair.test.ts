// test/integration/concurrency-repair.test.ts — 50 concurrent follow / unfollow / publish
// operations on the same few users, on the real HBase. Once the queue is drained (the settle
// messages delivered, as the worker would), every relation is symmetric and every count exact
// WITHOUT the repair job; the repair job then runs to completion and finds nothing to fix.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { HBaseMaintenanceStore } from '../../shared/adapters/hbase/hbase-maintenance-store.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import type { Edge } from '../../shared/ports/feed-store.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import { repairRelationsJob } from '../../shared/use-cases/jobs/repair-relations.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';
import { follow, unfollow } from '../../shared/use-cases/relations.js';
import { runToCompletion } from '../support/job-driver.js';
import { dropNamespace } from '../support/namespace.js';

const ns = `it_conc_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const stores = hbaseFeedStores(hbase, ns);
const queued: FanoutMessage[] = [];
const deps: FeedDeps = {
  ...stores,
  queue: { send: async (m) => void queued.push(m) },
  limits: {
    fanoutChunkSize: 100,
    fanoutChunksPerMessage: 1,
    backfillLimit: 10,
    inboxCap: 800,
    maxFollowing: 5000,
    celebrityFollowers: 10_000,
    inactiveAfterMs: 30 * 86_400_000,
    settleSeconds: 1,
    writesPerMinute: { comment: 1000, like: 1000, repost: 1000 },
  },
};
const USERS = ['c0', 'c1', 'c2', 'c3', 'c4'];

beforeAll(async () => {
  await applySchema(hbase, ns);
  for (const h of USERS)
    await stores.users.create({ handle: h, displayName: h, passwordHash: 'x', createdAt: Date.now() });
}, 120_000);

afterAll(async () => {
  await dropNamespace(hbase, ns);
  await hbase.close();
});

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

async function all<T>(list: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

describe('concurrent operations + repair', () => {
  it('leaves relations symmetric and counts exact', async () => {
    const next = rng(42);
    const pick = () => USERS[Math.floor(next() * USERS.length)]!;
    const ops: (() => Promise<unknown>)[] = [];
    const posted = new Map<string, number>();
    for (let i = 0; i < 50; i++) {
      const a = pick();
      let b = pick();
      if (b === a) b = USERS[(USERS.indexOf(a) + 1) % USERS.length]!;
      const r = next();
      if (r < 0.45) ops.push(() => follow(deps, a, b));
      else if (r < 0.8) ops.push(() => unfollow(deps, a, b));
      else {
        posted.set(a, (posted.get(a) ?? 0) + 1);
        ops.push(() => publishPost(deps, a, { body: `post ${i}` }));
      }
    }
    // Repeat some pairs on purpose: racing duplicates of the same follow / unfollow.
    ops.push(
      () => follow(deps, 'c0', 'c1'),
      () => follow(deps, 'c0', 'c1'),
      () => unfollow(deps, 'c2', 'c3'),
      () => unfollow(deps, 'c2', 'c3'),
    );
    await Promise.all(ops.map((op) => op()));
    // Settled: what the operations queued (fan-out, backfills, settles) has run.
    while (queued.length > 0) await handleFanoutMessage(deps, queued.shift()!);

    await expectSymmetricAndExact(posted);
    const { outcomes } = await runToCompletion(
      repairRelationsJob(new HBaseMaintenanceStore(hbase, ns), { settleMs: 500, queue: deps.queue }),
      { rowsPerStep: 7 },
    );
    expect(outcomes.at(-1)).toMatchObject({ status: 'done', totals: { fixed: 0 } });
    await expectSymmetricAndExact(posted);
  });
});

async function expectSymmetricAndExact(posted: Map<string, number>) {
  const following = new Map<string, Edge[]>();
  const followers = new Map<string, Edge[]>();
  for (const u of USERS) {
    following.set(u, await all((c) => stores.relations.following(u, 100, c)));
    followers.set(u, await all((c) => stores.relations.followers(u, 100, c)));
  }
  for (const u of USERS) {
    // Symmetric: u follows v ⇔ u is among v's followers.
    for (const v of USERS) {
      const uFollowsV = following.get(u)!.some((e) => e.handle === v);
      const listed = followers.get(v)!.some((e) => e.handle === u);
      expect(listed, `${u} → ${v}`).toBe(uFollowsV);
    }
    // Exact counts.
    expect(await stores.counters.get(u, 'following'), `${u} following`).toBe(following.get(u)!.length);
    expect(await stores.counters.get(u, 'followers'), `${u} followers`).toBe(followers.get(u)!.length);
    expect(await stores.counters.get(u, 'posts'), `${u} posts`).toBe(posted.get(u) ?? 0);
  }
}
