// test/e2e/serial/jobs.test.ts — the scheduled jobs as deployed: the real handlers under
// serverless-offline, invoked through its Lambda port with @aws-sdk/client-lambda, on the e2e
// namespace of the real HBase. offline-setup.ts runs them with JOB_ROWS_PER_STEP=5, so the trim
// must hand its work on through asynchronous ('Event') invocations of itself; the end state is
// read back from HBase and the chain from the handlers' structured log lines.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { HBaseRestClient, compareBytes, concatBytes } from '../../../shared/hbase/index.js';
import { inboxQualifier, postKey, relationKey, userKey } from '../../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../../shared/schema/tables.js';
import type { JobOutcome } from '../../../shared/use-cases/jobs/job-runner.js';
import { eventually as poll } from '../../support/eventually.js';

const eventually = <T>(check: () => Promise<T> | T, timeoutMs = 90_000) => poll(check, timeoutMs, 500);

const ns = inject('e2eNamespace');
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const lambda = new LambdaClient({
  endpoint: inject('lambdaEndpoint'),
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  maxAttempts: 1,
});
afterAll(async () => {
  lambda.destroy();
  await hbase.close();
});

const tag = randomBytes(3).toString('hex');
const BASE = 1_780_000_000_000;
const qualifiers = (author: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    inboxQualifier(postKey(author, BASE - i * 1000, Uint8Array.of(0, 0, 0, 0, i >> 8, i & 0xff))),
  );

async function seed(table: 'inbox' | 'outbox', owner: string, qs: Uint8Array[]) {
  const family = table === 'inbox' ? 'i' : 'o';
  await hbase.put(qualifiedTableName(ns, table), [
    { key: userKey(owner), cells: qs.map((q) => ({ column: concatBytes(`${family}:`, q), value: new Uint8Array(0) })) },
  ]);
}

async function stored(table: 'inbox' | 'outbox', owner: string): Promise<Uint8Array[]> {
  const family = table === 'inbox' ? 'i' : 'o';
  const row = await hbase.getRow(qualifiedTableName(ns, table), userKey(owner), { columns: [family] });
  return (row?.cells ?? []).map((c) => c.qualifier).sort(compareBytes);
}

async function invoke(functionName: string, payload: unknown): Promise<JobOutcome> {
  const out = await lambda.send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: 'RequestResponse',
      Payload: Buffer.from(JSON.stringify(payload)),
    }),
  );
  const text = Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8');
  if (out.FunctionError) throw new Error(`${functionName} failed: ${text}`);
  return JSON.parse(text);
}

/** A handler's JSON log line (Powertools): the fields these tests read, and the rest. */
type LogLine = { message: string; step: number; steps: number; stats: { seen: number }; [field: string]: unknown };

/** The handlers' JSON log lines (Powertools) of one job run. */
function runLog(runId: string): LogLine[] {
  return readFileSync(inject('offlineLogFile'), 'utf8')
    .split('\n')
    .filter((l) => l.includes(`"runId":"${runId}"`))
    .flatMap((l) => {
      try {
        return [JSON.parse(l.slice(l.indexOf('{')))];
      } catch {
        return [];
      }
    });
}

describe('scheduled jobs through the offline Lambda port', () => {
  it('trim: one invoke starts a run that continues through asynchronous self-invocations until every inbox and outbox is at its cap', async () => {
    const over = { [`jt_${tag}_a`]: 805, [`jt_${tag}_b`]: 900, [`jt_${tag}_c`]: 801, [`jt_${tag}_d`]: 850 };
    const under = { [`jt_${tag}_e`]: 800, [`jt_${tag}_f`]: 12 };
    for (const [reader, n] of Object.entries({ ...over, ...under }))
      await seed('inbox', reader, qualifiers(`jt_${tag}_x`, n));
    await seed('outbox', `jt_${tag}_star`, qualifiers(`jt_${tag}_star`, 260));
    await seed('outbox', `jt_${tag}_quiet`, qualifiers(`jt_${tag}_quiet`, 40));

    // The first step answers at once; the rest runs on in the background.
    const first = await invoke('weibo-local-trimInboxes', {});
    expect(first).toMatchObject({ job: 'trim-inboxes', status: 'continued', step: 1, stats: { seen: 5 } });

    const finished = await eventually(() => {
      const line = runLog(first.runId).find((l) => l.message === 'job finished');
      if (!line) throw new Error(`run ${first.runId} has not finished`);
      return line;
    });
    expect(finished).toMatchObject({ job: 'trim-inboxes', status: 'done', level: 'INFO' });
    expect(finished.steps).toBeGreaterThan(2);
    const steps = runLog(first.runId).filter((l) => l.message === 'job step');
    expect(steps.map((l) => l.step)).toEqual(Array.from({ length: finished.steps }, (_, i) => i + 1));
    expect(steps.every((l) => l.stats.seen <= 5)).toBe(true);

    for (const [reader, n] of Object.entries(over)) {
      expect(await stored('inbox', reader), reader).toEqual(qualifiers(`jt_${tag}_x`, n).slice(0, 800));
    }
    for (const [reader, n] of Object.entries(under)) expect(await stored('inbox', reader), reader).toHaveLength(n);
    expect(await stored('outbox', `jt_${tag}_star`)).toEqual(qualifiers(`jt_${tag}_star`, 200));
    expect(await stored('outbox', `jt_${tag}_quiet`)).toHaveLength(40);
  });

  it('repair: a following row without its followers row (a crash between the two puts) is completed', async () => {
    const a = `jr_${tag}_a`;
    const b = `jr_${tag}_b`;
    const relations = qualifiedTableName(ns, 'relations');
    await hbase.put(relations, [{ key: relationKey(a, 'F', b), cells: [{ column: 'e:t', value: '1700000000000' }] }]);
    const first = await invoke('weibo-local-repairRelations', {});
    expect(first).toMatchObject({ job: 'repair-relations' });
    await eventually(async () => {
      if (!runLog(first.runId).some((l) => l.message === 'job finished')) throw new Error('repair still running');
    });
    const r = await hbase.getRow(relations, relationKey(b, 'R', a), { columns: ['e:t'] });
    expect(r && Buffer.from(r.cells[0]!.value).toString()).toBe('1700000000000');
  });

  it('dead-letter report: one invoke returns the report of this run’s DLQ', async () => {
    const outcome = await invoke('weibo-local-deadLetterReport', {
      source: 'aws.events',
      'detail-type': 'Scheduled Event',
      detail: {},
    });
    const dlqName = inject('fanoutDlqUrl').split('/').at(-1);
    expect(outcome).toMatchObject({ job: 'dead-letter-report', status: 'done', step: 1, detail: { queue: dlqName } });
    expect((outcome.detail as { approximateMessages: unknown }).approximateMessages).toEqual(expect.any(Number));
    // …and logged it as one structured line.
    const reportLines = readFileSync(inject('offlineLogFile'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"message":"dead-letter report"'));
    expect(reportLines.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(reportLines.at(-1)!.slice(reportLines.at(-1)!.indexOf('{'))).report.queue).toBe(dlqName);
  });
});
