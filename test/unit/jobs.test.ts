// test/unit/jobs.test.ts — the scheduled jobs on an in-memory MaintenanceStore (same key-order
// semantics as the HBase tables) and the job runner's chaining and guards. The same jobs run
// against the real HBase + ElasticMQ in test/integration/jobs.test.ts and through
// serverless-offline's Lambda port in test/e2e/serial/jobs.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import type { DeadLetter, DeadLetterQueue } from '../../shared/ports/dead-letter-queue.js';
import type { JobContinuationPayload } from '../../shared/ports/job-continuation.js';
import { deadLetterReport, deadLetterReportJob, messageType } from '../../shared/use-cases/jobs/dead-letter-report.js';
import {
  MAX_ATTEMPTS,
  runJobStep,
  type JobDefinition,
  type JobLog,
  type JobRunnerDeps,
} from '../../shared/use-cases/jobs/job-runner.js';
import { regenerationSweepJob } from '../../shared/use-cases/jobs/regeneration-sweep.js';
import { awaySweepJob } from '../../shared/use-cases/jobs/away-sweep.js';
import { repairRelationsJob } from '../../shared/use-cases/jobs/repair-relations.js';
import { trimInboxesJob } from '../../shared/use-cases/jobs/trim-inboxes.js';
import { SCHEDULED_EVENT, runToCompletion, silentLog } from '../support/job-driver.js';
import { FakeMaintenanceStore } from '../support/fakes/jobs.js';
import { z } from 'zod';

// --- helpers ---------------------------------------------------------------------------------

function recordingLog() {
  const lines: { level: string; message: string; attrs: Record<string, unknown> }[] = [];
  const log: JobLog = {
    info: (message, attrs) => void lines.push({ level: 'info', message, attrs }),
    warn: (message, attrs) => void lines.push({ level: 'warn', message, attrs }),
    error: (message, attrs) => void lines.push({ level: 'error', message, attrs }),
  };
  return { log, lines };
}

function runnerDeps(overrides: Partial<JobRunnerDeps> = {}) {
  const sent: JobContinuationPayload[] = [];
  const { log, lines } = recordingLog();
  const deps: JobRunnerDeps = {
    continuation: { continueWith: async (_fn, p) => void sent.push(p) },
    log,
    rowsPerStep: 10,
    maxSteps: 100,
    functionName: 'weibo-test-job',
    retryPauseMs: 0,
    ...overrides,
  };
  return { deps, sent, lines };
}

/** A job over the numbers 0..total-1: cursor = next number as text. */
function countingJob(
  total: number,
  opts: { failTimes?: number; stuck?: boolean } = {},
): JobDefinition<{ sum: number }> {
  let failures = opts.failTimes ?? 0;
  return {
    name: 'counting',
    carry: z.strictObject({ sum: z.number() }),
    maxRunMs: 60_000,
    async step({ cursor, carry, rowsPerStep }) {
      if (failures > 0) {
        failures--;
        throw new Error('HBase is down');
      }
      const from = cursor === undefined ? 0 : Number(cursor.slice(1));
      const to = Math.min(total, from + rowsPerStep);
      const sum = (carry?.sum ?? 0) + (to - from);
      if (to >= total) return { done: true, stats: { seen: to - from, fixed: 0 } };
      return {
        done: false,
        cursor: opts.stuck ? cursor : `n${to}`,
        carry: opts.stuck ? carry : { sum },
        stats: { seen: to - from, fixed: 1 },
      };
    },
  } as JobDefinition<{ sum: number }>;
}

/** n feed entries, newest first. */
const entriesOf = (n: number, tag = 'p'): string[] => Array.from({ length: n }, (_, i) => `${tag}${i}`);

// --- the runner --------------------------------------------------------------------------------

