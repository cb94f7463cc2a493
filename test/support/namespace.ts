// test/support/namespace.ts — a throwaway HBase namespace with the whole schema for one test
// file: created before its tests, dropped (tables first) after them.
import { afterAll, beforeAll } from 'vitest';
import { applySchema } from '../../infra/schema/apply-schema.js';
import type { HBaseRestClient } from '../../shared/hbase/index.js';
import { TABLES, qualifiedTableName, type TableName } from '../../shared/schema/tables.js';

export function useNamespace(hbase: HBaseRestClient, ns: string): void {
  beforeAll(async () => {
    await applySchema(hbase, ns);
  }, 120_000);
  afterAll(async () => {
    for (const t of Object.keys(TABLES) as TableName[]) await hbase.deleteTable(qualifiedTableName(ns, t)).catch(() => {});
    await hbase.deleteNamespace(ns).catch(() => {});
    await hbase.close();
  });
}
