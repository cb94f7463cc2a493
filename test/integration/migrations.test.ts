// test/integration/migrations.test.ts — the migration runner on real HBase
// (shared/schema/migrations.ts): a fresh namespace is recorded at the code's layout; pending
// migrations run in order, batch by batch; a run that stops mid-way (a batch that throws, the
// time up) is resumed from the last batch it recorded, never from the start; the version moves
// only upward, once every migration up to it is done; code older than the recorded layout refuses.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { HBaseRestClient, bytesToString } from '../../shared/hbase/index.js';
import {
  BASE_LAYOUT_VERSION,
  LAYOUT_VERSION,
  NewerLayoutError,
  migrate,
  recordLayout,
  recordedLayout,
  type Migration,
} from '../../shared/schema/migrations.js';
import { keyAfter, userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { HBaseLayoutStore } from '../../shared/adapters/hbase/hbase-layout-store.js';
import { migrateLayoutJob } from '../../shared/use-cases/jobs/migrate-layout.js';
import { useNamespace } from '../support/namespace.js';

const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
const ns = `mig_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
useNamespace(hbase, ns);
const users = qualifiedTableName(ns, 'users');
const STOP = new Uint8Array(8).fill(0xff);

/**
 * A migration over every users row, `size` rows a batch: marks each with p:<mark>. Its cursor is
 * the hex of the last row done; `failAt` throws once at that batch of the run (counted from 1).
 */
function marking(to: number, mark: string, size: number, failAt?: number) {
  const cursors: string[] = [];
  let batches = 0;
  const m: Migration = {
    to,
    name: `mark-${mark}`,
    what: `p:${mark} on every user`,
    async batch(client, namespace, cursor) {
      cursors.push(cursor);
      batches++;
      if (batches === failAt) throw new Error('the batch died');
      const startRow = cursor === '' ? new Uint8Array() : keyAfter(Buffer.from(cursor, 'hex'));
      const rows = [];
      for await (const row of client.scan(qualifiedTableName(namespace, 'users'), {
        startRow,
        stopRow: STOP,
        limit: size,
        columns: ['p:h'],
      }))
        rows.push(row);
      if (rows.length > 0)
        await client.put(
          qualifiedTableName(namespace, 'users'),
          rows.map((r) => ({ key: r.key, cells: [{ column: `p:${mark}`, value: cursor === '' ? 'first' : 'later' }] })),
        );
      const last = rows.at(-1);
      return { next: rows.length < size || !last ? null : Buffer.from(last.key).toString('hex'), rows: rows.length };
    },
  };
  return { m, cursors };
}

async function marked(mark: string): Promise<number> {
  let n = 0;
  for await (const row of hbase.scan(users, {
    startRow: new Uint8Array(),
    stopRow: STOP,
    limit: 1000,
    columns: [`p:${mark}`],
  }))
    if (row.cells.some((c) => bytesToString(c.column) === `p:${mark}`)) n++;
  return n;
}

describe('migrations', () => {
  it('a namespace the schema command made is at the code’s layout: nothing to migrate', async () => {
    expect(await recordedLayout(hbase, ns)).toBe(LAYOUT_VERSION);
    expect(await migrate(hbase, ns)).toEqual({ from: LAYOUT_VERSION, to: LAYOUT_VERSION, pending: 0, rows: 0 });
  });

  it('runs what is pending in order, and a run stopped mid-way goes on from its last recorded batch', async () => {
    // Eleven users, and a namespace that holds layout 1 (as one made by the first release).
    await hbase.put(
      users,
      Array.from({ length: 11 }, (_, i) => ({ key: userKey(`mig${i}`), cells: [{ column: 'p:h', value: `mig${i}` }] })),
    );
    await hbase.deleteRow(qualifiedTableName(ns, 'meta'), 'layout');
    expect(await recordedLayout(hbase, ns)).toBeNull();

    const first = marking(BASE_LAYOUT_VERSION + 1, 'ma', 3, 3);
    const second = marking(BASE_LAYOUT_VERSION + 2, 'mb', 5);
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    await expect(migrate(hbase, ns, { migrations: [first.m, second.m], log })).rejects.toThrow('the batch died');
    // Two batches landed and were recorded; the version did not move; the next migration never began.
    expect(await marked('ma')).toBe(6);
    expect(await recordedLayout(hbase, ns)).toBeNull();
    expect(second.cursors).toEqual([]);
    expect(lines).toContain(`${BASE_LAYOUT_VERSION + 1} mark-ma: 6 rows`);

    const report = await migrate(hbase, ns, { migrations: [first.m, second.m], log });
    expect(report).toEqual({ from: BASE_LAYOUT_VERSION, to: BASE_LAYOUT_VERSION + 2, pending: 0, rows: 5 + 11 });
    // The run went on after the sixth row: its first batch got the cursor recorded, not the start.
    expect(first.cursors[3]).toBe(first.cursors[2]);
    expect(first.cursors.filter((c) => c === '')).toHaveLength(1);
    expect(lines.some((l) => l.includes('resuming after 6 rows'))).toBe(true);
    expect(await marked('ma')).toBe(11);
    expect(await marked('mb')).toBe(11);
    expect(await recordedLayout(hbase, ns)).toBe(BASE_LAYOUT_VERSION + 2);

    // Run again: nothing is pending, no batch runs.
    const calls = first.cursors.length + second.cursors.length;
    expect(await migrate(hbase, ns, { migrations: [first.m, second.m] })).toMatchObject({ pending: 0 });
    expect(first.cursors.length + second.cursors.length).toBe(calls);
  });

  it('stops after a batch when its time is up (never before its first), and says what is pending', async () => {
    await recordLayout(hbase, ns, BASE_LAYOUT_VERSION + 2);
    const third = marking(BASE_LAYOUT_VERSION + 3, 'mc', 4);
    const filler = (to: number) => marking(to, `f${to}`, 100).m;
    const migrations = [filler(BASE_LAYOUT_VERSION + 1), filler(BASE_LAYOUT_VERSION + 2), third.m];
    const report = await migrate(hbase, ns, { migrations, until: Date.now() - 1 });
    expect(report).toEqual({ from: BASE_LAYOUT_VERSION + 2, to: BASE_LAYOUT_VERSION + 2, pending: 1, rows: 4 });
    expect(third.cursors).toEqual(['']);
    expect(await migrate(hbase, ns, { migrations })).toMatchObject({
      to: BASE_LAYOUT_VERSION + 3,
      pending: 0,
      rows: 7,
    });
    expect(await marked('mc')).toBe(11);
  });

  it('deployed, as the migrate-layout job: a step stops when its time is up, the next goes on, the last says done', async () => {
    await recordLayout(hbase, ns, BASE_LAYOUT_VERSION + 3);
    const fourth = marking(BASE_LAYOUT_VERSION + 4, 'md', 4);
    const filler = (to: number) => marking(to, `g${to}`, 100).m;
    const migrations = [1, 2, 3].map((i) => filler(BASE_LAYOUT_VERSION + i)).concat(fourth.m);
    // A step's time is up after its first batch: one batch a step.
    const job = migrateLayoutJob(new HBaseLayoutStore(hbase, ns, migrations), 0);
    const steps = [];
    for (let i = 0; i < 10; i++) {
      const result = await job.step({ rowsPerStep: 1 });
      steps.push(result);
      if (result.done) break;
    }
    // Eleven users, four a batch: three batches, three steps, each going on where the last stopped.
    expect(steps.map((s) => s.done)).toEqual([false, false, true]);
    expect(steps.map((s) => s.stats.seen)).toEqual([4, 4, 3]);
    expect(new Set(fourth.cursors).size).toBe(3);
    expect(await marked('md')).toBe(11);
    expect(await recordedLayout(hbase, ns)).toBe(BASE_LAYOUT_VERSION + 4);
  });

  it('a record racing a higher one never writes over it', async () => {
    const now = (await recordedLayout(hbase, ns)) ?? BASE_LAYOUT_VERSION;
    // Between this run's read of the version and its write, another run records a higher one.
    let raced = false;
    const race = async () => {
      if (raced) return;
      raced = true;
      await recordLayout(hbase, ns, now + 2);
    };
    const racing = Object.create(hbase) as HBaseRestClient;
    racing.put = async (...args: Parameters<HBaseRestClient['put']>) => race().then(() => hbase.put(...args));
    racing.checkAndPut = async (...args: Parameters<HBaseRestClient['checkAndPut']>) =>
      race().then(() => hbase.checkAndPut(...args));
    await recordLayout(racing, ns, now + 1);
    expect(raced).toBe(true);
    expect(await recordedLayout(hbase, ns)).toBe(now + 2);
  });

  it('code older than the recorded layout refuses to migrate, and the record never moves down', async () => {
    await recordLayout(hbase, ns, LAYOUT_VERSION + 7);
    await recordLayout(hbase, ns, LAYOUT_VERSION);
    expect(await recordedLayout(hbase, ns)).toBe(LAYOUT_VERSION + 7);
    await expect(migrate(hbase, ns)).rejects.toBeInstanceOf(NewerLayoutError);
  });

  it('the schema command on an existing namespace leaves its layout to migrate', async () => {
    await hbase.deleteRow(qualifiedTableName(ns, 'meta'), 'layout');
    const report = await applySchema(hbase, ns);
    expect(report.createdTables).toEqual([]);
    expect(report.layout).toEqual({ recorded: null, code: LAYOUT_VERSION });
  });
});
