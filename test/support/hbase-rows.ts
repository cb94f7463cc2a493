// test/support/hbase-rows.ts — test-only helpers that read whole tables of a test namespace
// (production code never scans a whole table; tests do it to prove nothing was written).
import { type HBaseRestClient, bytesToString, type HBaseRow } from '../../shared/hbase/index.js';
import { TABLES, qualifiedTableName, type TableName } from '../../shared/schema/tables.js';

const ALL_KEYS = { startRow: new Uint8Array(0), stopRow: new Uint8Array(64).fill(0xff) };

export async function allRows(
  client: HBaseRestClient,
  namespace: string,
  table: TableName,
  limit = 100_000,
): Promise<HBaseRow[]> {
  const rows: HBaseRow[] = [];
  for await (const row of client.scan(qualifiedTableName(namespace, table), { ...ALL_KEYS, limit })) rows.push(row);
  return rows;
}

/** Row count of every table in the namespace. */
export async function rowCounts(client: HBaseRestClient, namespace: string): Promise<Record<TableName, number>> {
  const out = {} as Record<TableName, number>;
  for (const t of Object.keys(TABLES) as TableName[]) out[t] = (await allRows(client, namespace, t)).length;
  return out;
}

/** Every cell value and qualifier in the namespace as text, for "no secret stored" checks. */
export async function allCellText(client: HBaseRestClient, namespace: string): Promise<string> {
  const parts: string[] = [];
  for (const t of Object.keys(TABLES) as TableName[]) {
    for (const row of await allRows(client, namespace, t)) {
      for (const c of row.cells) parts.push(bytesToString(c.qualifier), bytesToString(c.value));
    }
  }
  return parts.join('\n');
}

/**
 * Every cell of every table in the namespace, as `table row column @timestamp = value` lines
 * (bytes in hex), sorted: two snapshots are equal only if no cell was added, removed, or written
 * again, even with the same value (which a row count, or a value comparison, would miss).
 */
export async function cellSnapshot(
  client: HBaseRestClient,
  namespace: string,
  skip: TableName[] = [],
): Promise<string[]> {
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  const lines: string[] = [];
  for (const t of Object.keys(TABLES) as TableName[]) {
    if (skip.includes(t)) continue;
    for (const row of await allRows(client, namespace, t)) {
      for (const c of row.cells) lines.push(`${t} ${hex(row.key)} ${hex(c.column)} @${c.timestamp} = ${hex(c.value)}`);
    }
  }
  return lines.sort();
}
