// shared/use-cases/jobs/quiet-snapshot.ts — the confirm step both counter repairs share
// (repair-relations.ts, repair-post-counts.ts): a counter is rewritten only from a snapshot no
// live operation was changing.
//
// Every operation changes its rows first and its counter after, within one settle window (W,
// longer than any request). So per suspect: read its counters (value + version), recount them
// from the rows, wait W, read the counters again. Unchanged means no operation was half-way
// through while we counted (its counter change would have landed in the wait), so the recount is
// exact; it is written with compare-and-set on the reading, so a change landing meanwhile wins
// and the fix waits for the next run. Changed means a live operation: left alone — a counter the
// job cannot trust a snapshot of is never overwritten (a plain write could undo an increment).
// Bounded: CONFIRM_PER_STEP suspects per step, one wait shared by all of them.
import { setTimeout as sleep } from 'node:timers/promises';
import { mapLimit } from '../../runtime/concurrency.js';
import type { CounterReading } from '../../ports/maintenance-store.js';
import type { StepResult } from './job-runner.js';

/** Suspects confirmed per step (each costs a bounded recount; the wait is shared). */
export const CONFIRM_PER_STEP = 25;
/** Suspects carried from the walk to the confirm phase per run (a healthy system has none). */
export const MAX_SUSPECTS = 500;
/** A suspect with more rows than this in one list is reported, not recounted in a step. */
export const RECOUNT_MAX_ROWS = 20_000;
const RECOUNT_CONCURRENCY = 4;
/** Fixes named in a step's log line (the count is always in the stats). */
export const NOTED_FIXES = 10;

/** What the confirm step needs of one kind of counted thing (users, posts). */
export interface Counted<K extends string> {
  counters: readonly K[];
  /** The counters of each id that still exists (a missing one is skipped). */
  read(ids: string[]): Promise<Map<string, Record<K, CounterReading>>>;
  /** The exact counts from the rows; null when too large to count in a step. */
  recount(id: string): Promise<Record<K, number> | null>;
  setIf(id: string, counter: K, expected: CounterReading, value: number): Promise<boolean>;
}

/** How a job names the confirm step's stats and notes. */
export interface ConfirmNames {
  written: string;
  /** A suspect that no longer exists (or never had a row to count into). */
  missing: string;
  notes: string;
}

export interface SettleWait {
  /** The settle window (ms): longer than any operation takes from its row change to its counter change. */
  settleMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export type ConfirmCarry = { suspects: string[]; confirming: true };

/** Confirms up to CONFIRM_PER_STEP suspects; the rest go on in the carry. */
export async function confirmQuietly<K extends string>(
  counted: Counted<K>,
  suspects: string[],
  wait: SettleWait,
  names: ConfirmNames,
): Promise<StepResult<ConfirmCarry>> {
  const batch = suspects.slice(0, CONFIRM_PER_STEP);
  const rest = suspects.slice(CONFIRM_PER_STEP);
  const stats: Record<string, number> & { seen: number; fixed: number } = {
    seen: batch.length,
    fixed: 0,
    [names.written]: 0,
    busy: 0,
    tooLarge: 0,
    alreadyExact: 0,
    [names.missing]: 0,
  };
  const bump = (stat: string) => (stats[stat] = (stats[stat] ?? 0) + 1);
  const before = await counted.read(batch);
  const recounts = await mapLimit(batch, RECOUNT_CONCURRENCY, (id) => counted.recount(id));
  await (wait.sleep ?? sleep)(wait.settleMs);
  const after = await counted.read(batch);

  const fixes: string[] = [];
  for (const [i, id] of batch.entries()) {
    const b = before.get(id);
    const a = after.get(id);
    const exact = recounts[i];
    if (!a || !b) {
      bump(names.missing);
      continue;
    }
    if (!exact) {
      bump('tooLarge');
      continue;
    }
    if (!counted.counters.every((c) => a[c].version === b[c].version)) {
      bump('busy'); // a live operation moved a counter: never overwrite what we cannot trust; next run
      continue;
    }
    let wrote = false;
    for (const c of counted.counters) {
      if (exact[c] === b[c].value) continue;
      if (await counted.setIf(id, c, b[c], exact[c])) {
        bump(names.written);
        wrote = true;
        fixes.push(`${id} ${c} ${b[c].value ?? 'unreadable'}→${exact[c]}`);
      } else bump('busy');
    }
    if (!wrote) bump('alreadyExact');
  }
  stats.fixed = stats[names.written]!;
  const notes = fixes.length === 0 ? undefined : { [names.notes]: fixes.slice(0, NOTED_FIXES) };
  if (rest.length === 0) return { done: true, stats, ...(notes ? { notes } : {}) };
  return { done: false, carry: { suspects: rest, confirming: true }, stats, ...(notes ? { notes } : {}) };
}