describe('job runner', () => {
  it('starts a run from a scheduled event and hands the rest to the same function', async () => {
    const { deps, sent, lines } = runnerDeps({ rowsPerStep: 4, now: () => 5_000 });
    const outcome = await runJobStep(countingJob(10), SCHEDULED_EVENT, deps);
    expect(outcome).toMatchObject({ status: 'continued', step: 1, cursor: 'n4', stats: { seen: 4, fixed: 1 } });
    expect(sent).toEqual([
      {
        runId: outcome.runId,
        step: 2,
        startedAt: 5_000,
        attempt: 0,
        cursor: 'n4',
        carry: { sum: 4 },
        totals: { seen: 4, fixed: 1 },
      },
    ]);
    const progress = lines.find((l) => l.message === 'job step')!;
    expect(progress.attrs).toMatchObject({
      job: 'counting',
      runId: outcome.runId,
      step: 1,
      cursor: 'n4',
      stats: { seen: 4, fixed: 1 },
    });
    expect(progress.attrs).toHaveProperty('elapsedMs');
  });

  it('chains through JSON payloads to the end, then logs the totals once', async () => {
    const { log, lines } = recordingLog();
    const { outcomes, payloads } = await runToCompletion(countingJob(10), { rowsPerStep: 3, log });
    expect(outcomes.map((o) => o.status)).toEqual(['continued', 'continued', 'continued', 'done']);
    expect(payloads.map((p) => p.step)).toEqual([2, 3, 4]);
    expect(new Set(outcomes.map((o) => o.runId)).size).toBe(1);
    const finished = lines.filter((l) => l.message === 'job finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]!.attrs).toMatchObject({ totals: { seen: 10, fixed: 3 }, steps: 4 });
  });

  it('accepts a manual start from a position, and rejects anything else without running', async () => {
    const { deps, sent } = runnerDeps({ rowsPerStep: 4 });
    expect(await runJobStep(countingJob(10), { cursor: 'n8' }, deps)).toMatchObject({ status: 'done', step: 1 });
    for (const bad of [
      null,
      'go',
      { cursor: 'no spaces allowed' },
      { runId: 'x', step: 0, startedAt: 0, attempt: 0, totals: { seen: 0, fixed: 0 } },
      { surprise: 1 },
    ]) {
      expect(await runJobStep(countingJob(10), bad, deps)).toMatchObject({
        status: 'stopped',
        reason: 'invalid-event',
      });
    }
    expect(sent).toEqual([]);
  });

  it('refuses a continuation whose carry does not validate', async () => {
    const { deps } = runnerDeps();
    const event = {
      runId: 'r1',
      step: 2,
      startedAt: Date.now(),
      attempt: 0,
      cursor: 'n4',
      carry: { sum: 'four' },
      totals: { seen: 4, fixed: 0 },
    };
    expect(await runJobStep(countingJob(10), event, deps)).toMatchObject({
      status: 'stopped',
      reason: 'invalid-event',
    });
  });

  it('stops at maxSteps, at the deadline, and when a step makes no progress — never loops', async () => {
    const { deps, sent } = runnerDeps({ maxSteps: 3 });
    const t0 = Date.now();
    const event = (step: number, startedAt = t0) => ({
      runId: 'r1',
      step,
      startedAt,
      attempt: 0,
      cursor: 'n4',
      totals: { seen: 0, fixed: 0 },
    });
    expect(await runJobStep(countingJob(100), event(4), deps)).toMatchObject({
      status: 'stopped',
      reason: 'max-steps',
      next: event(4),
    });
    expect(await runJobStep(countingJob(100), event(2, t0 - 61_000), deps)).toMatchObject({
      status: 'stopped',
      reason: 'deadline',
    });
    expect(await runJobStep(countingJob(100, { stuck: true }), event(2), deps)).toMatchObject({
      status: 'stopped',
      reason: 'no-progress',
    });
    expect(sent).toEqual([]);
    const { outcomes } = await runToCompletion(countingJob(1_000), { rowsPerStep: 1, maxSteps: 5 });
    expect(outcomes).toHaveLength(6);
    expect(outcomes.at(-1)).toMatchObject({ status: 'stopped', reason: 'max-steps' });
  });

  it('retries a failed step in a fresh invocation a bounded number of times', async () => {
    const { outcomes } = await runToCompletion(countingJob(5, { failTimes: 2 }), { rowsPerStep: 10 });
    expect(outcomes.map((o) => o.status)).toEqual(['retrying', 'retrying', 'done']);
    const { outcomes: hopeless } = await runToCompletion(countingJob(5, { failTimes: 99 }), { rowsPerStep: 10 });
    expect(hopeless).toHaveLength(MAX_ATTEMPTS);
    expect(hopeless.at(-1)).toMatchObject({ status: 'stopped', reason: 'failed', error: 'Error: HBase is down' });
  });

  it('does not throw when the hand-on fails: it logs the payload to resume from', async () => {
    const { deps, lines } = runnerDeps({
      rowsPerStep: 4,
      continuation: { continueWith: async () => Promise.reject(new Error('throttled')) },
    });
    const outcome = await runJobStep(countingJob(10), SCHEDULED_EVENT, deps);
    expect(outcome).toMatchObject({
      status: 'stopped',
      reason: 'continuation-failed',
      next: { step: 2, cursor: 'n4' },
    });
    expect(lines.at(-1)).toMatchObject({ level: 'error', attrs: { next: { cursor: 'n4', carry: { sum: 4 } } } });
  });
});

// --- trim --------------------------------------------------------------------------------------

describe('trim inboxes', () => {
  it('cuts feeds over the cap to exactly the newest cap entries, one write per feed, then the outboxes', async () => {
    const store = new FakeMaintenanceStore();
    const over = entriesOf(25);
    store.feed.inbox.set('ann', over);
    store.feed.inbox.set('bob', entriesOf(20));
    store.feed.inbox.set('cat', entriesOf(7));
    for (let i = 0; i < 5; i++) store.feed.inbox.set(`u${i}`, entriesOf(21));
    store.feed.outbox.set('ann', entriesOf(13));
    store.feed.outbox.set('bob', entriesOf(12));
    const { outcomes } = await runToCompletion(trimInboxesJob(store, { inbox: 20, outbox: 12 }), { rowsPerStep: 3 });

    expect(outcomes.at(-1)).toMatchObject({ status: 'done', totals: { seen: 10, fixed: 7 } });
    expect(store.feed.inbox.get('ann')).toEqual(over.slice(0, 20));
    expect(store.feed.inbox.get('bob')).toEqual(entriesOf(20));
    expect(store.feed.inbox.get('cat')).toEqual(entriesOf(7));
    for (let i = 0; i < 5; i++) expect(store.feed.inbox.get(`u${i}`)).toEqual(entriesOf(20));
    expect(store.feed.outbox.get('ann')).toEqual(entriesOf(12));
    expect(store.calls.filter((c) => c.startsWith('dropPastCap'))).toHaveLength(7);
    // A re-run finds nothing to do.
    const again = await runToCompletion(trimInboxesJob(store, { inbox: 20, outbox: 12 }), { rowsPerStep: 100 });
    expect(again.outcomes.at(-1)!.totals.fixed).toBe(0);
  });
  // That an entry written again after the read survives the trim is the store's promise, held
  // on the real HBase in test/integration/jobs.test.ts ("spares a cell rewritten…") and on both
  // by the maintenance store's contract (test/support/contracts/maintenance-store.contract.ts).
});

// --- repair ------------------------------------------------------------------------------------

function symmetricAndExact(store: FakeMaintenanceStore, truth: Map<string, string>, users: string[]) {
  const f = [...store.follows.entries()].map(([k, since]) => `${k}@${since}`).sort();
  const r = [...store.copies.entries()].map(([k, since]) => `${k}@${since}`).sort();
  expect(f).toEqual([...truth.entries()].map(([k, s]) => `${k}@${s}`).sort()); // the follows untouched
  expect(r).toEqual(f); // every follow has its copy (same since), and no copy without its follow
  for (const u of users) {
    const following = [...truth.keys()].filter((k) => k.startsWith(`${u}>`)).length;
    const followers = [...truth.keys()].filter((k) => k.endsWith(`>${u}`)).length;
    expect(store.stored(u), u).toEqual({ following, followers });
  }
}

/** A queue that keeps what it is sent, with the delay. */
function recordingQueue() {
  const sent: { message: FanoutMessage; delaySeconds?: number }[] = [];
  return {
    sent,
    send: async (message: FanoutMessage, opts?: { delaySeconds?: number }) => void sent.push({ message, ...opts }),
  };
}

describe('repair relations', () => {
  it('restores missing copies, drops orphan copies, resyncs since, and makes every counter exact', async () => {
    const store = new FakeMaintenanceStore();
    const users = ['ann', 'bob', 'cat', 'dan', 'eve', 'zed'];
    for (const u of users) store.addUser(u, { following: 3, followers: 3 });
    store.addUser('zed', { following: 7, followers: 9 }); // no relations at all
    const truth = new Map<string, string>();
    const follow = (a: string, b: string, since: string) => {
      store.follow(a, b, since);
      truth.set(`${a}>${b}`, since);
    };
    follow('ann', 'bob', '1');
    follow('ann', 'cat', '2');
    follow('bob', 'cat', '3');
    follow('dan', 'ann', '4');
    store.addFollow('eve', 'ann', '5'); // copy missing (crash between the two writes)
    truth.set('eve>ann', '5');
    store.addCopy('dan', 'cat', '6'); // orphan copy (crash inside an unfollow)
    store.addCopy('ann', 'cat', '999'); // since out of step with the follow
    store.addForeign('bob'); // not a relation of ours: skipped, never touched

    const { log, lines } = recordingLog();
    const queue = recordingQueue();
    const { outcomes } = await runToCompletion(repairRelationsJob(store, { settleMs: 0, queue }), {
      rowsPerStep: 2,
      log,
    });
    expect(outcomes.length).toBeGreaterThan(3);
    // The step lines name the counters they fixed (stored → exact), for the operator.
    const fixes = lines.flatMap((l) => (l.attrs.notes as { counterFixes?: string[] } | undefined)?.counterFixes ?? []);
    expect(fixes).toEqual(expect.arrayContaining(['ann following 3→2', 'cat following 3→0']));
    expect(outcomes.at(-1)).toMatchObject({ status: 'done' });
    symmetricAndExact(store, truth, users);
    expect(store.foreign).toEqual(['bob']);
    expect(outcomes.reduce((n, o) => n + (o.stats?.skippedRows ?? 0), 0)).toBeGreaterThanOrEqual(1);
    // Exactly one batch read per step.
    expect(store.calls.filter((c) => c === 'relationsBatch').length).toBeLessThanOrEqual(outcomes.length);
    // One settle per follow written or removed, delayed by the settle window, as follow/unfollow send it.
    expect(
      queue.sent.map(({ message: m }) => (m.type === 'settle' ? `${m.reader}>${m.followee}` : m.type)).sort(),
    ).toEqual(['ann>cat', 'dan>cat', 'eve>ann']);
    expect(queue.sent[0]).toEqual({
      message: {
        v: 1,
        type: 'settle',
        reader: expect.any(String),
        followee: expect.any(String),
        at: expect.any(Number),
      },
      delaySeconds: 0,
    });
    // Idempotent: a second run changes nothing, and queues nothing.
    const again = await runToCompletion(repairRelationsJob(store, { settleMs: 0, queue }), { rowsPerStep: 3 });
    expect(again.outcomes.at(-1)!.totals.fixed).toBe(0);
    expect(queue.sent).toHaveLength(3);
  });

  it('queues each settle before the write it guards, delayed by the settle window', async () => {
    const store = new FakeMaintenanceStore();
    store.addUser('ann');
    store.addUser('bob');
    store.addFollow('ann', 'bob', '1');
    const order: string[] = [];
    const queue = {
      send: async (m: FanoutMessage, o?: { delaySeconds?: number }) =>
        void order.push(`${m.type} +${o?.delaySeconds}s`),
    };
    const watched = Object.assign(Object.create(store) as FakeMaintenanceStore, {
      copyFollowerSides: async (follows: Parameters<FakeMaintenanceStore['copyFollowerSides']>[0]) => {
        order.push('write');
        return store.copyFollowerSides(follows);
      },
    });
    await runToCompletion(repairRelationsJob(watched, { settleMs: 60_000, queue, sleep: async () => {} }), {
      rowsPerStep: 10,
    });
    expect(order).toEqual(['settle +60s', 'write']);
  });

  it('keeps a copy that a re-follow rewrote between the read and the delete', async () => {
    const store = new FakeMaintenanceStore();
    store.addUser('ann');
    store.addUser('bob');
    store.addCopy('ann', 'bob', '1'); // orphan as read…
    const racing = Object.assign(Object.create(store) as FakeMaintenanceStore, {
      relationsBatch: async (opts: Parameters<FakeMaintenanceStore['relationsBatch']>[0]) => {
        const out = await store.relationsBatch(opts);
        store.follow('ann', 'bob', '2'); // …then ann re-follows before the delete
        return out;
      },
    });
    await runToCompletion(repairRelationsJob(racing, { settleMs: 0, queue: recordingQueue() }), { rowsPerStep: 10 });
    expect(store.copies.get('ann>bob')).toBe('2');
  });

  it('agrees with the truth for any graph, any damage and any step size (property)', async () => {
    const handles = ['a', 'a1', 'b', 'c', 'c_d', 'd', 'e', 'f', 'g9'];
    const arbitrary = fc.record({
      users: fc.subarray(handles, { minLength: 1 }),
      edges: fc.array(
        fc.record({
          a: fc.constantFrom(...handles),
          b: fc.constantFrom(...handles),
          damage: fc.constantFrom('none', 'no-r', 'other-since', 'none'),
        }),
        { maxLength: 30 },
      ),
      orphans: fc.array(fc.record({ a: fc.constantFrom(...handles), b: fc.constantFrom(...handles) }), {
        maxLength: 6,
      }),
      counters: fc.array(
        fc.record({ following: fc.integer({ min: 0, max: 5 }), followers: fc.integer({ min: 0, max: 5 }) }),
        { minLength: 9, maxLength: 9 },
      ),
      foreign: fc.array(fc.constantFrom('!', 'a', 'zzz', 'b'), { maxLength: 3 }),
      rowsPerStep: fc.integer({ min: 1, max: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async (g) => {
        const store = new FakeMaintenanceStore();
        for (const [i, u] of g.users.entries()) store.addUser(u, g.counters[i]!);
        const truth = new Map<string, string>();
        g.edges.forEach(({ a, b, damage }, i) => {
          if (a === b || truth.has(`${a}>${b}`)) return;
          const since = String(1_000 + i);
          truth.set(`${a}>${b}`, since);
          store.addFollow(a, b, since);
          if (damage === 'none') store.addCopy(a, b, since);
          if (damage === 'other-since') store.addCopy(a, b, '7');
        });
        for (const { a, b } of g.orphans) if (a !== b && !truth.has(`${a}>${b}`)) store.addCopy(a, b, '5');
        for (const at of g.foreign) store.addForeign(at);

        const { outcomes } = await runToCompletion(
          repairRelationsJob(store, { settleMs: 0, queue: recordingQueue() }),
          { rowsPerStep: g.rowsPerStep, maxSteps: 2_000 },
        );
        expect(outcomes.at(-1)).toMatchObject({ status: 'done' });
        symmetricAndExact(store, truth, g.users);
      }),
      { numRuns: 300 },
    );
  });
});

// --- regeneration sweep -------------------------------------------------------------------------

describe('regeneration sweep', () => {
  it('re-sends a regenerate message for marks older than the threshold (or unreadable) only', async () => {
    const store = new FakeMaintenanceStore();
    const now = 10_000_000;
    store.regen.set('ann', now - 601_000);
    store.regen.set('bob', now - 5_000);
    store.regen.set('cat', null);
    store.regen.set('dan', now - 3_600_000);
    store.regen.set('not a reader', now - 3_600_000);
    const sent: FanoutMessage[] = [];
    const job = regenerationSweepJob({
      store,
      queue: { send: async (m) => void sent.push(m) },
      stuckAfterMs: 600_000,
      now: () => now,
    });
    const { outcomes } = await runToCompletion(job, { rowsPerStep: 2 });
    expect(outcomes.at(-1)).toMatchObject({ status: 'done', totals: { seen: 5, fixed: 3 } });
    expect(sent.map((m) => (m.type === 'regenerate' ? m.reader : m.type)).sort()).toEqual(['ann', 'cat', 'dan']);
    expect(sent[0]).toEqual({ v: 1, type: 'regenerate', reader: expect.any(String) });
  });
});

// --- away sweep --------------------------------------------------------------------------------

describe('away sweep', () => {
  it('queues an away message for each reader past the window, unless already marked at that read, being rebuilt, or never recorded', async () => {
    const store = new FakeMaintenanceStore();
    const day = 86_400_000;
    const now = 100 * day;
    store.activity.set('ann', { seenAt: now - 31 * day, awayAt: null }); // away: marked
    store.activity.set('bob', { seenAt: now - 2 * day, awayAt: null }); // active
    store.activity.set('cat', { seenAt: now - 40 * day, awayAt: now - 40 * day }); // already marked at this read
    store.activity.set('dan', { seenAt: now - 40 * day, awayAt: now - 70 * day }); // back since, and away again
    store.activity.set('eve', { seenAt: now - 40 * day, awayAt: null });
    store.regen.set('eve', now - 1_000); // being rebuilt: she is back
    store.activity.set('fay', { seenAt: null, awayAt: null }); // unreadable
    store.activity.set('not a reader', { seenAt: now - 40 * day, awayAt: null });
    const sent: FanoutMessage[] = [];
    const job = awaySweepJob({
      store,
      queue: { send: async (m) => void sent.push(m) },
      inactiveAfterMs: 30 * day,
      now: () => now,
    });
    const { outcomes } = await runToCompletion(job, { rowsPerStep: 3 });
    expect(outcomes.at(-1)).toMatchObject({ status: 'done', totals: { seen: 7, fixed: 2 } });
    expect(sent.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { v: 1, type: 'away', reader: 'ann', seenAt: now - 31 * day },
      { v: 1, type: 'away', reader: 'dan', seenAt: now - 40 * day },
    ]);
  });
});

// --- dead-letter report -------------------------------------------------------------------------

describe('dead-letter report', () => {
  const dlq = (messages: DeadLetter[], visible = messages.length): DeadLetterQueue & { peeks: number } => ({
    name: 'weibo-test-fanout-dlq',
    peeks: 0,
    async counts() {
      return { visible, inFlight: 0 };
    },
    async peek(max) {
      this.peeks++;
      return messages.slice(0, max);
    },
  });

  it('names the type of a message, or "unparseable"', () => {
    expect(messageType('{"v":1,"type":"fanout","postId":"x"}')).toBe('fanout');
    for (const body of ['', 'not json', 'null', '[]', '{"type":7}', '{"type":"a b"}', `{"type":"${'x'.repeat(40)}"}`]) {
      expect(messageType(body), body).toBe('unparseable');
    }
  });

  it('counts the peeked messages by type with the oldest sent time, in one log line', async () => {
    const { log, lines } = recordingLog();
    const q = dlq(
      [
        { body: '{"v":1,"type":"fanout","postId":"a.1.000000000000"}', sentAt: 2_000, receiveCount: 5 },
        { body: '{"v":1,"type":"fanout","postId":"b.1.000000000000"}', sentAt: 1_000, receiveCount: 5 },
        { body: '{"v":1,"type":"backfill"}', sentAt: 3_000, receiveCount: 6 },
        { body: '%%%', sentAt: null, receiveCount: null },
      ],
      42,
    );
    const report = await deadLetterReport(q, log, () => 61_000);
    expect(report).toEqual({
      queue: 'weibo-test-fanout-dlq',
      approximateMessages: 42,
      approximateInFlight: 0,
      peeked: 4,
      byType: { fanout: 2, backfill: 1, unparseable: 1 },
      oldestSentAt: new Date(1_000).toISOString(),
      oldestAgeSeconds: 60,
    });
    expect(lines).toEqual([{ level: 'warn', message: 'dead-letter report', attrs: { report } }]);
  });

  it('runs as a one-step job that returns the report', async () => {
    const q = dlq([]);
    const { outcomes } = await runToCompletion(deadLetterReportJob(q, silentLog), { rowsPerStep: 500 });
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      status: 'done',
      detail: { approximateMessages: 0, byType: {}, oldestSentAt: null },
    });
    expect(q.peeks).toBe(1);
  });
});
