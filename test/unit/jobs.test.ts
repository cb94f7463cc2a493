// test/unit/jobs.test.ts — the scheduled jobs on an in-memory MaintenanceStore (same key-order
// semantics as the HBase tables) and the job runner's chaining and guards. The same jobs run
// against the real HBase + ElasticMQ in test/integration/jobs.test.ts and through
// serverless-offline's Lambda port in test/e2e/jobs.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import type { DeadLetter, DeadLetterQueue } from '../../shared/ports/dead-letter-queue.js';
import type { JobContinuationPayload } from '../../shared/ports/job-continuation.js';
import type { WideCell } from '../../shared/ports/maintenance-store.js';
import { deadLetterReport, deadLetterReportJob, messageType } from '../../shared/use-cases/jobs/dead-letter-report.js';
import { MAX_ATTEMPTS, runJobStep, type JobDefinition, type JobLog, type JobRunnerDeps } from '../../shared/use-cases/jobs/job-runner.js';
import { regenerationSweepJob } from '../../shared/use-cases/jobs/regeneration-sweep.js';
import { awaySweepJob } from '../../shared/use-cases/jobs/away-sweep.js';
import { repairRelationsJob } from '../../shared/use-cases/jobs/repair-relations.js';
import { trimInboxesJob } from '../../shared/use-cases/jobs/trim-inboxes.js';
import { SCHEDULED_EVENT, runToCompletion, silentLog } from '../support/job-driver.js';
import { FakeMaintenanceStore, edgeKey } from './jobs-fakes.js';
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
function countingJob(total: number, opts: { failTimes?: number; stuck?: boolean } = {}): JobDefinition<{ sum: number }> {
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
      return { done: false, cursor: opts.stuck ? cursor : `n${to}`, carry: opts.stuck ? carry : { sum }, stats: { seen: to - from, fixed: 1 } };
    },
  } as JobDefinition<{ sum: number }>;
}

const qual = (n: number) => Uint8Array.of(0, 0, n >> 8, n & 0xff); // ascending = "newest first"
const cellsOf = (n: number, ts = (i: number) => 1_000 + i): WideCell[] => Array.from({ length: n }, (_, i) => ({ qualifier: qual(i), timestamp: ts(i) }));

// --- the runner --------------------------------------------------------------------------------

describe('job runner', () => {
  it('starts a run from a scheduled event and hands the rest to the same function', async () => {
    const { deps, sent, lines } = runnerDeps({ rowsPerStep: 4, now: () => 5_000 });
    const outcome = await runJobStep(countingJob(10), SCHEDULED_EVENT, deps);
    expect(outcome).toMatchObject({ status: 'continued', step: 1, cursor: 'n4', stats: { seen: 4, fixed: 1 } });
    expect(sent).toEqual([
      { runId: outcome.runId, step: 2, startedAt: 5_000, attempt: 0, cursor: 'n4', carry: { sum: 4 }, totals: { seen: 4, fixed: 1 } },
    ]);
    const progress = lines.find((l) => l.message === 'job step')!;
    expect(progress.attrs).toMatchObject({ job: 'counting', runId: outcome.runId, step: 1, cursor: 'n4', stats: { seen: 4, fixed: 1 } });
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
    for (const bad of [null, 'go', { cursor: 'no spaces allowed' }, { runId: 'x', step: 0, startedAt: 0, attempt: 0, totals: { seen: 0, fixed: 0 } }, { surprise: 1 }]) {
      expect(await runJobStep(countingJob(10), bad, deps)).toMatchObject({ status: 'stopped', reason: 'invalid-event' });
    }
    expect(sent).toEqual([]);
  });

  it('refuses a continuation whose carry does not validate', async () => {
    const { deps } = runnerDeps();
    const event = { runId: 'r1', step: 2, startedAt: Date.now(), attempt: 0, cursor: 'n4', carry: { sum: 'four' }, totals: { seen: 4, fixed: 0 } };
    expect(await runJobStep(countingJob(10), event, deps)).toMatchObject({ status: 'stopped', reason: 'invalid-event' });
  });

  it('stops at maxSteps, at the deadline, and when a step makes no progress — never loops', async () => {
    const { deps, sent } = runnerDeps({ maxSteps: 3 });
    const t0 = Date.now();
    const event = (step: number, startedAt = t0) => ({ runId: 'r1', step, startedAt, attempt: 0, cursor: 'n4', totals: { seen: 0, fixed: 0 } });
    expect(await runJobStep(countingJob(100), event(4), deps)).toMatchObject({ status: 'stopped', reason: 'max-steps', next: event(4) });
    expect(await runJobStep(countingJob(100), event(2, t0 - 61_000), deps)).toMatchObject({ status: 'stopped', reason: 'deadline' });
    expect(await runJobStep(countingJob(100, { stuck: true }), event(2), deps)).toMatchObject({ status: 'stopped', reason: 'no-progress' });
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
    const { deps, lines } = runnerDeps({ rowsPerStep: 4, continuation: { continueWith: async () => Promise.reject(new Error('throttled')) } });
    const outcome = await runJobStep(countingJob(10), SCHEDULED_EVENT, deps);
    expect(outcome).toMatchObject({ status: 'stopped', reason: 'continuation-failed', next: { step: 2, cursor: 'n4' } });
    expect(lines.at(-1)).toMatchObject({ level: 'error', attrs: { next: { cursor: 'n4', carry: { sum: 4 } } } });
  });
});

