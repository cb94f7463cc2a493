// shared/observability/invocation.ts — what every function's handler is wrapped in, HTTP routes
// (shared/http/http-handler.ts), the fan-out worker and the scheduled jobs alike:
//   - an invocation scope (shared/runtime/invocation-scope.ts) around the whole middy chain: its
//     correlation id, its HBase requests and its deadline (shared/runtime/deadline.ts);
//   - middy's early timeout at that deadline (answeredAtDeadline): a handler still running then
//     is answered for with OutOfTimeError while there is time left to answer, instead of being
//     stopped by Lambda;
//   - Powertools injectLambdaContext with resetKeys: the Lambda context on every log line, and
//     no key appended during one invocation survives into the next;
//   - Powertools logMetrics: the metrics of the invocation flushed once, at its end, success or
//     failure, with its HBase requests and failures added just before (hbaseMetrics), and an
//     invocation that ran out of time reported once (out-of-time.ts).
import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { Context } from 'aws-lambda';
import { logger } from '../logging/logger.js';
import { hbaseMetrics, metrics } from './metrics.js';
import { outOfTimeReport, ranOutOfTime } from './out-of-time.js';
import { OutOfTimeError, RESERVE_MS, deadlineOf } from '../runtime/deadline.js';
import { runInvocation } from '../runtime/invocation-scope.js';

/**
 * middy's plugin options for every chain: its early timeout fires at the invocation's deadline
 * (RESERVE_MS before Lambda's own timeout, the moment HBase stops sending) and throws
 * OutOfTimeError into the chain's onError, which answers it (the HTTP edge: 503 `timeout`).
 */
export const answeredAtDeadline = {
  timeoutEarlyInMillis: RESERVE_MS,
  timeoutEarlyResponse: (): never => {
    throw new OutOfTimeError();
  },
};

/** The middlewares, in this order, at the head of every function's middy chain. */
export function invocationMiddlewares(): middy.MiddlewareObj<unknown, unknown, Error, Context>[] {
  return [injectLambdaContext(logger, { resetKeys: true }), logMetrics(metrics), hbaseMetrics(), outOfTimeReport()];
}

/**
 * How long an invocation may send HBase calls, beyond its function's timeout: `budgetMs` returns
 * the operation budget (shared/runtime/deadline.ts) for the invocations the consistency arguments
 * bound in time — HTTP requests and the fan-out worker; none for the media worker and the jobs.
 */
export interface InvocationOptions {
  budgetMs?: () => number;
}

/** Runs each call of `handler` as an invocation of its own, under the correlation id `correlationIdOf` picks. */
export function inInvocation<E, C extends Context, R>(
  correlationIdOf: (event: E, context: C) => string,
  handler: (event: E, context: C) => Promise<R>,
  opts: InvocationOptions = {},
): (event: E, context: C) => Promise<R> {
  return (event, context) =>
    runInvocation(
      correlationIdOf(event, context),
      () => handler(event, context),
      deadlineOf(context, Date.now(), opts.budgetMs?.()),
    );
}

export interface ObservedOptions<E, R> extends InvocationOptions {
  /**
   * The answer of an invocation that ran out of time (its handler still running at the deadline,
   * or failing on it): a worker's records not finished are reported as failed, a job says it
   * stopped. Without it such an invocation fails.
   */
  whenOutOfTime?: (event: E) => R;
}

/** A non-HTTP handler (queue, schedule), fully instrumented; its correlation id is the invocation's request id. */
export function observedHandler<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
  options: ObservedOptions<E, R> = {},
): (event: E, context: Context) => Promise<R> {
  const chain = middy<E, R, Error, Context>(answeredAtDeadline).use(invocationMiddlewares());
  const { whenOutOfTime } = options;
  // Used last: its onError runs first, and answers before the report and the metrics' flush.
  if (whenOutOfTime) {
    chain.use({
      onError: (request) => {
        if (ranOutOfTime(request.error)) request.response = whenOutOfTime(request.event);
      },
    });
  }
  return inInvocation(
    (_event, context: Context) => context.awsRequestId || randomUUID(),
    chain.handler(handler),
    options,
  );
}
