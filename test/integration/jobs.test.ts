// test/integration/jobs.test.ts — the scheduled jobs on the real HBase (a throwaway namespace)
// and the real ElasticMQ, through their adapters, run to completion step by step with a tiny
// rows-per-step so every job continues (and carries state) across invocations. The chaining
// is the real runner; the continuation payloads go through JSON as the Lambda Invoke does
// (test/support/job-driver.ts). The HBase requests each step makes are counted.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureQueues, localSqsClient } from '../../infra/local/sqs-poller.js';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { HBaseMaintenanceStore } from '../../shared/adapters/hbase/hbase-maintenance-store.js';
import { HBaseRelationStore } from '../../shared/adapters/hbase/hbase-relation-store.js';
import { HBaseUserStore } from '../../shared/adapters/hbase/hbase-user-store.js';
import { LambdaJobContinuation } from '../../shared/adapters/lambda/lambda-job-continuation.js';
import { SqsDeadLetterQueue } from '../../shared/adapters/sqs/sqs-dead-letter-queue.js';
import { SqsFanoutQueue } from '../../shared/adapters/sqs/sqs-queues.js';
import {
  HBaseRestClient,
  bytesToString,
  compareBytes,
  concatBytes,
  decodeLong,
  encodeLong,
  type HBaseRequestEvent,
} from '../../shared/hbase/index.js';
import type { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import type { Feed, FeedVisit, RelationsBatch } from '../../shared/ports/maintenance-store.js';
import { inboxQualifier, postKey, relationKey, userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName, type TableName } from '../../shared/schema/tables.js';
import { encodedSegment } from '../../shared/hbase/url.js';
import { deadLetterReport } from '../../shared/use-cases/jobs/dead-letter-report.js';
import { regenerationSweepJob } from '../../shared/use-cases/jobs/regeneration-sweep.js';
import { awaySweepJob } from '../../shared/use-cases/jobs/away-sweep.js';
import { repairRelationsJob } from '../../shared/use-cases/jobs/repair-relations.js';
import { trimInboxesJob } from '../../shared/use-cases/jobs/trim-inboxes.js';
import { allRows } from '../support/hbase-rows.js';
import { runToCompletion, silentLog } from '../support/job-driver.js';
import { dropNamespace } from '../support/namespace.js';

const ns = `it_jobs_${Date.now().toString(36)}`;
const requests: HBaseRequestEvent[] = [];
const hbase = new HBaseRestClient({
  baseUrl: inject('hbaseRestUrl'),
  timeoutMs: 60_000,
  onRequest: (e) => requests.push(e),
});
const store = new HBaseMaintenanceStore(hbase, ns);
const t = (table: TableName) => qualifiedTableName(ns, table);
const sqsEndpoint = inject('sqsEndpoint');
const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let sqs: SQSClient;
const createdQueues: string[] = [];

beforeAll(async () => {
  await applySchema(hbase, ns);
  sqs = localSqsClient(sqsEndpoint);
}, 120_000);

afterAll(async () => {
  for (const url of createdQueues) await sqs.send(new DeleteQueueCommand({ QueueUrl: url })).catch(() => {});
  sqs.destroy();
  await dropNamespace(hbase, ns);
  await hbase.close();
});

async function counted<T>(op: () => Promise<T>): Promise<{ result: T; calls: HBaseRequestEvent[] }> {
  const from = requests.length;
  const result = await op();
  return { result, calls: requests.slice(from) };
}

// --- trim --------------------------------------------------------------------------------------

const BASE = 1_780_000_000_000;
/** n entry qualifiers of `author`'s posts, i = 0 the newest; the stored order is newest first. */
const qualifiers = (author: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    inboxQualifier(postKey(author, BASE - i * 1000, Uint8Array.of(0, 0, 0, 0, i >> 8, i & 0xff))),
  );

async function seedWide(
  table: 'inbox' | 'outbox',
  owner: string,
  qs: Uint8Array[],
  extra: { column: string; value: string }[] = [],
) {
  const family = table === 'inbox' ? 'i' : 'o';
  // Written with old explicit timestamps in shuffled order: the oldest entry is not the lowest timestamp.
  const cells = qs.map((q, i) => ({
    column: concatBytes(`${family}:`, q),
    value: new Uint8Array(0),
    timestamp: 1_000_000 + ((i * 7919) % qs.length),
  }));
  await hbase.put(t(table), [{ key: userKey(owner), cells: [...cells, ...extra] }]);
}

async function familyQualifiers(table: 'inbox' | 'outbox', owner: string): Promise<Uint8Array[]> {
  const family = table === 'inbox' ? 'i' : 'o';
  const row = await hbase.getRow(t(table), userKey(owner), { columns: [family] });
  return (row?.cells ?? []).map((c) => c.qualifier).sort(compareBytes);
}

describe('trim inboxes (real HBase)', () => {
  it('cuts every inbox over 800 to exactly its newest 800 and every outbox over 200 to its newest 200; others untouched', async () => {
    const heavy = qualifiers('star', 850);
    const exact = qualifiers('star', 800);
    await seedWide('inbox', 'heavy', heavy, [
      { column: 'm:seen', value: '123' },
      { column: 'c:star', value: '' },
    ]);
    await seedWide('inbox', 'exact', exact);
    await seedWide('inbox', 'light', qualifiers('star', 5));
    for (const r of ['r1', 'r2', 'r3']) await seedWide('inbox', r, qualifiers(r, 801));
    await seedWide('outbox', 'star', qualifiers('star', 230));
    await seedWide('outbox', 'quiet', qualifiers('quiet', 150));

    const { result, calls } = await counted(() =>
      runToCompletion(trimInboxesJob(store, { inbox: 800, outbox: 200 }), { rowsPerStep: 2 }),
    );
    const { outcomes, payloads } = result;
    expect(outcomes.at(-1)).toMatchObject({ status: 'done', totals: { seen: 8, fixed: 5 } });
    expect(payloads.length).toBeGreaterThanOrEqual(4); // 6 inbox rows / 2, then the outbox phase
    expect(payloads.some((p) => (p.carry as { table?: string } | undefined)?.table === 'outbox')).toBe(true);
    // ONE delete request per row over its cap, nothing for the others.
    expect(calls.filter((c) => c.method === 'DELETE' && !c.path.includes('/scanner/'))).toHaveLength(5);

    expect(await familyQualifiers('inbox', 'heavy')).toEqual(heavy.slice(0, 800));
    expect(await familyQualifiers('inbox', 'exact')).toEqual(exact);
    expect(await familyQualifiers('inbox', 'light')).toHaveLength(5);
    for (const r of ['r1', 'r2', 'r3']) expect(await familyQualifiers('inbox', r)).toEqual(qualifiers(r, 800));
    expect(await familyQualifiers('outbox', 'star')).toEqual(qualifiers('star', 200));
    expect(await familyQualifiers('outbox', 'quiet')).toHaveLength(150);
    // The other families of an inbox row are not the trim's business.
    const meta = await hbase.getRow(t('inbox'), userKey('heavy'), { columns: ['m', 'c'] });
    expect(meta?.cells.map((c) => `${c.family}:${bytesToString(c.qualifier)}`).sort()).toEqual(['c:star', 'm:seen']);

    // A trimmed entry written again later (a refollow's backfill) is not masked by the delete.
    await hbase.put(t('inbox'), [
      { key: userKey('heavy'), cells: [{ column: concatBytes('i:', heavy[849]!), value: new Uint8Array(0) }] },
    ]);
    expect(await familyQualifiers('inbox', 'heavy')).toHaveLength(801);
  });

  it('spares a cell rewritten between its read and the delete (delete only up to the newest timestamp read)', async () => {
    const qs = qualifiers('racer', 30);
    await seedWide('inbox', 'racer', qs);
    const racing = Object.assign(Object.create(store) as HBaseMaintenanceStore, {
      async *feeds(feed: Feed, opts: { start?: string; limit: number; cap: number }): AsyncIterable<FeedVisit> {
        for await (const visit of store.feeds(feed, opts)) {
          yield {
            ...visit,
            async dropPastCap() {
              // The oldest doomed entry is rewritten (server timestamp = now) just before the delete lands.
              await hbase.put(t('inbox'), [
                { key: userKey('racer'), cells: [{ column: concatBytes('i:', qs[29]!), value: new Uint8Array(0) }] },
              ]);
              return visit.dropPastCap();
            },
          };
        }
      },
    });
    const { calls } = await counted(() =>
      runToCompletion(trimInboxesJob(racing, { inbox: 20, outbox: 200 }), { rowsPerStep: 100 }),
    );
    expect(await familyQualifiers('inbox', 'racer')).toEqual([...qs.slice(0, 20), qs[29]]);
    // The delete reaches up to the newest timestamp among the doomed cells (seedWide's shuffled
    // stamps: the oldest entry is not the newest write), not merely the oldest entry's.
    const upTo = Math.max(...qs.slice(20).map((_, j) => 1_000_000 + (((20 + j) * 7919) % qs.length)));
    // The racer's row only: the first test's inboxes (800 entries) are over this run's cap of 20 too.
    const racerRow = `:inbox/${encodedSegment(userKey('racer'))}/`;
    const deletes = calls.filter(
      (c) => c.method === 'DELETE' && c.path.includes(racerRow) && !c.path.includes('/scanner/'),
    );
    expect(deletes.length).toBeGreaterThanOrEqual(1);
    expect(deletes.every((c) => new RegExp(`/${upTo}(\\?|$)`).test(c.path))).toBe(true);
  });
});

// --- repair ------------------------------------------------------------------------------------

describe('repair relations (real HBase)', () => {
  const users = new HBaseUserStore(hbase, ns);
  const relations = new HBaseRelationStore(hbase, ns);
  const handles = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus', 'zed'];
  /** The following side (source of truth) after the repair: follower>followee → since. */
  const truth = new Map<string, string>();
  const edge = (owner: string, direction: 'F' | 'R', other: string, since: string) => ({
    key: relationKey(owner, direction, other),
    cells: [{ column: 'e:t', value: since }],
  });
  const setCounters = (h: string, following: number, followers: number) =>
    hbase.put(t('users'), [
      {
        key: userKey(h),
        cells: [
          { column: 'c:following', value: encodeLong(following) },
          { column: 'c:followers', value: encodeLong(followers) },
        ],
      },
    ]);
  const counters = async (h: string) => {
    const row = await hbase.getRow(t('users'), userKey(h), { columns: ['c:following', 'c:followers'] });
    const get = (q: string) => {
      const v = row?.cells.find((c) => bytesToString(c.qualifier) === q)?.value;
      return v ? Number(decodeLong(v)) : 0;
    };
    return { following: get('following'), followers: get('followers') };
  };

  beforeAll(async () => {
    for (const h of handles) await users.create({ handle: h, displayName: h, passwordHash: 'scrypt$x', createdAt: 1 });
    const rows: ReturnType<typeof edge>[] = [];
    const both = (a: string, b: string, since: string) => {
      truth.set(`${a}>${b}`, since);
      rows.push(edge(a, 'F', b, since), edge(b, 'R', a, since));
    };
    both('ann', 'bob', '101');
    both('ann', 'cat', '102');
    both('bob', 'cat', '103');
    both('dan', 'ann', '104');
    for (const [i, h] of ['ann', 'bob', 'cat', 'dan', 'eve'].entries()) both('fay', h, String(200 + i));
    // A following row whose followers row never got written (crash between the two puts).
    truth.set('eve>ann', '105');
    rows.push(edge('eve', 'F', 'ann', '105'));
    truth.set('gus>bob', '106');
    rows.push(edge('gus', 'F', 'bob', '106'));
    // Followers rows whose following row is gone (crash inside an unfollow).
    rows.push(edge('bob', 'R', 'dan', '107'), edge('eve', 'R', 'ann', '108'), edge('cat', 'R', 'gus', '109'));
    await hbase.put(t('relations'), rows);
    // A followers row whose since disagrees with its following row.
    await hbase.put(t('relations'), [edge('cat', 'R', 'ann', '999')]);
    // Counters off by N everywhere, and a user with stale counters and no relation rows at all.
    const offBy = [3, -1, 2, 5, 1, 4, 7, 0];
    for (const [i, h] of handles.entries())
      await setCounters(h, Math.max(0, 4 + offBy[i]!), Math.max(0, 2 * offBy[i]!));
    await setCounters('zed', 7, 9);
  });

  const settles: FanoutMessage[] = [];
  const queue = { send: async (m: FanoutMessage) => void settles.push(m) };

  it('runs to completion across continuations: every F has its R, no R without F, counters exact', async () => {
    const { result, calls } = await counted(() =>
      runToCompletion(repairRelationsJob(store, { settleMs: 100, queue }), { rowsPerStep: 3 }),
    );
    const { outcomes, payloads } = result;
    expect(outcomes.at(-1)).toMatchObject({ status: 'done' });
    expect(outcomes.length).toBeGreaterThan(5);
    // A user's rows were cut by a step boundary and their counts carried on.
    expect(payloads.some((p) => (p.carry as { open?: unknown } | undefined)?.open !== undefined)).toBe(true);
    const sum = (k: string) => outcomes.reduce((n, o) => n + (o.stats?.[k] ?? 0), 0);
    expect({
      added: sum('followerRowsAdded'),
      resynced: sum('followerRowsResynced'),
      deleted: sum('orphanFollowerRowsDeleted'),
    }).toEqual({
      added: 2,
      resynced: 1,
      deleted: 3,
    });
    // One settle for each follow whose followers side the job wrote or removed.
    expect(settles.map((m) => (m.type === 'settle' ? `${m.reader}>${m.followee}` : m.type)).sort()).toEqual(
      ['ann>cat', 'dan>bob', 'eve>ann', 'gus>bob', 'gus>cat', 'ann>eve'].sort(),
    );
    // ONE multi-get of counterparts per step.
    const multigets = calls.filter((c) => c.path.includes(':relations/multiget'));
    expect(multigets.length).toBeLessThanOrEqual(outcomes.length);

    // Every row but the packed audience's (invariant N: its version and pack cells, e:v and e:p).
    const rows = (await allRows(hbase, ns, 'relations')).filter(
      (r) => !r.cells.every((c) => ['v', 'p'].includes(bytesToString(c.qualifier))),
    );
    const parsed = rows.map((r) => {
      const key = Buffer.from(r.key);
      const since = bytesToString(r.cells.find((c) => bytesToString(c.qualifier) === 't')!.value);
      return { key: key.toString('hex'), since };
    });
    const expected = [...truth.entries()].flatMap(([k, since]) => {
      const [a, b] = k.split('>') as [string, string];
      return [
        { key: Buffer.from(relationKey(a, 'F', b)).toString('hex'), since },
        { key: Buffer.from(relationKey(b, 'R', a)).toString('hex'), since },
      ];
    });
    const byKey = (x: { key: string }, y: { key: string }) => x.key.localeCompare(y.key);
    expect(parsed.sort(byKey)).toEqual(expected.sort(byKey));

    for (const h of [...handles, 'zed']) {
      const following = [...truth.keys()].filter((k) => k.startsWith(`${h}>`)).length;
      const followers = [...truth.keys()].filter((k) => k.endsWith(`>${h}`)).length;
      expect(await counters(h), h).toEqual({ following, followers });
    }
    // The lists the API serves agree too.
    const ann = await relations.followers('ann', 100);
    expect(ann.items.map((e) => e.handle).sort()).toEqual(['dan', 'eve', 'fay']);
    expect((await relations.followers('cat', 100)).items.find((e) => e.handle === 'ann')?.since).toBe(102);

    // Idempotent: a second run (other step size) finds nothing to fix.
    const again = await runToCompletion(repairRelationsJob(store, { settleMs: 100, queue }), { rowsPerStep: 4 });
    expect(again.outcomes.at(-1)).toMatchObject({ status: 'done', totals: { fixed: 0 } });
  });

  it('does not undo a re-follow that rewrote an orphan followers row between the read and the delete', async () => {
    await users.create({ handle: 'kim', displayName: 'kim', passwordHash: 'scrypt$x', createdAt: 1 });
    await users.create({ handle: 'lee', displayName: 'lee', passwordHash: 'scrypt$x', createdAt: 1 });
    await hbase.put(t('relations'), [edge('lee', 'R', 'kim', '500')]); // orphan as the job reads it
    const racing = Object.assign(Object.create(store) as HBaseMaintenanceStore, {
      async relationsBatch(opts: { start?: string; limit: number }): Promise<RelationsBatch> {
        const out = await store.relationsBatch(opts);
        if (out.users.some((u) => u.user === 'lee')) await relations.follow('kim', 'lee', 600); // kim re-follows meanwhile
        return out;
      },
    });
    await runToCompletion(repairRelationsJob(racing, { settleMs: 100, queue }), { rowsPerStep: 50 });
    const row = await hbase.getRow(t('relations'), relationKey('lee', 'R', 'kim'), { columns: ['e:t'] });
    expect(row && bytesToString(row.cells[0]!.value)).toBe('600');
    expect(await counters('lee')).toEqual({ following: 0, followers: 1 });
  });
});

// --- regeneration sweep -------------------------------------------------------------------------

describe('regeneration sweep (real HBase + ElasticMQ)', () => {
  it('re-sends `regenerate` for marks older than the threshold only, through the real queue', async () => {
    const q = await ensureQueues({ sqsEndpoint, stage: 'local', queueName: `it-jobs-${runId}-regen` });
    createdQueues.push(q.queueUrl, q.deadLetterQueueUrl);
    const now = Date.now();
    const mark = (reader: string, value: string) => ({
      key: userKey(reader),
      cells: [
        { column: 'm:regen', value },
        { column: 'm:seen', value },
      ],
    });
    await hbase.put(t('inbox'), [
      mark('stuck1', String(now - 700_000)),
      mark('stuck2', String(now - 86_400_000)),
      mark('busy', String(now - 5_000)),
    ]);

    const job = regenerationSweepJob({
      store,
      queue: new SqsFanoutQueue({ queueUrl: q.queueUrl, endpoint: sqsEndpoint }),
      stuckAfterMs: 600_000,
    });
    const { outcomes } = await runToCompletion(job, { rowsPerStep: 1 });
    // Only inbox rows with m:regen are read (the trim test's rows have none): 3 rows, 1 per step.
    expect(outcomes.map((o) => o.status)).toEqual(['continued', 'continued', 'continued', 'done']);
    expect(outcomes.at(-1)!.totals).toEqual({ seen: 3, fixed: 2 });

    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: q.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    const bodies = (out.Messages ?? []).map((m) => JSON.parse(m.Body!) as { reader: string });
    expect(bodies.map((b) => b.reader).sort()).toEqual(['stuck1', 'stuck2']);
    expect(bodies[0]).toEqual({ v: 1, type: 'regenerate', reader: expect.any(String) });
    // The marks stay: the worker deletes them when the rebuild is done.
    expect(await hbase.getRow(t('inbox'), userKey('stuck1'), { columns: ['m:regen'] })).not.toBeNull();
  });
});

// --- away sweep --------------------------------------------------------------------------------

describe('away sweep (real HBase + ElasticMQ)', () => {
  it('queues `away` for a reader past the window only (not one already marked at that read, nor a recent one)', async () => {
    const q = await ensureQueues({ sqsEndpoint, stage: 'local', queueName: `it-jobs-${runId}-away` });
    createdQueues.push(q.queueUrl, q.deadLetterQueueUrl);
    const now = Date.now();
    const old = String(now - 40 * 86_400_000);
    await hbase.put(t('inbox'), [
      { key: userKey('gone'), cells: [{ column: 'm:seen', value: old }] },
      {
        key: userKey('marked'),
        cells: [
          { column: 'm:seen', value: old },
          { column: 'm:away', value: old },
        ],
      },
      { key: userKey('fresh'), cells: [{ column: 'm:seen', value: String(now - 86_400_000) }] },
    ]);
    const job = awaySweepJob({
      store,
      queue: new SqsFanoutQueue({ queueUrl: q.queueUrl, endpoint: sqsEndpoint }),
      inactiveAfterMs: 30 * 86_400_000,
    });
    const { outcomes } = await runToCompletion(job, { rowsPerStep: 2 });
    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: q.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    const bodies = (out.Messages ?? []).map((m) => JSON.parse(m.Body!) as { reader: string });
    expect(outcomes.at(-1)).toMatchObject({ status: 'done', totals: { fixed: bodies.length } });
    // Other rows of this namespace may be away too (the trim test's reader was last seen at 123).
    expect(bodies.filter((b) => ['gone', 'marked', 'fresh'].includes(b.reader))).toEqual([
      { v: 1, type: 'away', reader: 'gone', seenAt: Number(old) },
    ]);
  });
});

// --- dead-letter report -------------------------------------------------------------------------

describe('dead-letter report (real ElasticMQ)', () => {
  it('counts the DLQ by message type with the oldest sent time, and deletes nothing', async () => {
    const q = await ensureQueues({ sqsEndpoint, stage: 'local', queueName: `it-jobs-${runId}-dlq` });
    createdQueues.push(q.queueUrl, q.deadLetterQueueUrl);
    const bodies = [
      '{"v":1,"type":"fanout","postId":"ann.1.000000000000"}',
      '{"v":1,"type":"fanout","postId":"bob.1.000000000000"}',
      '{"v":1,"type":"backfill","reader":"ann","followee":"bob"}',
      'definitely not json',
    ];
    const before = Date.now();
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: q.deadLetterQueueUrl,
        Entries: bodies.map((b, i) => ({ Id: `m${i}`, MessageBody: b })),
      }),
    );

    const lines: unknown[] = [];
    const log = { ...silentLog, warn: (_m: string, attrs: Record<string, unknown>) => void lines.push(attrs) };
    const report = await deadLetterReport(
      new SqsDeadLetterQueue({ queueUrl: q.deadLetterQueueUrl, endpoint: sqsEndpoint }),
      log,
    );
    expect(report).toMatchObject({
      queue: q.settings.deadLetterQueueName,
      approximateMessages: 4,
      peeked: 4,
      byType: { fanout: 2, backfill: 1, unparseable: 1 },
    });
    expect(Date.parse(report.oldestSentAt!)).toBeGreaterThanOrEqual(before - 1_000);
    expect(lines).toEqual([{ report }]);

    // Peeked, not deleted: every message is still in the queue (hidden for a few seconds).
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: q.deadLetterQueueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    expect(
      Number(Attributes.ApproximateNumberOfMessages) + Number(Attributes.ApproximateNumberOfMessagesNotVisible),
    ).toBe(4);
  });
});

