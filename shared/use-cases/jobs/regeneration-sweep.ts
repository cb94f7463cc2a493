// shared/use-cases/jobs/regeneration-sweep.ts — re-sends regenerations that got stuck.
//
// A returning inactive reader's inbox is rebuilt by a `regenerate` queue message; its inbox row
// carries m:regen (when it was requested) until the worker finishes and deletes it, and the
// timeline answers 206 meanwhile. If the message was lost — in the DLQ after five failures, or
// the send itself failed after m:regen was written — the reader would wait forever.
//
// Steps: walk the inbox table in chunks, reading ONLY the m:regen column (HBase keeps each
// family in its own store, so the entries of family i are never read). A mark older than
// REGEN_STUCK_SECONDS (or unreadable) gets a fresh `{v:1,type:'regenerate',reader}` through the
// FanoutQueue. The mark itself is left alone: the worker owns it (it deletes it when done), and
// regeneration is idempotent, so at worst a slow rebuild runs twice. One message per stuck row
// per sweep (every 10 minutes).
import { z } from 'zod';
import type { FanoutQueue } from '../../ports/fanout-queue.js';
import type { MaintenanceStore } from '../../ports/maintenance-store.js';
import { sendAll, type JobDefinition, type StepInput, type StepResult } from './job-runner.js';

export const RegenerationCarry = z.strictObject({});
export type RegenerationCarry = z.infer<typeof RegenerationCarry>;

export interface RegenerationSweepDeps {
  store: MaintenanceStore;
  queue: FanoutQueue;
  stuckAfterMs: number;
  now?: () => number;
}

export async function regenerationSweepStep(deps: RegenerationSweepDeps, input: StepInput<RegenerationCarry>): Promise<StepResult<RegenerationCarry>> {
  const now = (deps.now ?? Date.now)();
  const stats = { seen: 0, fixed: 0, fresh: 0, unreadable: 0, foreignRows: 0 };
  let cursor = input.cursor;
  const stuck: string[] = [];
  for await (const mark of deps.store.regenerationMarks({ ...(input.cursor === undefined ? {} : { start: input.cursor }), limit: input.rowsPerStep })) {
    stats.seen++;
    cursor = mark.next;
    if (mark.reader === null) {
      stats.foreignRows++;
    } else if (mark.requestedAt === null) {
      stats.unreadable++;
      stuck.push(mark.reader);
    } else if (now - mark.requestedAt >= deps.stuckAfterMs) {
      stuck.push(mark.reader);
    } else {
      stats.fresh++;
    }
  }
  // Sent after the scan has closed, a few at a time.
  stats.fixed = await sendAll(deps.queue, stuck.map((reader) => ({ v: 1, type: 'regenerate', reader })));
  if (stats.seen === input.rowsPerStep) return { done: false, ...(cursor === undefined ? {} : { cursor }), carry: {}, stats };
  return { done: true, stats };
}

export function regenerationSweepJob(deps: RegenerationSweepDeps): JobDefinition<RegenerationCarry> {
  return {
    name: 'regeneration-sweep',
    carry: RegenerationCarry,
    // Scheduled every 10 minutes: a run never overlaps the next one.
    maxRunMs: 9 * 60_000,
    step: (input) => regenerationSweepStep(deps, input),
  };
}
