// test/support/queue.ts — "nothing more will happen": waits until the run's fan-out queue is
// drained. Messages are deleted only after the worker finished them, so visible, in flight
// (not visible) and delayed (settle messages) all at zero, twice in a row, means no queued
// work is left to change what a test is about to assert did NOT happen. Fails loudly when the
// queue does not drain in time, instead of asserting on a state that is still moving.
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

const COUNTS = ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'] as const;

export async function queueDrained(sqs: SQSClient, queueUrl: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietReads = 0;
  let last = '';
  while (quietReads < 2) {
    const res = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: [...COUNTS] }));
    const counts = COUNTS.map((k) => Number(res.Attributes?.[k] ?? 0));
    last = COUNTS.map((k, i) => `${k}=${counts[i]}`).join(' ');
    quietReads = counts.every((c) => c === 0) ? quietReads + 1 : 0;
    if (quietReads < 2) {
      if (Date.now() > deadline) throw new Error(`fan-out queue not drained after ${timeoutMs} ms (${last})`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
