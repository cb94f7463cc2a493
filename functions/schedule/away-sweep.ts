// functions/schedule/away-sweep.ts — rate(1 day): mark readers past the inactivity window away, so fan-out skips them at no cost.
import { awaySweepJob } from '../../shared/use-cases/jobs/away-sweep.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('away-sweep', (deps) =>
  awaySweepJob({ store: deps.store, queue: deps.queue(), inactiveAfterMs: deps.limits.inactiveAfterMs }),
);
