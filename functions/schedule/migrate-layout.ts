// functions/schedule/migrate-layout.ts — rate(1 hour), or invoked after a deploy: the pending
// layout migrations, one step's time at a time, handed on until done (docs/operations.md, "Upgrades").
import { migrateLayoutJob } from '../../shared/use-cases/jobs/migrate-layout.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('migrate-layout', (deps) => migrateLayoutJob(deps.layout));
