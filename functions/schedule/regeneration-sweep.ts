// functions/schedule/regeneration-sweep.ts — rate(10 minutes): re-send stuck inbox regenerations of returning readers.
import { regenerationSweepJob } from '../../shared/use-cases/jobs/regeneration-sweep.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('regeneration-sweep', (deps) =>
  regenerationSweepJob({ store: deps.store, queue: deps.queue(), stuckAfterMs: deps.limits.regenStuckMs }),
);
