// shared/schema/migrations.ts — the layout version a namespace's data is in, and the migrations
// that move it to the code's. `npm run migrate` (infra/schema/migrate-command.ts) applies what is
// pending; docs/operations.md ("Upgrades") is the operator's side.
//
// A change of row keys, qualifiers or value encodings ships with a migration to the next
// version. A migration works batch by batch from a cursor of its own and records the cursor
// after every batch (table meta, tables.ts): a run that stops — a crash, its time up — is
// resumed where it stopped, so a batch may run twice and must be idempotent. It runs while the
// system serves: until it is done, the code reads both layouts (the old rows it has not reached,
// the new ones) and writes the new one. It never relies on old rows expiring.
//
// Two runs at once (an operator's `npm run migrate` beside the deployed job, or a run frozen
// mid-batch and thawed later) only repeat batches: a cursor recorded may step back, the version
// never does (it is written by a check-and-put on the version read).
//
// The version is recorded only upward, and only once every migration up to it is done. A fresh
// namespace (the schema command made its tables) holds nothing to migrate and is recorded at the
// code's version at once. Code older than the recorded version refuses to migrate it.
import { bytesToString, type HBaseRestClient } from '../hbase/index.js';
import { LAYOUT_ROW, migrationRowKey } from './row-keys.js';
import { qualifiedTableName } from './tables.js';

/** The layout the first recorded release (v0.1.0) wrote; a namespace with no record holds it. */
export const BASE_LAYOUT_VERSION = 1;

/** What one batch did: where the next starts (null: the migration is done) and the rows it went through. */
export interface MigrationBatch {
  next: string | null;
  rows: number;
}

export interface Migration {
  /** The layout version the namespace holds once this migration is done (the one before + 1). */
  to: number;
  name: string;
  /** One line for the operator: what moves where. */
  what: string;
  /** One batch from `cursor` ('' = the start). Idempotent: a batch may run again after a stop. */
  batch(client: HBaseRestClient, namespace: string, cursor: string): Promise<MigrationBatch>;
}

/** Every migration, in order; the last one's `to` is the code's layout version. */
export const MIGRATIONS: readonly Migration[] = [];

/** The layout version this code reads and writes. */
export const LAYOUT_VERSION = layoutVersionOf(MIGRATIONS);

export function layoutVersionOf(migrations: readonly Migration[]): number {
  migrations.forEach((m, i) => {
    if (m.to !== BASE_LAYOUT_VERSION + i + 1)
      throw new Error(
        `migration ${m.name} goes to ${m.to}; the one at position ${i} must go to ${BASE_LAYOUT_VERSION + i + 1}`,
      );
  });
  return BASE_LAYOUT_VERSION + migrations.length;
}

const VERSION = 'v:version';
const AT = 'v:at';
const CURSOR = 'v:cursor';
const ROWS = 'v:rows';
const DONE = 'v:done';

const cell = (row: { cells: { column: Uint8Array; value: Uint8Array }[] } | null, column: string) => {
  const found = row?.cells.find((c) => bytesToString(c.column) === column);
  return found ? bytesToString(found.value) : undefined;
};

/** The version recorded in `namespace` (null: none recorded). */
export async function recordedLayout(client: HBaseRestClient, namespace: string): Promise<number | null> {
  const row = await client.getRow(qualifiedTableName(namespace, 'meta'), LAYOUT_ROW, { columns: [VERSION] });
  const v = cell(row, VERSION);
  return v === undefined ? null : Number(v);
}

/**
 * Records `version` unless a higher one is recorded already: a check-and-put on the version read,
 * so a run that lost a race reads again and never writes a lower one over a higher.
 */
export async function recordLayout(client: HBaseRestClient, namespace: string, version: number): Promise<void> {
  const table = qualifiedTableName(namespace, 'meta');
  for (;;) {
    const have = await recordedLayout(client, namespace);
    if (have !== null && have >= version) return;
    const cells = [
      { column: VERSION, value: String(version) },
      { column: AT, value: String(Date.now()) },
    ];
    if (
      await client.checkAndPut(table, LAYOUT_ROW, cells, {
        column: VERSION,
        value: have === null ? null : String(have),
      })
    )
      return;
  }
}

export interface MigrationProgress {
  to: number;
  name: string;
  rows: number;
  cursor: string;
  done: boolean;
}

export interface MigrateReport {
  /** The version the namespace held before (its record, or BASE_LAYOUT_VERSION when none). */
  from: number;
  /** The version it holds now. */
  to: number;
  /** Migrations still to run (the run's time was up first). */
  pending: number;
  /** Rows the run's batches went through. */
  rows: number;
}

export class NewerLayoutError extends Error {}

/**
 * Runs the migrations `namespace` has not had, in order, each batch by batch from its recorded
 * cursor, and records the version after each. Stops after a batch once `until` (epoch millis)
 * has passed (never before its first): what is left is `pending`, resumed by the next run.
 */
export async function migrate(
  client: HBaseRestClient,
  namespace: string,
  opts: {
    migrations?: readonly Migration[];
    until?: number;
    log?: (line: string) => void;
  } = {},
): Promise<MigrateReport> {
  const migrations = opts.migrations ?? MIGRATIONS;
  const target = layoutVersionOf(migrations);
  const log = opts.log ?? (() => {});
  const table = qualifiedTableName(namespace, 'meta');
  const from = (await recordedLayout(client, namespace)) ?? BASE_LAYOUT_VERSION;
  if (from > target)
    throw new NewerLayoutError(
      `namespace ${namespace} holds layout ${from}, newer than this code's ${target}: run the newer code's migrate`,
    );
  let at = from;
  let moved = 0;
  for (const m of migrations.filter((x) => x.to > from)) {
    const key = migrationRowKey(m.to);
    const row = await client.getRow(table, key);
    let cursor = cell(row, CURSOR) ?? '';
    let rows = Number(cell(row, ROWS) ?? '0');
    if (cell(row, DONE) === undefined) {
      log(`${m.to} ${m.name}: ${cursor === '' ? 'starting' : `resuming after ${rows} rows`} — ${m.what}`);
      for (;;) {
        const batch = await m.batch(client, namespace, cursor);
        rows += batch.rows;
        moved += batch.rows;
        cursor = batch.next ?? cursor;
        const cells = [
          { column: CURSOR, value: cursor },
          { column: ROWS, value: String(rows) },
          ...(batch.next === null ? [{ column: DONE, value: String(Date.now()) }] : []),
        ];
        await client.put(table, [{ key, cells }]);
        log(`${m.to} ${m.name}: ${rows} rows${batch.next === null ? ', done' : ''}`);
        if (batch.next === null) break;
        // At least one batch a run, so a run always moves on, however little time it was given.
        if (opts.until !== undefined && Date.now() >= opts.until) {
          log(`${m.to} ${m.name}: time is up after ${rows} rows; the next run goes on from here`);
          return { from, to: at, pending: migrations.filter((x) => x.to > at).length, rows: moved };
        }
      }
    }
    await recordLayout(client, namespace, m.to);
    at = m.to;
  }
  await recordLayout(client, namespace, target);
  return { from, to: target, pending: 0, rows: moved };
}
