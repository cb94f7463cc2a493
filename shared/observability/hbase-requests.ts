// shared/observability/hbase-requests.ts — what the HBase requests of an invocation tell an
// operator: each request is charged to the invocation that sent it (the transport's onRequest
// hook, wired in wiring/hbase.ts), and read back as a cost (Server-Timing) and as failures by
// status (the HBaseErrors metric). The list itself lives in the invocation scope
// (shared/runtime/invocation-scope.ts); this module only writes to it and interprets it.
import { performance } from 'node:perf_hooks';
import type { HBaseRequestEvent } from '../hbase/index.js';
import { currentScope, type SentRequest } from '../runtime/invocation-scope.js';
import { busyMs, sequentialDepth } from './round-trips.js';
import type { HBaseCost } from './server-timing.js';

/**
 * The statuses the client treats as answers are not failures: 404 is "no such row" and 304 a
 * check-and-mutate whose check did not hold. Everything else from 400 up, and no answer at all,
 * is something an operator should see.
 */
export function isFailure(status: number): boolean {
  return status === 0 || (status >= 400 && status !== 404);
}

/** The HBase transport's onRequest observer: charges the request to the current invocation. */
export function recordHBaseRequest(e: HBaseRequestEvent): void {
  const end = performance.now();
  currentScope()?.hbase.push({
    start: end - e.durationMs,
    end,
    status: e.status,
    ...(e.background ? { background: true } : {}),
  });
}

export function hbaseCost(requests: readonly SentRequest[]): HBaseCost {
  return { requests: requests.length, roundTrips: sequentialDepth(requests), hbaseMs: busyMs(requests) };
}

/** Failed answers by status ('0' = no answer). */
export function hbaseFailures(requests: readonly SentRequest[]): Map<string, number> {
  const failures = new Map<string, number>();
  for (const { status } of requests)
    if (isFailure(status)) failures.set(String(status), (failures.get(String(status)) ?? 0) + 1);
  return failures;
}
