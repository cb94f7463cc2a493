// infra/schema/shell-script.ts — the schema of shared/schema/tables.ts as an `hbase shell` script,
// pre-split, for operators: the REST gateway cannot create a table with split keys, so on a real
// cluster the tables are created by this script (then `npm run schema` finds them and only
// reports drift). `npm run schema -- --shell [--regions N]` prints it.
//
//   create_namespace 'weibo'
//   create 'weibo:users', {NAME => 'p', VERSIONS => 1, …}, {NAME => 'a', …}, SPLITS => ["\x10\x00", …]
//
// Split keys are binary: each is a Ruby double-quoted string, every byte outside [A-Za-z0-9]
// written as \xNN (so `"`, `\` and `#{` can never appear unescaped).
import type { ColumnFamilySchema } from '../../shared/hbase/index.js';
import { TABLES, qualifiedTableName, splitPoints, type TableName } from '../../shared/schema/tables.js';

/** A Ruby double-quoted string literal of the bytes. */
export function rubyBytes(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9]/.test(c) ? c : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `${out}"`;
}

function familySpec(f: ColumnFamilySchema): string {
  const attrs = Object.entries(f)
    .filter(([k]) => k !== 'name')
    .map(([k, v]) => `${k} => ${typeof v === 'number' ? String(v) : `'${String(v)}'`}`);
  return `{${[`NAME => '${f.name}'`, ...attrs].join(', ')}}`;
}

/** One `create` per table: its families as in tables.ts, SPLITS when it has more than one region. */
export function createStatement(namespace: string, table: TableName, regions: number): string {
  const points = splitPoints(table, regions);
  const parts = [`'${qualifiedTableName(namespace, table)}'`, ...TABLES[table].families.map(familySpec)];
  if (points.length > 0) parts.push(`SPLITS => [${points.map(rubyBytes).join(', ')}]`);
  return `create ${parts.join(', ')}`;
}

export function hbaseShellScript(namespace: string, regions: number): string {
  const lines = [
    `# weibo-serverless schema (shared/schema/tables.ts), ${regions} region(s) per table — run with: hbase shell -n <this file>`,
    `create_namespace '${namespace}'`,
    ...(Object.keys(TABLES) as TableName[]).map((t) => createStatement(namespace, t, regions)),
  ];
  return `${lines.join('\n')}\n`;
}
