// shared/use-cases/jobs/away-sweep.ts — marks readers who stopped reading as away, daily.
//
// Fan-out skips followers marked away on the followers-side row it scans anyway (e:away), so the
// inactivity rule costs the hot path nothing (shared/use-cases/background/delivery.ts). This job finds them:
// it walks the inbox table in chunks, reading ONLY the m store (m:seen, m:away, m:regen), and
// for every reader whose last read (m:seen) is older than the inactivity window — not already
// marked at that same m:seen (m:away), and not being rebuilt (m:regen) — queues one `away`
// message. The worker marks the reader's follows and then looks at m:seen again: a reader who
// came back meanwhile gets a rebuild that clears the marks (invariant J, consistency.md).
// A reader never recorded (no m:seen) is never marked: nothing says they left.
import { z } from 'zod';
import type { FanoutQueue } from '../../ports/fanout-queue.js';
import type { MaintenanceStore } from '../../ports/maintenance-store.js';
import { sendAll, type JobDefinition, type StepInput, type StepResult } from './job-runner.js';

export const AwayCarry = z.strictObject({});
export type AwayCarry = z.infer<typeof AwayCarry>;

export interface AwaySweepDeps {
  store: MaintenanceStore;
  queue: FanoutQueue;
  inactiveAfterMs: number;
  now?: () => number;
}

export async function awaySweepStep(deps: AwaySweepDeps, input: StepInput<AwayCarry>): Promise<StepResult<AwayCarry>> {
  const now = (deps.now ?? Date.now)();
  const stats = { seen: 0, fixed: 0, active: 0, alreadyAway: 0, regenerating: 0, foreignRows: 0 };
  let cursor = input.cursor;
  const away: { reader: string; seenAt: number }[] = [];
  for await (const mark of deps.store.activityMarks({ ...(input.cursor === undefined ? {} : { start: input.cursor }), limit: input.rowsPerStep })) {
    stats.seen++;
    cursor = mark.next;
    if (mark.reader === null || mark.seenAt === null) stats.foreignRows++;
    else if (now - mark.seenAt <= deps.inactiveAfterMs) stats.active++;
    else if (mark.regenerating) stats.regenerating++;
    else if (mark.awayAt === mark.seenAt) stats.alreadyAway++;
    else away.push({ reader: mark.reader, seenAt: mark.seenAt });
  }
  // Sent after the scan has closed, a few at a time.
  stats.fixed = await sendAll(deps.queue, away.map(({ reader, seenAt }) => ({ v: 1, type: 'away', reader, seenAt })));
  if (stats.seen === input.rowsPerStep) return { done: false, ...(cursor === undefined ? {} : { cursor }), carry: {}, stats };
  return { done: true, stats };
}

export function awaySweepJob(deps: AwaySweepDeps): JobDefinition<AwayCarry> {
  return {
    name: 'away-sweep',
    carry: AwayCarry,
    // Scheduled daily: a run never overlaps the next one.
    maxRunMs: 23 * 3600_000,
    step: (input) => awaySweepStep(deps, input),
  };
}
