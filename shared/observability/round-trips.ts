// shared/observability/round-trips.ts — how much HBase work an operation cost, from the spans of
// the REST requests it sent. The ONE definition of "round trips" that the Server-Timing header,
// the integration tests' measured-depth assertions and the bench all use.

/** One HBase REST request, on the performance.now() clock. */
export interface Span {
  start: number;
  end: number;
  /** Handed-off clean-up (a scanner's delete): counted, but nothing waited on it. */
  background?: boolean;
}

/**
 * Round trips: the longest chain of requests each of which started after the previous one
 * ended. Requests in flight together (Promise.all) share a round trip; a request sent after
 * another answered adds one. A background request ends a chain but never links one: a request
 * that starts after it ended did not wait for it.
 */
export function sequentialDepth(spans: readonly Span[]): number {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  let max = 0;
  for (let i = 0; i < sorted.length; i++) {
    let d = 1;
    for (let j = 0; j < i; j++)
      if (!sorted[j]!.background && sorted[j]!.end <= sorted[i]!.start) d = Math.max(d, depth[j]! + 1);
    depth.push(d);
    max = Math.max(max, d);
  }
  return max;
}

/**
 * Wall-clock time with at least one request in flight: what the caller waited on HBase.
 * Overlapping requests count once (their sum would exceed the time that actually passed).
 */
export function busyMs(spans: readonly Span[]): number {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const s of sorted) {
    if (s.start > to) {
      if (to > from) total += to - from;
      from = s.start;
      to = s.end;
    } else if (s.end > to) {
      to = s.end;
    }
  }
  if (to > from) total += to - from;
  return total;
}
