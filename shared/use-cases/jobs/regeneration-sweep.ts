// shared/use-cases/jobs/regeneration-sweep.ts — re-sends regenerations that got stuck.
//
// A returning inactive reader's inbox is rebuilt by a `regenerate` queue message; the reader
// carries a regeneration mark (when it was requested) until the worker finishes and removes it,
// and the timeline answers 206 meanwhile. If the message was lost — in the DLQ after five
// failures, or the send itself failed after the mark was written — the reader would wait forever.
//
// This sweep (./sweep.ts) walks the regeneration marks only (never the inbox entries). A mark
// older than REGEN_STUCK_SECONDS (or unreadable) gets a fresh `{v:1,type:'regenerate',reader}`.
// The mark itself is left alone: the worker owns it, and regeneration is idempotent, so at worst
// a slow rebuild runs twice. One message per stuck reader per sweep (every 10 minutes).
import type { FanoutQueue } from '../../ports/fanout-queue.js';
import type { MaintenanceStore, RegenerationMark } from '../../ports/maintenance-store.js';
import type { JobDefinition } from './job-runner.js';
import { sweepJob, type SweepCarry, type Verdict } from './sweep.js';

export interface RegenerationSweepDeps {
  store: MaintenanceStore;
  queue: FanoutQueue;
  stuckAfterMs: number;
  now?: () => number;
}

type RegenerationStat = 'fresh' | 'unreadable' | 'foreignRows';

export function judgeRegeneration(
  mark: RegenerationMark,
  now: number,
  stuckAfterMs: number,
): Verdict<RegenerationStat> {
  if (mark.reader === null) return { count: 'foreignRows' };
  const send = { v: 1, type: 'regenerate', reader: mark.reader } as const;
  if (mark.requestedAt === null) return { count: 'unreadable', send };
  if (now - mark.requestedAt >= stuckAfterMs) return { send };
  return { count: 'fresh' };
}

export function regenerationSweepJob(deps: RegenerationSweepDeps): JobDefinition<SweepCarry> {
  return sweepJob(
    {
      name: 'regeneration-sweep',
      // Scheduled every 10 minutes: a run never overlaps the next one.
      maxRunMs: 9 * 60_000,
      counts: ['fresh', 'unreadable', 'foreignRows'],
      marks: (opts) => deps.store.regenerationMarks(opts),
      judge: (mark, now) => judgeRegeneration(mark, now, deps.stuckAfterMs),
    },
    deps,
  );
}
