// shared/use-cases/jobs/dead-letter-report.ts — what sits in the fan-out dead-letter queue, as
// ONE structured log line (and the handler's return value), hourly.
//
// Steps: read the queue's approximate counts; peek up to 10 messages (received with a short
// visibility timeout, never deleted: redriving is the operator's call, after the cause is
// fixed); count them by message `type` ('unparseable' for a body that is not a JSON object
// with a plain type name); note the oldest sent time among them. SQS returns a sample, not the
// oldest messages, so `oldestSentAt` is the oldest of the sample; the queue's alarm
// (infra/resources/queue.yml) watches the total.
import * as z from 'zod';
import type { DeadLetterQueue } from '../../ports/dead-letter-queue.js';
import type { JobDefinition, JobLog } from './job-runner.js';

export const PEEK_MAX = 10;

export interface DeadLetterReport {
  queue: string;
  /** ApproximateNumberOfMessages: waiting to be looked at. */
  approximateMessages: number;
  /** ApproximateNumberOfMessagesNotVisible: being received right now (e.g. by another peek). */
  approximateInFlight: number;
  peeked: number;
  byType: Record<string, number>;
  oldestSentAt: string | null;
  oldestAgeSeconds: number | null;
}

/** The message's `type` when it is a short plain name; anything else is 'unparseable'. */
export function messageType(body: string): string {
  try {
    const type = (JSON.parse(body) as { type?: unknown } | null)?.type;
    return typeof type === 'string' && /^[A-Za-z0-9_-]{1,32}$/.test(type) ? type : 'unparseable';
  } catch {
    return 'unparseable';
  }
}

export async function deadLetterReport(
  dlq: DeadLetterQueue,
  log: JobLog,
  now: () => number = Date.now,
): Promise<DeadLetterReport> {
  // Counts first: a peek makes the peeked messages invisible for a moment, and counted after
  // (or alongside) it they would vanish from `visible` — the report would call a full DLQ empty.
  const counts = await dlq.counts();
  const peeked = await dlq.peek(PEEK_MAX);
  const byType: Record<string, number> = {};
  let oldest: number | null = null;
  for (const m of peeked) {
    const type = messageType(m.body);
    byType[type] = (byType[type] ?? 0) + 1;
    if (m.sentAt !== null && (oldest === null || m.sentAt < oldest)) oldest = m.sentAt;
  }
  const report: DeadLetterReport = {
    queue: dlq.name,
    approximateMessages: counts.visible,
    approximateInFlight: counts.inFlight,
    peeked: peeked.length,
    byType,
    oldestSentAt: oldest === null ? null : new Date(oldest).toISOString(),
    oldestAgeSeconds: oldest === null ? null : Math.max(0, Math.round((now() - oldest) / 1000)),
  };
  const empty = counts.visible === 0 && counts.inFlight === 0 && peeked.length === 0;
  (empty ? log.info : log.warn).call(log, 'dead-letter report', { report });
  return report;
}

/** `onReport`: hands each report on (the handler turns it into the DLQ depth metric). */
export function deadLetterReportJob(
  dlq: DeadLetterQueue,
  log: JobLog,
  onReport?: (report: DeadLetterReport) => void,
): JobDefinition<Record<string, never>> {
  return {
    name: 'dead-letter-report',
    carry: z.strictObject({}) as z.ZodType<Record<string, never>>,
    maxRunMs: 5 * 60_000,
    // One step: a report has no rows to continue from.
    step: async () => {
      const report = await deadLetterReport(dlq, log);
      onReport?.(report);
      return {
        done: true,
        stats: { seen: report.peeked, fixed: 0, approximateMessages: report.approximateMessages },
        detail: report,
      };
    },
  };
}
