// infra/schema/apply-schema.ts — `npm run schema`: makes HBase match shared/schema/tables.ts.
// Idempotent and additive: creates a missing namespace, tables and families; REPORTS attribute
// drift and extra families; never drops a table or a family. `--fix-drift` re-applies our
// attributes to families that drifted (an alter of listed families only; nothing is dropped).
//
// Pre-split: with `regionsPerTable` > 1, the tables THIS run created get their split keys
// (shared/schema/tables.ts splitPoints) from `preSplit` — the REST gateway itself can only create
// one-region tables. Without a pre-splitter they are listed in `notPreSplit` (the schema command
// then prints the `hbase shell` script an operator runs instead). Existing tables are never split.
//
// Why not PUT /t/schema for existing tables: on the REST gateway that is a full replace that
// drops every family missing from the body. Missing families are added with POST instead.
import { forEachLimit } from '../../shared/runtime/concurrency.js';
import type { ColumnFamilySchema, HBaseRestClient } from '../../shared/hbase/index.js';
import { LAYOUT_VERSION, recordLayout, recordedLayout } from '../../shared/schema/migrations.js';
import { TABLES, qualifiedTableName, splitPoints, type TableName } from '../../shared/schema/tables.js';
import type { PreSplitRequest, PreSplitter } from './local-pre-split.js';

export interface SchemaReport {
  namespace: string;
  createdNamespace: boolean;
  createdTables: string[];
  addedFamilies: string[];
  drift: string[];
  fixedFamilies: string[];
  /** What the pre-splitter did, a line per table it was given. */
  preSplit: string[];
  /** Tables created with one region although regionsPerTable asked for more (no pre-splitter). */
  notPreSplit: string[];
  /** The layout version recorded in the namespace after the run (null: none), and this code's. */
  layout: { recorded: number | null; code: number };
}

/** Attribute values come back as strings, sometimes in another case (`true` vs `TRUE`). */
const same = (want: string | number | boolean, have: string | undefined) =>
  have !== undefined && String(want).toUpperCase() === have.toUpperCase();

function familyDrift(want: ColumnFamilySchema, have: ColumnFamilySchema): string[] {
  return Object.entries(want)
    .filter(([attr]) => attr !== 'name')
    .filter(([attr, value]) => !same(value, have[attr] === undefined ? undefined : String(have[attr])))
    .map(([attr, value]) => `${attr}: want ${String(value)}, have ${String(have[attr] ?? '(unset)')}`);
}

/** Tables created or checked at once. */
const TABLES_AT_ONCE = 4;

export async function applySchema(
  client: HBaseRestClient,
  namespace: string,
  opts: { fixDrift?: boolean; log?: (line: string) => void; regionsPerTable?: number; preSplit?: PreSplitter } = {},
): Promise<SchemaReport> {
  const log = opts.log ?? (() => {});
  const report: SchemaReport = {
    namespace,
    createdNamespace: false,
    createdTables: [],
    addedFamilies: [],
    drift: [],
    fixedFamilies: [],
    preSplit: [],
    notPreSplit: [],
    layout: { recorded: null, code: LAYOUT_VERSION },
  };
  const regions = opts.regionsPerTable ?? 1;
  const toSplit: PreSplitRequest[] = [];

  if (!(await client.namespaceExists(namespace))) {
    report.createdNamespace = await client.createNamespace(namespace);
    log(`namespace ${namespace}: created`);
  }

  // Tables are independent: a few at a time (creating one is a round of master work, about a
  // second here; the schema's twenty one after another took 15–20 s of every test namespace).
  // What each reports is gathered per table and merged in TABLES order, so reports stay stable.
  const keys = Object.keys(TABLES) as TableName[];
  const perTable = keys.map(() => ({
    createdTables: [] as string[],
    addedFamilies: [] as string[],
    drift: [] as string[],
    fixedFamilies: [] as string[],
    toSplit: [] as PreSplitRequest[],
    lines: [] as string[],
  }));
  await forEachLimit(
    keys.map((key, i) => ({ key, i })),
    TABLES_AT_ONCE,
    async ({ key, i }) => {
      const out = perTable[i]!;
      const note = (line: string) => out.lines.push(line);
      const def = TABLES[key];
      const table = qualifiedTableName(namespace, key);
      const existing = await client.getTableSchema(table);
      if (!existing) {
        // createTable refuses to touch an existing table, so a concurrent creator is harmless.
        if (await client.createTable(table, { columnFamilies: def.families })) {
          out.createdTables.push(table);
          note(`table ${table}: created with families ${def.families.map((f) => f.name).join(', ')}`);
          const points = splitPoints(key, regions);
          if (points.length > 0) out.toSplit.push({ table, points });
          return;
        }
      }
      const current = existing ?? (await client.getTableSchema(table));
      const haveByName = new Map((current?.columnFamilies ?? []).map((f) => [f.name, f]));

      const missing = def.families.filter((f) => !haveByName.has(f.name));
      if (missing.length > 0) {
        await client.addOrAlterFamilies(table, missing);
        out.addedFamilies.push(...missing.map((f) => `${table}:${f.name}`));
        note(`table ${table}: added families ${missing.map((f) => f.name).join(', ')}`);
      }

      const drifted: ColumnFamilySchema[] = [];
      for (const want of def.families) {
        const have = haveByName.get(want.name);
        if (!have) continue;
        const diffs = familyDrift(want, have);
        if (diffs.length > 0) {
          drifted.push(want);
          for (const d of diffs) out.drift.push(`${table}:${want.name} ${d}`);
        }
      }
      const ours = new Set(def.families.map((f) => f.name));
      for (const name of haveByName.keys()) {
        if (!ours.has(name)) out.drift.push(`${table}:${name} exists in HBase but not in the schema (left alone)`);
      }
      if (opts.fixDrift && drifted.length > 0) {
        await client.addOrAlterFamilies(table, drifted);
        out.fixedFamilies.push(...drifted.map((f) => `${table}:${f.name}`));
        note(`table ${table}: re-applied attributes of ${drifted.map((f) => f.name).join(', ')}`);
      }
    },
  );
  for (const out of perTable) {
    report.createdTables.push(...out.createdTables);
    report.addedFamilies.push(...out.addedFamilies);
    report.drift.push(...out.drift);
    report.fixedFamilies.push(...out.fixedFamilies);
    toSplit.push(...out.toSplit);
    for (const line of out.lines) log(line);
  }
  if (toSplit.length > 0 && opts.preSplit) {
    report.preSplit = await opts.preSplit(toSplit);
    for (const line of report.preSplit) log(`pre-split: ${line}`);
  } else {
    report.notPreSplit = toSplit.map((r) => r.table);
  }
  for (const line of report.drift) log(`drift: ${line}`);
  // Every table made by this run: there is no data of an older layout, so the namespace holds
  // this code's. Otherwise the record is npm run migrate's to move.
  if (report.createdTables.length === keys.length) await recordLayout(client, namespace, LAYOUT_VERSION);
  report.layout.recorded = await recordedLayout(client, namespace);
  return report;
}