// --- trim --------------------------------------------------------------------------------------

describe('trim inboxes', () => {
  it('cuts rows over the cap to exactly the newest cap cells, one delete per row, then the outboxes', async () => {
    const store = new FakeMaintenanceStore();
    const over = cellsOf(25, (i) => (i === 24 ? 900 : 1_000 + i)); // the oldest cell is not the lowest timestamp
    store.wide.inbox.set('ann\0', over);
    store.wide.inbox.set('bob\0', cellsOf(20));
    store.wide.inbox.set('cat\0', cellsOf(7));
    for (let i = 0; i < 5; i++) store.wide.inbox.set(`u${i}\0`, cellsOf(21));
    store.wide.outbox.set('ann\0', cellsOf(13));
    store.wide.outbox.set('bob\0', cellsOf(12));
    const { outcomes } = await runToCompletion(trimInboxesJob(store, { inbox: 20, outbox: 12 }), { rowsPerStep: 3 });

    expect(outcomes.at(-1)).toMatchObject({ status: 'done', totals: { seen: 10, fixed: 7 } });
    expect(store.wide.inbox.get('ann\0')).toEqual(over.slice(0, 20));
    expect(store.wide.inbox.get('bob\0')).toEqual(cellsOf(20));
    expect(store.wide.inbox.get('cat\0')).toEqual(cellsOf(7));
    for (let i = 0; i < 5; i++) expect(store.wide.inbox.get(`u${i}\0`)).toEqual(cellsOf(20));
    expect(store.wide.outbox.get('ann\0')).toEqual(cellsOf(12));
    expect(store.calls.filter((c) => c.startsWith('deleteCells'))).toHaveLength(7);
    // A re-run finds nothing to do.
    const again = await runToCompletion(trimInboxesJob(store, { inbox: 20, outbox: 12 }), { rowsPerStep: 100 });
    expect(again.outcomes.at(-1)!.totals.fixed).toBe(0);
  });

  it('deletes up to the newest timestamp among the doomed cells, so a cell rewritten later survives', async () => {
    const store = new FakeMaintenanceStore();
    store.wide.inbox.set('ann\0', cellsOf(12, (i) => 100 + i));
    let upTo = -1;
    const spy = Object.assign(Object.create(store) as FakeMaintenanceStore, {
      deleteCells: async (t: 'inbox', row: string, q: Uint8Array[], ts: number) => {
        upTo = ts;
        return store.deleteCells(t, row, q, ts);
      },
    });
    await runToCompletion(trimInboxesJob(spy, { inbox: 10, outbox: 10 }), { rowsPerStep: 10 });
    expect(upTo).toBe(111);
  });
});

