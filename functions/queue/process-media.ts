// functions/queue/process-media.ts — the SQS-triggered media worker (its own queue, memory and
// timeout: image work must not hold up the fan-out). One record per invocation (batch size 1
// bounds memory to one image); a record that throws (storage or HBase unavailable) is reported in
// batchItemFailures and redelivered (out of time too: record-batch.ts), and after maxReceiveCount
// lands in the media DLQ. A picture the worker refuses is not an error: its record ends `failed`
// with the reason. A `discard` the worker finds unjustified when it runs (the picture is in a
// live post) is logged and dropped.
import type { SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/logging/logger.js';
import { mediaWorkerDependencies } from '../../shared/wiring/media-worker.js';
import { liveDependencies } from '../../shared/wiring/live.js';
import { recordCorrelationId } from '../../shared/observability/correlation-id.js';
import { MediaMessage } from '../../shared/ports/media-queue.js';
import { runWithCorrelationId } from '../../shared/runtime/invocation-scope.js';
import { discardMedia } from '../../shared/use-cases/media/discard.js';
import type { MediaWorkerDeps } from '../../shared/use-cases/media/media-deps.js';
import { processMedia } from '../../shared/use-cases/media/process-media.js';
import { sqsRecordWorker } from './record-batch.js';

/** One handler per message type, named for what it keeps true (invariant L). */
const handlers: { [T in MediaMessage['type']]: (deps: MediaWorkerDeps, mediaId: string) => Promise<object> } = {
  /** A ready picture has every variant object; a refused one is failed with its reason. */
  process: processMedia,
  /** An unreferenced picture's objects, then its record, are removed; a referenced one stays. */
  discard: (deps, mediaId) => discardMedia(deps, mediaId),
};

export async function recordHandler(record: SQSRecord): Promise<void> {
  await runWithCorrelationId(recordCorrelationId(record), async () => {
    const message = MediaMessage.parse(JSON.parse(record.body));
    const deps = { ...mediaWorkerDependencies(), announcer: liveDependencies() };
    const outcome = await handlers[message.type](deps, message.mediaId);
    logger.info('media message handled', {
      messageId: record.messageId,
      type: message.type,
      mediaId: message.mediaId,
      ...outcome,
    });
  });
}

export const handler = sqsRecordWorker(recordHandler);
