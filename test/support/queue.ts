// test/support/queue.ts — "nothing more will happen": waits until the run's fan-out queue is
// drained. Messages are deleted only after the worker finished them, so visible, in flight
// (not visible) and delayed (settle messages) all at zero, twice in a row, means no queued
// work is left to change what a test is about to assert did NOT happen. Fails loudly when the
// queue does not drain in time, instead of asserting on a state that is still moving.
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

const COUNTS = ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'] as const;
type QueueCounts = Record<(typeof COUNTS)[number], number>;

export async function queueCounts(sqs: SQSClient, queueUrl: string): Promise<QueueCounts> {
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: [...COUNTS] }));
  return Object.fromEntries(COUNTS.map((name) => [name, Number(Attributes?.[name] ?? 0)])) as QueueCounts;
}

export async function queueDrained(sqs: SQSClient, queueUrl: string, timeoutMs = 120_000, intervalMs = 500): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let quietReads = 0; ; await new Promise((r) => setTimeout(r, intervalMs))) {
    const counts = await queueCounts(sqs, queueUrl);
    quietReads = Object.values(counts).every((n) => n === 0) ? quietReads + 1 : 0;
    if (quietReads === 2) return;
    if (Date.now() > deadline) throw new Error(`the fan-out queue did not drain within ${timeoutMs / 1000} s: ${JSON.stringify(counts)} (${queueUrl})`);
  }
}
