// functions/schedule/dead-letter-report.ts — rate(1 hour): what sits in the fan-out DLQ, as one
// structured log line and the DeadLetterMessages metric.
import { logger } from '../../shared/logging/logger.js';
import { recordDeadLetterDepth } from '../../shared/observability/metrics.js';
import { deadLetterReportJob } from '../../shared/use-cases/jobs/dead-letter-report.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('dead-letter-report', (deps) =>
  deadLetterReportJob(deps.deadLetters(), logger, recordDeadLetterDepth),
);
