// shared/use-cases/jobs/away-sweep.ts — marks readers who stopped reading as away, daily.
//
// Fan-out skips followers marked away on the followers side of the edge it reads anyway, so the
// inactivity rule costs the hot path nothing (shared/use-cases/background/delivery.ts). This sweep (./sweep.ts) finds
// them: it walks the readers' activity marks in chunks and, for every reader whose last read is
// older than the inactivity window — not already marked at that same read, and not being
// rebuilt — queues one `away` message. The worker marks the reader's follows and then looks at
// the last read again: a reader who came back meanwhile gets a rebuild that clears the marks
// (invariant J, docs/consistency.md). A reader never recorded is never marked: nothing says they left.
import type { FanoutQueue } from '../../ports/fanout-queue.js';
import type { ActivityMark, MaintenanceStore } from '../../ports/maintenance-store.js';
import type { JobDefinition } from './job-runner.js';
import { sweepJob, type SweepCarry, type Verdict } from './sweep.js';

export interface AwaySweepDeps {
  store: MaintenanceStore;
  queue: FanoutQueue;
  inactiveAfterMs: number;
  now?: () => number;
}

type AwayStat = 'active' | 'alreadyAway' | 'regenerating' | 'foreignRows';

export function judgeActivity(mark: ActivityMark, now: number, inactiveAfterMs: number): Verdict<AwayStat> {
  if (mark.reader === null || mark.seenAt === null) return { count: 'foreignRows' };
  if (now - mark.seenAt <= inactiveAfterMs) return { count: 'active' };
  if (mark.regenerating) return { count: 'regenerating' };
  if (mark.awayAt === mark.seenAt) return { count: 'alreadyAway' };
  return { send: { v: 1, type: 'away', reader: mark.reader, seenAt: mark.seenAt } };
}

export function awaySweepJob(deps: AwaySweepDeps): JobDefinition<SweepCarry> {
  return sweepJob(
    {
      name: 'away-sweep',
      // Scheduled daily: a run never overlaps the next one.
      maxRunMs: 23 * 3600_000,
      counts: ['active', 'alreadyAway', 'regenerating', 'foreignRows'],
      marks: (opts) => deps.store.activityMarks(opts),
      judge: (mark, now) => judgeActivity(mark, now, deps.inactiveAfterMs),
    },
    deps,
  );
}