// --- the continuation adapter ----------------------------------------------------------------

describe('LambdaJobContinuation', () => {
  it("speaks the Lambda Invoke API: an asynchronous ('Event') invoke of the named function with the JSON payload", async () => {
    const seen: { path: string; type: string | undefined; body: unknown }[] = [];
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          path: req.url ?? '',
          type: req.headers['x-amz-invocation-type'] as string | undefined,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        res
          .writeHead(req.url?.includes('missing') ? 404 : 202, { 'Content-Type': 'application/json' })
          .end(req.url?.includes('missing') ? '{"Message":"Function not found"}' : '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const continuation = new LambdaJobContinuation({ endpoint });
      const payload = {
        runId: 'r1',
        step: 2,
        startedAt: 1,
        attempt: 0,
        cursor: 'AAE',
        carry: { table: 'inbox' },
        totals: { seen: 2, fixed: 1 },
      };
      await continuation.continueWith('weibo-test-trimInboxes', payload);
      expect(seen).toEqual([
        { path: '/2015-03-31/functions/weibo-test-trimInboxes/invocations', type: 'Event', body: payload },
      ]);
      await expect(continuation.continueWith('weibo-test-missing', payload)).rejects.toThrow();
      expect(seen).toHaveLength(2); // one attempt, never retried (a retry could start a second chain)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
