// test/integration/pre-split.test.ts — pre-split tables on the running local stack (issue 13,
// item 4): `npm run schema -- --regions 4` creates every table with its split keys through
// infra/local/PreSplit.java (the REST gateway cannot), keeps each table's families, is
// idempotent, and leaves a table that holds rows alone. `--shell` prints the script operators run.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { isLoopbackGateway, localPreSplitter, localStackHBase } from '../../infra/schema/local-pre-split.js';
import { hbaseShellScript } from '../../infra/schema/shell-script.js';
import { HBaseRestClient, bytesToString } from '../../shared/hbase/index.js';
import { userKey } from '../../shared/schema/row-keys.js';
import { TABLES, qualifiedTableName, splitPoints, type TableName } from '../../shared/schema/tables.js';
import { dropNamespace } from '../support/namespace.js';

const run = promisify(execFile);
const url = inject('hbaseRestUrl');
const ns = `it_split_${Date.now().toString(36)}`;
const client = new HBaseRestClient({ baseUrl: url, timeoutMs: 60_000 });
const tableNames = Object.keys(TABLES) as TableName[];
const REGIONS = 4;
const extra = `${ns}:has_rows`;

async function regionStarts(table: string): Promise<string[]> {
  const res = await fetch(`${url}/${table}/regions`, { headers: { Accept: 'application/json' } });
  expect(res.status, table).toBe(200);
  const json = (await res.json()) as { Region: { startKey: string }[] };
  return json.Region.map((r) => Buffer.from(r.startKey, 'base64').toString('hex')).sort();
}

afterAll(async () => {
  await dropNamespace(client, ns, [extra]);
  await client.close();
});

describe.skipIf(!isLoopbackGateway(url))('pre-split tables on the local stack', () => {
  it('npm run schema -- --regions 4 creates every table with its split keys and its families', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'infra/schema/schema-command.ts', '--regions', String(REGIONS)],
      {
        env: { ...process.env, HBASE_REST_URL: url, HBASE_NAMESPACE: ns },
        timeout: 100_000,
      },
    );
    expect(stdout).toContain(`${REGIONS} region(s) per table`);
    expect(stdout).not.toContain('cannot pre-split');
    for (const t of tableNames) {
      const table = qualifiedTableName(ns, t);
      const want = ['', ...splitPoints(t, REGIONS).map((p) => Buffer.from(p).toString('hex'))].sort();
      expect(await regionStarts(table), table).toEqual(want);
      const schema = await client.getTableSchema(table);
      expect(schema?.columnFamilies.map((f) => f.name).sort(), table).toEqual(
        TABLES[t].families.map((f) => f.name).sort(),
      );
      if (want.length > 1) expect(stdout).toContain(`pre-split: ${table}: created with ${REGIONS} regions`);
    }
    // Attributes survive the re-creation (NEW_VERSION_BEHAVIOR, TTL).
    const relations = await client.getTableSchema(qualifiedTableName(ns, 'relations'));
    expect(String(relations?.columnFamilies[0]?.NEW_VERSION_BEHAVIOR).toLowerCase()).toBe('true');
    const sessions = await client.getTableSchema(qualifiedTableName(ns, 'sessions'));
    expect(Number(sessions?.columnFamilies[0]?.TTL)).toBe(Number(TABLES.sessions.families[0]!.TTL));
    // About 30 s here (17 tables through REST, then PreSplit.java); more while other suites share the stack.
  }, 110_000);

  it('serves rows in every region, and a second run changes and splits nothing', async () => {
    const table = qualifiedTableName(ns, 'users');
    const handles = Array.from({ length: 40 }, (_, i) => `split_${i}`);
    await client.put(
      table,
      handles.map((h) => ({ key: userKey(h), cells: [{ column: 'p:h', value: h }] })),
    );
    // The 40 keys fall in every one of the 4 regions (a region misses all 40 with p ≈ 4·0.75^40 ≈ 1e-5).
    const points = splitPoints('users', REGIONS).map((p) => Buffer.from(p));
    const regionOf = (k: Uint8Array) => points.filter((p) => Buffer.compare(p, Buffer.from(k)) <= 0).length;
    expect(new Set(handles.map((h) => regionOf(userKey(h)))).size).toBe(REGIONS);
    const rows = await client.multiGet(table, handles.map(userKey));
    expect(rows.map((r) => bytesToString(r.cells[0]!.value)).sort()).toEqual([...handles].sort());
    const again = await applySchema(client, ns, {
      regionsPerTable: REGIONS,
      preSplit: localPreSplitter(localStackHBase()),
    });
    expect(again.createdTables).toEqual([]);
    expect(again.preSplit).toEqual([]);
    expect(await regionStarts(table)).toHaveLength(REGIONS);
  });

  it('leaves a table that holds rows alone, and says so', async () => {
    if (!(await client.namespaceExists(ns))) await client.createNamespace(ns);
    await client.createTable(extra, { columnFamilies: [{ name: 'f' }] });
    await client.put(extra, [{ key: 'r1', cells: [{ column: 'f:a', value: 'kept' }] }]);
    await expect(
      localPreSplitter(localStackHBase())([{ table: extra, points: splitPoints('inbox', REGIONS) }]),
    ).rejects.toThrow(/has rows, left alone/);
    expect(await regionStarts(extra)).toEqual(['']);
    expect(bytesToString((await client.getRow(extra, 'r1'))!.cells[0]!.value)).toBe('kept');
  });

  it('--shell prints the hbase shell script and touches nothing', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'infra/schema/schema-command.ts', '--shell', '--regions', '16'],
      {
        env: { ...process.env, HBASE_REST_URL: 'http://127.0.0.1:1', HBASE_NAMESPACE: 'weibo' },
        timeout: 30_000,
      },
    );
    expect(stdout).toBe(hbaseShellScript('weibo', 16));
    expect(stdout.split('\n').filter((l) => l.startsWith('create ')).length).toBe(tableNames.length);
    expect(stdout).toContain(`create 'weibo:inbox', {NAME => 'i'`);
    expect(stdout).toContain('SPLITS => ["\\x10\\x00", "\\x20\\x00"');
  });
});
