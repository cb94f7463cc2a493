// functions/schedule/trim-inboxes.ts — rate(1 hour): every inbox to INBOX_CAP entries, every outbox to OUTBOX_CAP.
import { trimInboxesJob } from '../../shared/use-cases/jobs/trim-inboxes.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('trim-inboxes', (deps) =>
  trimInboxesJob(deps.store, { inbox: deps.limits.inboxCap, outbox: deps.limits.outboxCap }),
);
