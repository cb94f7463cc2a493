// shared/runtime/invocation-scope.ts — the lowest floor: what one invocation (an HTTP request, a
// queue batch, a job step) carries through its async calls, by AsyncLocalStorage: its
// correlation id, the HBase requests it sent and its deadline. It imports nothing of ours, so
// the deadline (deadline.ts), the logger and observability all build on it, never on each other.
// The HBase transport's onRequest hook (wiring/hbase.ts → observability/hbase-requests.ts) adds to
// the list of whichever invocation is current, so concurrent invocations in one process
// (serverless-offline, an in-process test) never mix their counts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/** One HBase REST request as it happened, on the performance.now() clock. */
export interface SentRequest {
  start: number;
  end: number;
  /** The HTTP status of the answer; 0 when none came (network error or timeout). */
  status: number;
  /** Handed-off clean-up: nothing waited on it, so no later request follows from it. */
  background?: boolean;
}

export interface InvocationScope {
  correlationId: string;
  /** performance.now() when the invocation began. */
  startedAt: number;
  /** The HBase requests sent so far; one list shared by an invocation and its records' child scopes. */
  hbase: SentRequest[];
  /** Epoch millis every HBase call of this invocation must end by; undefined when none. */
  deadline?: number;
  /**
   * Clean-up handed off to run beside what follows (a scanner's delete): awaited before the
   * invocation answers (settleDeferred), so nothing outlives it, but off the request's path.
   */
  deferred: Promise<unknown>[];
  /**
   * Whether any part of the invocation ran out of time (a queue record or a job step that met
   * the deadline), and whether that has been reported: one object shared with its records' child
   * scopes, read at its end (shared/observability/out-of-time.ts).
   */
  outOfTime: { noted: boolean; reported: boolean };
}

const storage = new AsyncLocalStorage<InvocationScope>();

export function currentScope(): InvocationScope | undefined {
  return storage.getStore();
}

/** Runs `fn` as a new invocation with its own request list (and deadline, if it has one). */
export function runInvocation<T>(correlationId: string, fn: () => Promise<T>, deadline?: number): Promise<T> {
  const scope: InvocationScope = {
    correlationId,
    startedAt: performance.now(),
    hbase: [],
    deferred: [],
    outOfTime: { noted: false, reported: false },
    ...(deadline === undefined ? {} : { deadline }),
  };
  // Whatever was handed off and not yet awaited (a handler that answered early) ends before the
  // invocation does: a frozen Lambda must not carry it into the next one.
  return storage.run(scope, () => fn().finally(() => settleDeferred(scope)));
}

/**
 * Hands `work` to the current invocation, to be awaited before it answers; false outside an
 * invocation, where the caller awaits it in place.
 */
export function deferToInvocation(work: Promise<unknown>): boolean {
  const scope = storage.getStore();
  if (!scope) return false;
  scope.deferred.push(work);
  return true;
}

/** Awaits every hand-off of the invocation (those added meanwhile too); never rejects. */
export async function settleDeferred(scope: InvocationScope | undefined = storage.getStore()): Promise<void> {
  while (scope && scope.deferred.length > 0) await Promise.allSettled(scope.deferred.splice(0));
}

/**
 * Runs `fn` under another correlation id inside the current invocation (a queue record that
 * carries the id of the request that queued it); HBase work still counts for the invocation.
 */
export function runWithCorrelationId<T>(correlationId: string, fn: () => T): T {
  return storage.run(childScope(correlationId, storage.getStore()?.deadline), fn);
}

/**
 * Runs `fn` with no HBase call sent more than `budgetMs` from now (nor after the invocation's
 * own deadline): a part of a long invocation whose writes must land within a bound of its start
 * (a job's writes after the settles it queued, docs/consistency.md "Time").
 */
export function runWithinBudget<T>(budgetMs: number, fn: () => T): T {
  const parent = storage.getStore();
  const byBudget = Date.now() + budgetMs;
  const deadline = parent?.deadline === undefined ? byBudget : Math.min(parent.deadline, byBudget);
  return storage.run(childScope(parent?.correlationId ?? 'within-budget', deadline), fn);
}

/** A scope inside the current invocation: its request list and hand-offs are the invocation's. */
function childScope(correlationId: string, deadline: number | undefined): InvocationScope {
  const parent = storage.getStore();
  return {
    correlationId,
    startedAt: parent?.startedAt ?? performance.now(),
    hbase: parent?.hbase ?? [],
    deferred: parent?.deferred ?? [],
    outOfTime: parent?.outOfTime ?? { noted: false, reported: false },
    ...(deadline === undefined ? {} : { deadline }),
  };
}