// --- repair ------------------------------------------------------------------------------------

function symmetricAndExact(store: FakeMaintenanceStore, truth: Map<string, string>, users: string[]) {
  const edges = store.edges();
  const f = edges.filter((e) => e.direction === 'F').map((e) => `${e.owner}>${e.other}@${e.since}`).sort();
  const r = edges.filter((e) => e.direction === 'R').map((e) => `${e.other}>${e.owner}@${e.since}`).sort();
  expect(f).toEqual([...truth.entries()].map(([k, s]) => `${k}@${s}`).sort()); // F rows untouched
  expect(r).toEqual(f); // every F has its R (same since), and no R without F
  for (const u of users) {
    const following = [...truth.keys()].filter((k) => k.startsWith(`${u}>`)).length;
    const followers = [...truth.keys()].filter((k) => k.endsWith(`>${u}`)).length;
    expect(store.counters(u), u).toEqual({ following, followers });
  }
}

describe('repair relations', () => {
  it('restores missing R rows, drops orphan R rows, resyncs since, and makes every counter exact', async () => {
    const store = new FakeMaintenanceStore();
    const users = ['ann', 'bob', 'cat', 'dan', 'eve', 'zed'];
    users.forEach((u) => store.addUser(u, { following: 3, followers: 3 }));
    store.addUser('zed', { following: 7, followers: 9 }); // no relation rows at all
    const truth = new Map<string, string>();
    const follow = (a: string, b: string, since: string) => {
      store.follow(a, b, since);
      truth.set(`${a}>${b}`, since);
    };
    follow('ann', 'bob', '1');
    follow('ann', 'cat', '2');
    follow('bob', 'cat', '3');
    follow('dan', 'ann', '4');
    store.addEdge('eve', 'F', 'ann', '5'); // R missing (crash between the two puts)
    truth.set('eve>ann', '5');
    store.addEdge('cat', 'R', 'dan', '6'); // orphan R (crash inside an unfollow)
    store.relations.set(edgeKey('cat', 'R', 'ann'), '999'); // since out of step with F
    store.relations.set('junk-row', 'x'); // not an edge of ours: skipped, never touched

    const { log, lines } = recordingLog();
    const { outcomes } = await runToCompletion(repairRelationsJob(store, { settleMs: 0 }), { rowsPerStep: 2, log });
    expect(outcomes.length).toBeGreaterThan(3);
    // The step lines name the counters they fixed (stored → exact), for the operator.
    const fixes = lines.flatMap((l) => ((l.attrs.notes as { counterFixes?: string[] } | undefined)?.counterFixes ?? []));
    expect(fixes).toEqual(expect.arrayContaining(['ann following 3→2', 'cat following 3→0']));
    expect(outcomes.at(-1)).toMatchObject({ status: 'done' });
    symmetricAndExact(store, truth, users);
    expect(store.relations.get('junk-row')).toBe('x');
    // Exactly one multi-get of counterparts per step.
    expect(store.calls.filter((c) => c === 'counterpartSince').length).toBeLessThanOrEqual(outcomes.length);
    // Idempotent: a second run changes nothing.
    const again = await runToCompletion(repairRelationsJob(store, { settleMs: 0 }), { rowsPerStep: 3 });
    expect(again.outcomes.at(-1)!.totals.fixed).toBe(0);
  });

  it('keeps an R row that a re-follow rewrote between the read and the delete', async () => {
    const store = new FakeMaintenanceStore();
    store.addUser('ann');
    store.addUser('bob');
    store.addEdge('bob', 'R', 'ann', '1'); // orphan as read…
    const racing = Object.assign(Object.create(store) as FakeMaintenanceStore, {
      counterpartSince: async (edges: Parameters<FakeMaintenanceStore['counterpartSince']>[0]) => {
        const out = await store.counterpartSince(edges);
        store.follow('ann', 'bob', '2'); // …then ann re-follows before the delete
        return out;
      },
    });
    await runToCompletion(repairRelationsJob(racing, { settleMs: 0 }), { rowsPerStep: 10 });
    expect(store.relations.get(edgeKey('bob', 'R', 'ann'))).toBe('2');
  });

  it('agrees with the truth for any graph, any damage and any step size (property)', async () => {
    const handles = ['a', 'a1', 'b', 'c', 'c_d', 'd', 'e', 'f', 'g9'];
    const arbitrary = fc.record({
      users: fc.subarray(handles, { minLength: 1 }),
      edges: fc.array(
        fc.record({ a: fc.constantFrom(...handles), b: fc.constantFrom(...handles), damage: fc.constantFrom('none', 'no-r', 'other-since', 'none') }),
        { maxLength: 30 },
      ),
      orphans: fc.array(fc.record({ a: fc.constantFrom(...handles), b: fc.constantFrom(...handles) }), { maxLength: 6 }),
      counters: fc.array(fc.record({ following: fc.integer({ min: 0, max: 5 }), followers: fc.integer({ min: 0, max: 5 }) }), { minLength: 9, maxLength: 9 }),
      junk: fc.array(fc.constantFrom('!', 'a\0X', 'zzz', 'b\0F'), { maxLength: 3 }),
      rowsPerStep: fc.integer({ min: 1, max: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async (g) => {
        const store = new FakeMaintenanceStore();
        g.users.forEach((u, i) => store.addUser(u, g.counters[i]!));
        const truth = new Map<string, string>();
        g.edges.forEach(({ a, b, damage }, i) => {
          if (a === b || truth.has(`${a}>${b}`)) return;
          const since = String(1_000 + i);
          truth.set(`${a}>${b}`, since);
          store.addEdge(a, 'F', b, since);
          if (damage === 'none') store.addEdge(b, 'R', a, since);
          if (damage === 'other-since') store.addEdge(b, 'R', a, '7');
        });
        for (const { a, b } of g.orphans) if (a !== b && !truth.has(`${a}>${b}`)) store.addEdge(b, 'R', a, '5');
        g.junk.forEach((k) => store.relations.set(k, 'x'));

        const { outcomes } = await runToCompletion(repairRelationsJob(store, { settleMs: 0 }), { rowsPerStep: g.rowsPerStep, maxSteps: 2_000 });
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
    store.regen.set('ann\0', now - 601_000);
    store.regen.set('bob\0', now - 5_000);
    store.regen.set('cat\0', null);
    store.regen.set('dan\0', now - 3_600_000);
    store.regen.set('junk', now - 3_600_000);
    const sent: FanoutMessage[] = [];
    const job = regenerationSweepJob({ store, queue: { send: async (m) => void sent.push(m) }, stuckAfterMs: 600_000, now: () => now });
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
    store.activity.set('ann\0', { seenAt: now - 31 * day, awayAt: null }); // away: marked
    store.activity.set('bob\0', { seenAt: now - 2 * day, awayAt: null }); // active
    store.activity.set('cat\0', { seenAt: now - 40 * day, awayAt: now - 40 * day }); // already marked at this read
    store.activity.set('dan\0', { seenAt: now - 40 * day, awayAt: now - 70 * day }); // back since, and away again
    store.activity.set('eve\0', { seenAt: now - 40 * day, awayAt: null });
    store.regen.set('eve\0', now - 1_000); // being rebuilt: she is back
    store.activity.set('fay\0', { seenAt: null, awayAt: null }); // unreadable
    store.activity.set('junk', { seenAt: now - 40 * day, awayAt: null });
    const sent: FanoutMessage[] = [];
    const job = awaySweepJob({ store, queue: { send: async (m) => void sent.push(m) }, inactiveAfterMs: 30 * day, now: () => now });
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
    expect(outcomes[0]).toMatchObject({ status: 'done', detail: { approximateMessages: 0, byType: {}, oldestSentAt: null } });
    expect(q.peeks).toBe(1);
  });
});
