// test/support/feed-harness.ts — what the integration tests of the feed use cases share: fresh
// users per test (so tests never see each other's rows) and a queue the test drains by hand,
// delivering each message to the real worker logic.
import { HBasePeopleIndex } from '../../shared/adapters/hbase/hbase-people-index.js';
import { HBaseSessionStore } from '../../shared/adapters/hbase/hbase-session-store.js';
import { HBaseLoginThrottle } from '../../shared/adapters/hbase/hbase-user-store.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import type { FeedLimits } from '../../shared/domain/limits.js';
import type { HBaseRequestEvent, HBaseRestClient } from '../../shared/hbase/index.js';
import { sequentialDepth } from '../../shared/observability/round-trips.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import type { UserStore } from '../../shared/ports/user-store.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';
import type { LoginDeps } from '../../shared/use-cases/log-in.js';
import { registerUser, type AccountDeps } from '../../shared/use-cases/register-user.js';
import { interleaver } from './interleave.js';
import { scryptPasswords } from '../../shared/auth/password.js';
import { jwtAccessTokens } from '../../shared/auth/tokens.js';

/** `users('ann', 'bob')` registers `ann_<n>`, `bob_<n>` (a new n per call) and returns the handles. */
export function userFactory(store: UserStore) {
  let n = 0;
  return async function users<N extends string[]>(...names: N): Promise<{ [K in keyof N]: string }> {
    const run = (n++).toString(36);
    const handles = names.map((x) => `${x}_${run}`);
    for (const h of handles)
      await store.create({ handle: h, displayName: h, passwordHash: 'x', createdAt: Date.now() });
    return handles as { [K in keyof N]: string };
  };
}

/**
 * The same, registered through the use case with `password` and a display name (`Name <handle>`),
 * so they can log in, leave and be found: for the account tests (leaving, erasure).
 */
export function accountFactory(deps: AccountDeps, password: string) {
  let n = 0;
  return async function users<N extends string[]>(...names: N): Promise<{ [K in keyof N]: string }> {
    const run = (n++).toString(36);
    const handles = names.map((x) => `${x}_${run}`);
    await Promise.all(handles.map((handle) => registerUser(deps, { handle, displayName: `Name ${handle}`, password })));
    return handles as { [K in keyof N]: string };
  };
}

/**
 * The feed tests' world: the feed stores on the real tables of `ns`, a queue the test drains
 * (`queued`), the interleaving gate (`gate`) and the integration limits. A file that needs more
 * adds it to `deps`.
 */
export function feedWorld(hbase: HBaseRestClient, ns: string) {
  const stores = hbaseFeedStores(hbase, ns);
  const gate = interleaver();
  const queued: FanoutMessage[] = [];
  const deps: FeedDeps = {
    ...stores,
    queue: { send: async (m) => void queued.push(m) },
    limits: { ...integrationLimits },
    step: gate.hook,
  };
  return { stores, gate, queued, deps };
}

/**
 * The account tests' world (leaving, erasure): the feed world, the people index and what a login
 * needs, with a lockout no test reaches.
 */
export function accountWorld(hbase: HBaseRestClient, ns: string) {
  const { stores, gate, queued, deps: feed } = feedWorld(hbase, ns);
  const deps = {
    ...feed,
    people: new HBasePeopleIndex(hbase, ns),
    throttle: new HBaseLoginThrottle(hbase, ns),
    sessions: new HBaseSessionStore(hbase, ns),
    passwords: scryptPasswords,
    tokens: jwtAccessTokens({ secret: `${ns}-token-secret-of-the-tests`.padEnd(40, '.'), ttlSeconds: 900 }),
    refreshTtlSeconds: 3600,
    policy: { maxFailures: 50, lockSeconds: 60, globalMaxFailures: 500, globalWindowSeconds: 900 },
  } satisfies FeedDeps & LoginDeps & { people: HBasePeopleIndex };
  return { stores, gate, queued, deps };
}

/** Hands queued messages (settles included, as after the settle window) to the worker until none is left. */
export async function drainQueue(deps: FeedDeps, queued: FanoutMessage[]): Promise<void> {
  for (let i = 0; queued.length > 0; i++) {
    if (i > 500) throw new Error('queue does not drain');
    await handleFanoutMessage(deps, queued.shift()!);
  }
}

/** Feed limits for integration tests: production-sized except a 1 s settle window and write limits out of the way. */
export const integrationLimits: FeedLimits = {
  fanoutChunkSize: 100,
  fanoutChunksPerMessage: 2,
  backfillLimit: 200,
  inboxCap: 800,
  maxFollowing: 5000,
  celebrityFollowers: 10_000,
  inactiveAfterMs: 30 * 86_400_000,
  settleSeconds: 1,
  writesPerMinute: { comment: 1000, like: 1000, repost: 1000 },
};

/**
 * Records every request an HBase client sends (pass `onRequest` to the client), so a test can
 * count what one call sent and its round trips (requests in flight together share one).
 */
export function requestRecorder() {
  const requests: RecordedRequest[] = [];
  const onRequest = (e: HBaseRequestEvent) => void requests.push({ ...e, end: performance.now() });
  async function counted<T>(op: () => Promise<T>): Promise<{ result: T; calls: RecordedRequest[]; depth: number }> {
    const from = requests.length;
    const result = await op();
    const calls = requests.slice(from);
    return { result, calls, depth: roundTrips(calls) };
  }
  return { requests, onRequest, counted };
}

/** An HBase request as a test's recorder saw it: the transport's event and when it ended. */
export type RecordedRequest = HBaseRequestEvent & { end: number };

/**
 * The sequential round trips the design made: an attempt that got no answer or a 503 (the client
 * retried it) is the network's, not the design's, and a handed-off request is waited on by nothing.
 */
export const roundTrips = (calls: readonly RecordedRequest[]): number =>
  sequentialDepth(
    calls
      .filter((c) => c.status !== 0 && c.status !== 503)
      .map((c) => ({ start: c.end - c.durationMs, end: c.end, ...(c.background ? { background: true } : {}) })),
  );

/** The requests, one a line with status and span (ms), for an assertion's message. */
export const describeCalls = (calls: readonly RecordedRequest[]): string =>
  calls
    .map(
      (c) =>
        `${c.method} ${c.path.slice(0, 100)} → ${c.status} [${(c.end - c.durationMs).toFixed(1)}, ${c.end.toFixed(1)}]`,
    )
    .join('\n');

/** The table a request went to (its name without the namespace). */
export const tableOf = (c: HBaseRequestEvent) => decodeURIComponent(c.path.split('/')[1]!).split(':')[1];
