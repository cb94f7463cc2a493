// shared/use-cases/jobs/trim-inboxes.ts — keeps every inbox at INBOX_CAP entries and every
// outbox at OUTBOX_CAP (product.md "Everything bounded"; Mastodon and Twitter cap at ~800).
//
// Steps: walk the inbox table in chunks of rowsPerStep rows (family i only), then the outbox
// table (family o). For a row with more cells than the cap, the cells past the cap are the
// oldest (qualifiers sort newest first) and go in ONE deleteColumns per row, up to the newest
// timestamp among them: a cell rewritten after our read (a refollow's backfill) carries a newer
// server timestamp and survives (HBASE-3300). Rows at or under the cap are not touched.
// Idempotent: a re-run finds nothing past the cap. Cursor = the table position; carry = which
// table the walk is in.
import { z } from 'zod';
import type { MaintenanceStore, WideTable } from '../../ports/maintenance-store.js';
import type { JobDefinition, StepInput, StepResult } from './job-runner.js';

export const TrimCarry = z.strictObject({ table: z.enum(['inbox', 'outbox']) });
export type TrimCarry = z.infer<typeof TrimCarry>;

export interface TrimCaps {
  inbox: number;
  outbox: number;
}

export async function trimStep(store: MaintenanceStore, caps: TrimCaps, input: StepInput<TrimCarry>): Promise<StepResult<TrimCarry>> {
  const table: WideTable = input.carry?.table ?? 'inbox';
  const cap = caps[table];
  const stats = { seen: 0, fixed: 0, cellsDeleted: 0 };
  let cursor = input.cursor;
  for await (const row of store.wideRows(table, { ...(input.cursor === undefined ? {} : { start: input.cursor }), limit: input.rowsPerStep })) {
    stats.seen++;
    cursor = row.next;
    if (row.cells.length <= cap) continue;
    const doomed = row.cells.slice(cap);
    const upToTimestamp = doomed.reduce((max, c) => Math.max(max, c.timestamp), 0);
    await store.deleteCells(table, row.row, doomed.map((c) => c.qualifier), upToTimestamp);
    stats.fixed++;
    stats.cellsDeleted += doomed.length;
  }
  // Fewer rows than asked: this table is done.
  if (stats.seen === input.rowsPerStep) return { done: false, ...(cursor === undefined ? {} : { cursor }), carry: { table }, stats };
  if (table === 'inbox') return { done: false, carry: { table: 'outbox' }, stats };
  return { done: true, stats };
}

export function trimInboxesJob(store: MaintenanceStore, caps: TrimCaps): JobDefinition<TrimCarry> {
  return {
    name: 'trim-inboxes',
    carry: TrimCarry,
    // Scheduled hourly: a run never overlaps the next one.
    maxRunMs: 55 * 60_000,
    step: (input) => trimStep(store, caps, input),
  };
}
