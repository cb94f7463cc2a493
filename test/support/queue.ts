// test/support/queue.ts — "nothing more will happen", two ways. `handledFor` waits for the
// fan-out messages of YOUR requests: a test sends its requests with an `x-correlation-id` of its
// own, every message they queue carries it (and so do the messages those queue in turn), and the
// worker logs "fan-out message handled" with it once a message is done (functions/queue/
// fan-out.ts). That is a condition of the test's own work, true whatever else shares the queue.
// `queueDrained` waits for the whole run's queue to be empty: only for files of the serial e2e
// project (vitest.config.ts), which run alone, so that everything queued is theirs.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { eventually } from './eventually.js';

const COUNTS = [
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
] as const;
type QueueCounts = Record<(typeof COUNTS)[number], number>;

export async function queueCounts(sqs: SQSClient, queueUrl: string): Promise<QueueCounts> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: [...COUNTS] }),
  );
  return Object.fromEntries(COUNTS.map((name) => [name, Number(Attributes?.[name] ?? 0)])) as QueueCounts;
}

/**
 * The whole queue drained: visible, in flight (not visible) and delayed (settle messages) all at
 * zero, twice in a row. Messages are deleted only after the worker finished them. Only for files
 * that run alone (the serial e2e project): in a parallel run other files' work keeps it busy.
 */
export async function queueDrained(
  sqs: SQSClient,
  queueUrl: string,
  timeoutMs = 120_000,
  intervalMs = 500,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let quietReads = 0; ; await new Promise((r) => setTimeout(r, intervalMs))) {
    const counts = await queueCounts(sqs, queueUrl);
    quietReads = Object.values(counts).every((n) => n === 0) ? quietReads + 1 : 0;
    if (quietReads === 2) return;
    if (Date.now() > deadline)
      throw new Error(
        `the fan-out queue did not drain within ${timeoutMs / 1000} s: ${JSON.stringify(counts)} (${queueUrl})`,
      );
  }
}

/** A correlation id of a test's own, to send as `x-correlation-id` (the header's format). */
export function newCorrelationId(label: string): string {
  return `t-${label.replace(/[^A-Za-z0-9._-]/g, '')}-${randomBytes(6).toString('hex')}`;
}

/** The types of the fan-out messages the worker has handled under `correlationId`, in log order. */
export function handledTypes(logFile: string, correlationId: string): string[] {
  const types: string[] = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"fan-out message handled"') || !line.includes(correlationId)) continue;
    let entry: { correlation_id?: string; type?: string };
    try {
      entry = JSON.parse(line.slice(line.indexOf('{'))) as typeof entry;
    } catch {
      continue; // the last line, still being written
    }
    if (entry.correlation_id === correlationId && entry.type) types.push(entry.type);
  }
  return types;
}

/**
 * Waits until the worker has handled at least `expected[type]` messages of each type under
 * `correlationId` (a delayed settle or notify included: it is handled when it has run), and
 * returns what it handled. Fails loudly on timeout, with what it did see.
 */
export async function handledFor(
  logFile: string,
  correlationId: string,
  expected: Record<string, number>,
  timeoutMs = 60_000,
): Promise<string[]> {
  return eventually(() => {
    const types = handledTypes(logFile, correlationId);
    const count = (t: string) => types.filter((x) => x === t).length;
    if (Object.entries(expected).every(([t, n]) => count(t) >= n)) return types;
    throw new Error(
      `the worker did not handle ${JSON.stringify(expected)} under ${correlationId} within ${timeoutMs / 1000} s; handled: ${JSON.stringify(types)}`,
    );
  }, timeoutMs);
}
