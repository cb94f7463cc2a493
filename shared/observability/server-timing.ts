// shared/observability/server-timing.ts — the `Server-Timing` response header (W3C Server
// Timing) that tells a caller what HBase work its request cost, e.g.
//   hbase;desc="4 requests, 2 round trips";dur=12.3, app;dur=30.1
// `hbase`: the REST requests this request sent (retries included), their round trips
// (round-trips.ts) and the wall-clock time spent waiting on them; `app`: the whole invocation,
// HBase included.

export interface HBaseCost {
  requests: number;
  roundTrips: number;
  /** Wall-clock ms with an HBase request in flight. */
  hbaseMs: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** One decimal: finer than the clocks involved are worth, coarse enough to read. */
const ms = (v: number) => String(Math.round(Math.max(0, v) * 10) / 10);

export function serverTiming(cost: HBaseCost, appMs: number): string {
  const desc = `${plural(cost.requests, 'request', 'requests')}, ${plural(cost.roundTrips, 'round trip', 'round trips')}`;
  return `hbase;desc="${desc}";dur=${ms(cost.hbaseMs)}, app;dur=${ms(appMs)}`;
}
