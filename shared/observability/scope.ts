// shared/observability/scope.ts — what one invocation (an HTTP request, a queue batch, a job
// step) is doing, carried through its async calls by AsyncLocalStorage: its correlation id, a
// tally of the HBase requests it sent, and its deadline (shared/runtime/deadline.ts). The HBase transport's onRequest hook (composition.ts)
// feeds the tally of whichever invocation is current, so concurrent invocations in one process
// (serverless-offline, an in-process test) never mix their counts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { HBaseRequestEvent } from '../hbase/index.js';
import { busyMs, sequentialDepth, type Span } from './round-trips.js';
import type { HBaseCost } from './server-timing.js';

export class HBaseTally {
  readonly spans: Span[] = [];
  /** Answers that are failures, by status ('0' = no answer: network error or timeout). */
  readonly errors = new Map<string, number>();

  record(e: HBaseRequestEvent, end = performance.now()): void {
    this.spans.push({ start: end - e.durationMs, end });
    if (isFailure(e.status)) this.errors.set(String(e.status), (this.errors.get(String(e.status)) ?? 0) + 1);
  }

  cost(): HBaseCost {
    return { requests: this.spans.length, roundTrips: sequentialDepth(this.spans), hbaseMs: busyMs(this.spans) };
  }
}

/**
 * The statuses the client treats as answers are not failures: 404 is "no such row" and 304 a
 * check-and-mutate whose check did not hold. Everything else from 400 up, and no answer at all,
 * is something an operator should see.
 */
export function isFailure(status: number): boolean {
  return status === 0 || (status >= 400 && status !== 404);
}

export interface Scope {
  correlationId: string;
  /** performance.now() when the invocation began. */
  startedAt: number;
  /** Shared by an invocation and the child scopes of its records. */
  hbase: HBaseTally;
  /** Epoch millis every HBase call of this invocation must end by; undefined when none. */
  deadline?: number;
}

const storage = new AsyncLocalStorage<Scope>();

export function currentScope(): Scope | undefined {
  return storage.getStore();
}

/** Runs `fn` as a new invocation with its own tally (and deadline, if it has one). */
export function runInvocation<T>(correlationId: string, fn: () => T, deadline?: number): T {
  return storage.run({ correlationId, startedAt: performance.now(), hbase: new HBaseTally(), ...(deadline === undefined ? {} : { deadline }) }, fn);
}

/**
 * Runs `fn` under another correlation id inside the current invocation (a queue record that
 * carries the id of the request that queued it); HBase work still counts for the invocation.
 */
export function runWithCorrelationId<T>(correlationId: string, fn: () => T): T {
  const parent = storage.getStore();
  return storage.run(
    {
      correlationId,
      startedAt: parent?.startedAt ?? performance.now(),
      hbase: parent?.hbase ?? new HBaseTally(),
      ...(parent?.deadline === undefined ? {} : { deadline: parent.deadline }),
    },
    fn,
  );
}

/** The HBase transport's onRequest observer: charges the request to the current invocation. */
export function recordHBaseRequest(e: HBaseRequestEvent): void {
  storage.getStore()?.hbase.record(e);
}
