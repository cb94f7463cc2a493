// shared/observability/metrics.ts — the CloudWatch metrics (Embedded Metric Format, one JSON
// line per flush on stdout; locally that line is just printed) an operator watches. Namespace
// "Weibo"; every metric has the dimensions `service` and `function` (the Lambda function name);
// HBaseErrors adds `status`. Flushed once per invocation (logMetrics in invocation.ts).
//
//   HBaseRequests      Count         per invocation: HBase REST requests sent (retries included)
//   HBaseErrors        Count         per invocation and status: failed answers ('0' = none came)
//   FanoutLag          Milliseconds  per fanout message: the post's publish time → its inbox cells written
//   InboxCellsWritten  Count         per queue message: post entries written into inboxes
//   DeadLetterMessages Count         per dead-letter report: messages in the fan-out DLQ (visible + in flight)
//   InvocationTimeouts Count         per invocation that ran out of time (out-of-time.ts), by function
//                                    and, for the alarm (infra/resources/alarms.yml), in total: `service` alone
import type middy from '@middy/core';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { POST_ID_PATTERN } from '../domain/post.js';
import { currentScope } from '../runtime/invocation-scope.js';
import { hbaseFailures } from './hbase-requests.js';

export const METRICS_NAMESPACE = 'Weibo';

/** The `service` dimension of every metric (what the alarms name). */
export const METRICS_SERVICE = 'weibo-serverless';

export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

/**
 * Runs inside logMetrics (used after it, so its `after`/`onError` run before the flush): names
 * the function and adds this invocation's HBase request count and failures.
 */
export const hbaseMetrics = (): middy.MiddlewareObj<unknown, unknown, Error, Context> => {
  const add = (request: middy.Request<unknown, unknown, Error, Context>) => {
    const requests = currentScope()?.hbase;
    if (!requests) return;
    metrics.addMetric('HBaseRequests', MetricUnit.Count, requests.length);
    for (const [status, count] of hbaseFailures(requests)) {
      // A metric of its own: `status` must not become a dimension of the others.
      const single = metrics.singleMetric();
      single.addDimension('function', request.context.functionName || 'unknown');
      single.addDimension('status', status);
      single.addMetric('HBaseErrors', MetricUnit.Count, count);
    }
  };
  return {
    before: (request) => {
      metrics.addDimension('function', request.context.functionName || 'unknown');
    },
    after: add,
    onError: add,
  };
};

/**
 * A handled queue message: the inbox cells it wrote and, for a delivered post, the lag since it
 * was published. The message and the worker's outcome are typed by the fields read here, so
 * observability names nothing of the ports or use cases above it.
 */
export function recordFanout(
  message: { type: string; postId?: string },
  outcome: { inboxCells: number; skipped?: string },
  now = Date.now(),
): void {
  metrics.addMetric('InboxCellsWritten', MetricUnit.Count, outcome.inboxCells);
  if (message.type !== 'fanout' || outcome.skipped || message.postId === undefined) return;
  // The post id carries its publish time (shared/domain/post.ts): `<author>.<millis>.<hex>`.
  const published = Number(POST_ID_PATTERN.exec(message.postId)?.[2]);
  if (Number.isSafeInteger(published))
    metrics.addMetric('FanoutLag', MetricUnit.Milliseconds, Math.max(0, now - published));
}

/** The dead-letter report's counts (shared/use-cases/jobs/dead-letter-report.ts). */
export function recordDeadLetterDepth(report: { approximateMessages: number; approximateInFlight: number }): void {
  metrics.addMetric('DeadLetterMessages', MetricUnit.Count, report.approximateMessages + report.approximateInFlight);
}

/**
 * One invocation ran out of time: a metric of its own, printed at once, in two dimension sets —
 * per function, and `service` alone (the total one alarm watches, whichever function it was).
 */
export function recordInvocationTimeout(functionName: string): void {
  const single = metrics.singleMetric();
  single.addDimensions({ function: functionName || 'unknown' });
  single.addDimensions({});
  single.addMetric('InvocationTimeouts', MetricUnit.Count, 1);
}
