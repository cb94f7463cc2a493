// shared/runtime/deadline.ts — the time an invocation may spend sending HBase calls, for the HBase
// client (HBaseClientOptions.deadline). Two bounds, the earlier wins:
//
// 1. The function's own timeout: deadline = start + the time Lambda gives
//    (context.getRemainingTimeInMillis()) − RESERVE_MS, the margin to map an error and answer. Each
//    attempt waits at most HBASE_TIMEOUT_MS (3 s) and never past the deadline; an idempotent call is
//    retried at most twice, after 100–200 and 200–400 ms, and only if its backoff still leaves
//    MIN_ATTEMPT_MS (transport.ts). So a request answers a clear 503 instead of being cut off by
//    Lambda mid-write, and a worker reports its failed records instead of timing out the batch.
//
// 2. The operation budget B (`budgetMs`), for the invocations whose writes the consistency
//    arguments bound in time — every HTTP request and the fan-out worker
//    (docs/consistency.md, "Time"): B = (W − LANDING_MS − CLOCK_SKEW_MS) / 2 for the
//    settle window W. The transport sends nothing once the deadline has passed: it checks before
//    each attempt and again at the moment the request would be written to the socket. So an
//    invocation that answered early (middy's timeout response) or was frozen by Lambda and thawed
//    minutes later finds its deadline passed and writes nothing more; every write it made was sent
//    within B of its start, and lands within LANDING_MS after that.
//
// The deadline travels in the invocation's scope (invocation-scope.ts, opened by
// shared/observability/invocation.ts around every handler), so side-by-side invocations in one
// process keep theirs, and work still running from an earlier invocation keeps its own.
//
// The function-timeout bound is also when a handler still running is answered for (middy's early
// timeout, shared/observability/invocation.ts): by then HBase refuses every further call, and
// the handler may be waiting on something else (the queue, object storage, a CPU-starved event
// loop). The whole RESERVE_MS then remains for that answer to leave before Lambda stops the
// function (whose own timeout reaches the client as API Gateway's opaque 500): a timer that a
// busy event loop runs late still has up to a second to fire and answer.
import { currentScope } from './invocation-scope.js';

/** Kept back from the function's timeout to answer after the last HBase call gave up. */
export const RESERVE_MS = 1_000;

/**
 * How long a call the gateway has received may take to be applied in HBase: its queue and its
 * own HBase client's retries. An assumption about the gateway, not enforced here: an operator
 * keeps the gateway within it (docs/consistency.md "Time").
 */
export const LANDING_MS = 3_000;

/** The clocks of the functions and of the region servers (cell timestamps) agree within this. */
export const CLOCK_SKEW_MS = 500;

/**
 * B for settle window W: the longest a budgeted invocation sends HBase calls after it began.
 * Every time argument needs W ≥ B + LANDING_MS + CLOCK_SKEW_MS (an operation's last write has
 * landed when a message delayed by W from its start runs); the tally's needs W ≥ 2B + LANDING_MS
 * + CLOCK_SKEW_MS (invariant M), the stricter one.
 */
export function operationBudgetMs(settleMs: number): number {
  return Math.max(0, Math.floor((settleMs - LANDING_MS - CLOCK_SKEW_MS) / 2));
}

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

/**
 * The deadline of an invocation that starts now: the function's timeout less the reserve, and
 * no later than `budgetMs` from now when it has a budget; none when it has neither.
 */
export function deadlineOf(
  context: InvocationClock | undefined,
  now = Date.now(),
  budgetMs?: number,
): number | undefined {
  const remaining = context?.getRemainingTimeInMillis?.();
  const byTimeout =
    remaining === undefined || !Number.isFinite(remaining) || remaining <= 0 ? undefined : now + remaining - RESERVE_MS;
  const byBudget = budgetMs === undefined ? undefined : now + budgetMs;
  if (byTimeout === undefined) return byBudget;
  return byBudget === undefined ? byTimeout : Math.min(byTimeout, byBudget);
}

/** The deadline of the invocation this code runs in, if any. */
export function currentDeadline(): number | undefined {
  return currentScope()?.deadline;
}
