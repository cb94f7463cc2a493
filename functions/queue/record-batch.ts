// functions/queue/record-batch.ts — the glue both SQS workers share: each record is the record
// handler's, on its own; the batch answer is Powertools' partial batch response (a record that
// throws is reported in batchItemFailures, so only it is redelivered).
//
// An invocation that runs out of time answers too, rather than failing the whole batch: when its
// handler is still running at the deadline (middy answers then, shared/observability/
// invocation.ts), every record not finished by then is reported failed and the finished ones are
// not redelivered; when every record failed and some on the deadline, all are reported failed.
// Every record handler is idempotent, so a redelivered record that had in fact finished is safe.
// A record that met the deadline is noted for the invocation's one out-of-time report.
import { BatchProcessor, EventType, FullBatchFailureError, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { observedHandler } from '../../shared/observability/invocation.js';
import { noteIfOutOfTime } from '../../shared/observability/out-of-time.js';

/** Every record of `event` but those in `done`, as failures. */
const failedBut = (event: SQSEvent, done: ReadonlySet<string>): SQSBatchResponse => ({
  batchItemFailures: event.Records.filter((r) => !done.has(r.messageId)).map((r) => ({ itemIdentifier: r.messageId })),
});

export function sqsRecordWorker(recordHandler: (record: SQSRecord) => Promise<void>) {
  /** Per invocation (by its event): the records it finished. */
  const finished = new WeakMap<SQSEvent, Set<string>>();
  return observedHandler(
    async (event: SQSEvent, context): Promise<SQSBatchResponse> => {
      const done = new Set<string>();
      finished.set(event, done);
      let outOfTime = false;
      const handle = async (record: SQSRecord) => {
        try {
          await recordHandler(record);
          done.add(record.messageId);
        } catch (err) {
          if (noteIfOutOfTime(err)) outOfTime = true;
          throw err;
        }
      };
      try {
        // A processor per invocation: one answered at the deadline may still be running when the next starts.
        return await processPartialResponse(event, handle, new BatchProcessor(EventType.SQS), { context });
      } catch (err) {
        if (outOfTime && err instanceof FullBatchFailureError) return failedBut(event, done);
        throw err;
      }
    },
    { whenOutOfTime: (event) => failedBut(event, finished.get(event) ?? new Set()) },
  );
}
