// shared/use-cases/jobs/migrate-layout.ts — the deployed form of `npm run migrate`'s data part:
// the migrations the namespace has not had, a step's time at a time, each step going on from the
// batch the last one recorded (the migrations keep their own progress, so the job's cursor is
// unused). Scheduled, it finds nothing pending in one read; after a deploy it moves the data
// while the system serves. New tables and families come first, from `npm run schema`.
import * as z from 'zod';
import type { LayoutStore } from '../../ports/layout-store.js';
import type { JobDefinition } from './job-runner.js';

/** The time one step gives the migrations, well inside the function's timeout. */
export const MIGRATE_STEP_MS = 40_000;

export function migrateLayoutJob(layout: LayoutStore, stepMs = MIGRATE_STEP_MS): JobDefinition<Record<string, never>> {
  return {
    name: 'migrate-layout',
    carry: z.strictObject({}) as z.ZodType<Record<string, never>>,
    // Scheduled hourly: a run never overlaps the next one.
    maxRunMs: 55 * 60_000,
    async step() {
      const progress = await layout.migrate(Date.now() + stepMs);
      return {
        done: progress.pending === 0,
        stats: { seen: progress.rows, fixed: progress.rows, versions: progress.to - progress.from },
        notes: { from: progress.from, to: progress.to, pending: progress.pending },
      };
    },
  };
}
