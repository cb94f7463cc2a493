// shared/observability/out-of-time.ts — an invocation that ran out of time: how it is recognised,
// and the ONE warning line and metric it leaves, whatever the function (an HTTP route, a queue
// worker, a job). Ran out of time means: middy answered for a handler still running at the
// deadline (OutOfTimeError), or an HBase call met the deadline (HBaseError `deadline`: refused
// before sending, or cut short by it). Either way what the invocation did is not known.
//
// The line's message is fixed, `Invocation ran out of time`, so a log search (and the load run's
// summary) counts overloaded invocations by it; InvocationTimeouts (metrics.ts) carries the
// alarm (infra/resources/alarms.yml).
import { performance } from 'node:perf_hooks';
import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { HBaseError } from '../hbase/hbase-error.js';
import { logger } from '../logging/logger.js';
import { OutOfTimeError } from '../runtime/deadline.js';
import { currentScope } from '../runtime/invocation-scope.js';
import { recordInvocationTimeout } from './metrics.js';

export const OUT_OF_TIME_MESSAGE = 'Invocation ran out of time';

/** True for an error that says the invocation's time ran out (so its outcome is unknown). */
export function ranOutOfTime(err: unknown): boolean {
  return err instanceof OutOfTimeError || (err instanceof HBaseError && err.deadline);
}

/**
 * For what catches errors itself (a queue record, a job step): notes that `err` ran out of time,
 * so the invocation reports it at its end. Returns whether it did.
 */
export function noteIfOutOfTime(err: unknown): boolean {
  if (!ranOutOfTime(err)) return false;
  const scope = currentScope();
  if (scope) scope.outOfTime.noted = true;
  return true;
}

/**
 * In every function's chain, inside logMetrics (used after it, so its `after`/`onError` run
 * before the flush): at the end of an invocation that ran out of time — its error says so, or a
 * part of it noted it — one WARN line and InvocationTimeouts + 1, never more per invocation.
 */
export const outOfTimeReport = (): middy.MiddlewareObj<unknown, unknown, Error, Context> => {
  const report = (request: middy.Request<unknown, unknown, Error, Context>) => {
    const scope = currentScope();
    if (!scope || scope.outOfTime.reported) return;
    scope.outOfTime.reported = true;
    const route = (request.event as { routeKey?: unknown } | undefined)?.routeKey;
    logger.warn(OUT_OF_TIME_MESSAGE, {
      function: request.context.functionName || 'unknown',
      ...(typeof route === 'string' ? { route } : {}),
      cause: request.error instanceof OutOfTimeError ? 'answered-at-deadline' : 'hbase-deadline',
      elapsedMs: Math.round(performance.now() - scope.startedAt),
      remainingMs: request.context.getRemainingTimeInMillis?.(),
    });
    recordInvocationTimeout(request.context.functionName);
  };
  return {
    after: (request) => {
      if (currentScope()?.outOfTime.noted) report(request);
    },
    onError: (request) => {
      if (ranOutOfTime(request.error) || currentScope()?.outOfTime.noted) report(request);
    },
  };
};
