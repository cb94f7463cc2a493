// shared/runtime/deadline.ts — the time an invocation has left, for the HBase client
// (HBaseClientOptions.deadline): every HBase call ends before the function's own timeout, so a
// request answers a clear 503 instead of being cut off by Lambda mid-write, and a worker reports
// its failed records instead of timing out the whole batch.
//
// The arithmetic, per function: deadline = start + the time Lambda gives (context
// .getRemainingTimeInMillis()) − RESERVE_MS, the margin to map an error and answer. Each attempt
// waits at most HBASE_TIMEOUT_MS (3 s) and never past the deadline; an idempotent call is retried
// at most twice, after 100–200 and 200–400 ms, and only if its backoff still leaves MIN_ATTEMPT_MS
// (transport.ts). So an API function (timeout 10 s) spends at most 9 s waiting on HBase, the
// worker (30 s) at most 29 s, a job at most its timeout − 1 s — whatever the number of calls.
// The deadline travels in the invocation's scope (invocation-scope.ts, opened by
// shared/observability/invocation.ts around every handler), so side-by-side invocations in one
// process keep theirs.
//
// The deadline is also when a handler still running is answered for (middy's early timeout,
// shared/observability/invocation.ts): at the deadline HBase refuses every further call, and
// the handler may be waiting on something else (the queue, object storage, a CPU-starved event
// loop). The whole RESERVE_MS then remains for that answer to leave before Lambda stops the
// function (whose own timeout reaches the client as API Gateway's opaque 500): a timer that a
// busy event loop runs late still has up to a second to fire and answer.
import { currentScope } from './invocation-scope.js';

/** Kept back from the function's timeout to answer after the last HBase call gave up. */
export const RESERVE_MS = 1_000;

/**
 * The invocation reached its deadline before its handler finished: what the handler did is
 * unknown (a write may have landed, or may still land). Thrown by middy's early timeout; the
 * HTTP edge answers it as 503 `timeout`, a worker reports its unfinished records as failed.
 */
export class OutOfTimeError extends Error {
  constructor(message = 'The invocation ran out of time before its handler finished') {
    super(message);
    this.name = 'OutOfTimeError';
  }
}

/** The Lambda context's clock, as far as this module needs it. */
export interface InvocationClock {
  getRemainingTimeInMillis?: () => number;
}

/** The deadline of an invocation that starts now (none when the context has no clock). */
export function deadlineOf(context: InvocationClock | undefined, now = Date.now()): number | undefined {
  const remaining = context?.getRemainingTimeInMillis?.();
  if (remaining === undefined || !Number.isFinite(remaining) || remaining <= 0) return undefined;
  return now + remaining - RESERVE_MS;
}

/** The deadline of the invocation this code runs in, if any. */
export function currentDeadline(): number | undefined {
  return currentScope()?.deadline;
}
