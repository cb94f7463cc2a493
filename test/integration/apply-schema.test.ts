// test/integration/apply-schema.test.ts — `npm run schema` against the real gateway: creates
// what is missing, is idempotent, reports drift, and never drops a table, a family or data.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { HBaseRestClient, bytesToString } from '../../shared/hbase/index.js';
import { TABLES, qualifiedTableName, type TableName } from '../../shared/schema/tables.js';
import { dropNamespace } from '../support/namespace.js';

const url = inject('hbaseRestUrl');
const ns = `it_schema_${Date.now().toString(36)}`;
const client = new HBaseRestClient({ baseUrl: url, timeoutMs: 60_000 });
const tableNames = Object.keys(TABLES) as TableName[];

afterAll(async () => {
  await dropNamespace(client, ns);
  await client.close();
});

describe('applySchema', () => {
  beforeAll(async () => {
    // Pre-existing state an operator might have: the namespace, and `users` created by hand
    // with only one of its families, a different VERSIONS, an extra family, and live data.
    await client.createNamespace(ns);
    await client.createTable(qualifiedTableName(ns, 'users'), {
      columnFamilies: [
        { name: 'p', VERSIONS: 3, BLOOMFILTER: 'ROW', DATA_BLOCK_ENCODING: 'FAST_DIFF' },
        { name: 'legacy', VERSIONS: 1 },
      ],
    });
    await client.put(qualifiedTableName(ns, 'users'), [
      {
        key: 'k1',
        cells: [
          { column: 'p:n', value: 'kept' },
          { column: 'legacy:x', value: 'also kept' },
        ],
      },
    ]);
  });

  it('creates missing tables and families, reports drift, drops nothing', async () => {
    const report = await applySchema(client, ns);
    expect(report.createdNamespace).toBe(false);
    expect(report.createdTables.sort()).toEqual(
      tableNames
        .filter((t) => t !== 'users')
        .map((t) => qualifiedTableName(ns, t))
        .sort(),
    );
    expect(report.addedFamilies.sort()).toEqual(['a', 'c', 't'].map((f) => `${qualifiedTableName(ns, 'users')}:${f}`));
    expect(report.drift).toContain(`${qualifiedTableName(ns, 'users')}:p VERSIONS: want 1, have 3`);
    expect(report.drift.some((d) => d.includes(':legacy exists in HBase but not in the schema'))).toBe(true);

    for (const t of tableNames) {
      const schema = await client.getTableSchema(qualifiedTableName(ns, t));
      const names = schema?.columnFamilies.map((f) => f.name) ?? [];
      for (const f of TABLES[t].families) expect(names).toContain(f.name);
    }
    const users = await client.getTableSchema(qualifiedTableName(ns, 'users'));
    expect(users?.columnFamilies.map((f) => f.name).sort()).toEqual(['a', 'c', 'legacy', 'p', 't']);
    const row = await client.getRow(qualifiedTableName(ns, 'users'), 'k1');
    expect(row?.cells.map((c) => bytesToString(c.value)).sort()).toEqual(['also kept', 'kept']);
  });

  it('is idempotent: a second run changes nothing and reports the same drift', async () => {
    const again = await applySchema(client, ns);
    expect(again.createdTables).toEqual([]);
    expect(again.addedFamilies).toEqual([]);
    expect(again.fixedFamilies).toEqual([]);
    expect(again.drift.length).toBeGreaterThan(0);
  });

  it('--fix-drift re-applies attributes without dropping the extra family or data', async () => {
    const fixed = await applySchema(client, ns, { fixDrift: true });
    expect(fixed.fixedFamilies).toEqual([`${qualifiedTableName(ns, 'users')}:p`]);
    const after = await applySchema(client, ns);
    expect(after.drift).toEqual([
      `${qualifiedTableName(ns, 'users')}:legacy exists in HBase but not in the schema (left alone)`,
    ]);
    const row = await client.getRow(qualifiedTableName(ns, 'users'), 'k1');
    expect(row?.cells.map((c) => bytesToString(c.value)).sort()).toEqual(['also kept', 'kept']);
  });

  it('creates the namespace when it is missing', async () => {
    const fresh = `${ns}_b`;
    try {
      const report = await applySchema(client, fresh);
      expect(report.createdNamespace).toBe(true);
      expect(report.createdTables).toHaveLength(tableNames.length);
      expect(await client.namespaceExists(fresh)).toBe(true);
    } finally {
      await dropNamespace(client, fresh);
    }
  });
});
