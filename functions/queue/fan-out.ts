// functions/queue/fan-out.ts — the SQS-triggered fan-out worker. Each record is parsed and
// handled on its own, by its type's handler (shared/use-cases/background/handlers.ts); a record
// that throws is reported in batchItemFailures, so only it is redelivered
// (ReportBatchItemFailures), and after maxReceiveCount it lands in the DLQ; out of time, the
// records not finished are reported failed (record-batch.ts).
// Unparseable messages throw too: they are poison and belong in the DLQ, not silently dropped.
// Each record runs under the correlation id of the request that queued it (its message
// attribute; else its message id), so its log lines, and the messages it queues in turn, carry it.
import type { SQSRecord } from 'aws-lambda';
import { feedWithExports } from '../../shared/wiring/data-export.js';
import { liveDependencies } from '../../shared/wiring/live.js';
import { operationBudget } from '../../shared/config/config.js';
import { logger } from '../../shared/logging/logger.js';
import { recordCorrelationId } from '../../shared/observability/correlation-id.js';
import { recordFanout } from '../../shared/observability/metrics.js';
import { runWithCorrelationId } from '../../shared/runtime/invocation-scope.js';
import { FanoutMessage } from '../../shared/ports/fanout-queue.js';
import { handleFanoutMessage } from '../../shared/use-cases/background/handlers.js';
import { sqsRecordWorker } from './record-batch.js';

export async function recordHandler(record: SQSRecord): Promise<void> {
  await runWithCorrelationId(recordCorrelationId(record), async () => {
    const message = FanoutMessage.parse(JSON.parse(record.body));
    const outcome = await handleFanoutMessage({ ...feedWithExports(), announcer: liveDependencies() }, message);
    recordFanout(message, outcome);
    logger.info('fan-out message handled', { messageId: record.messageId, type: message.type, ...outcome });
  });
}

// Budgeted like a request: the worker's writes land within the bound the settle window assumes.
export const handler = sqsRecordWorker(recordHandler, { budgetMs: () => operationBudget() });
