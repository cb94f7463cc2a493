// functions/schedule/repair-post-counts.ts — rate(6 hours): like, comment and repost counts agree with the truth.
import { repairPostCountsJob } from '../../shared/use-cases/jobs/repair-post-counts.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('repair-post-counts', (deps) =>
  repairPostCountsJob(deps.postCounts, { settleMs: deps.limits.settleMs }),
);
