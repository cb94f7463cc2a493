// functions/schedule/repair-relations.ts — rate(6 hours): followers rows agree with following rows (each fix queues a settle); follow counters exact.
import { repairRelationsJob } from '../../shared/use-cases/jobs/repair-relations.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('repair-relations', (deps) =>
  repairRelationsJob(deps.store, { settleMs: deps.limits.settleMs, queue: deps.queue() }),
);
