// test/bench/feed/cluster-status.ts — the region servers' read-request counters, per table, from
// the REST gateway's GET /status/cluster (not wrapped by the product's client: only the
// benchmark needs it). The master's view is refreshed by each region server's load report
// (hbase.regionserver.msginterval, 3 s), so callers wait a few seconds around what they count.
//
// What readRequestsCount counts (checked on 2.6.1): rows a region RETURNED (gets, scan rows that
// passed the filter, the reads inside check-and-mutate / increment). Rows a filter rejected are
// counted in filteredReadRequestsCount, which /status/cluster does not expose.
import { setTimeout as sleep } from 'node:timers/promises';

interface StatusJson {
  LiveNodes?: { Region?: { name: string; readRequestsCount?: number }[] }[];
}

/** Sum of readRequestsCount over every region, by table (`ns:table`). */
export async function readRequestsByTable(baseUrl: string, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/status/cluster`, {
    headers: { ...headers, Accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 200) throw new Error(`GET /status/cluster answered ${res.status}`);
  const json = (await res.json()) as StatusJson;
  const out = new Map<string, number>();
  for (const node of json.LiveNodes ?? []) {
    for (const region of node.Region ?? []) {
      // Region names are base64 of "<ns>:<table>,<start key>,<id>.<encoded>."; table names never hold a comma.
      const name = Buffer.from(region.name, 'base64').toString('latin1');
      const table = name.slice(0, name.indexOf(','));
      out.set(table, (out.get(table) ?? 0) + (region.readRequestsCount ?? 0));
    }
  }
  return out;
}

/** Waits for a fresh load report, then reads the counters. */
export async function settledReadRequests(baseUrl: string, waitMs: number, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  await sleep(waitMs);
  return readRequestsByTable(baseUrl, headers);
}

/** after − before, summed over the tables `pick` accepts. */
export function readDelta(before: Map<string, number>, after: Map<string, number>, pick: (table: string) => boolean): number {
  let sum = 0;
  for (const [table, n] of after) if (pick(table)) sum += n - (before.get(table) ?? 0);
  return sum;
}
