// test/bench/regions/node-requests.ts — per-RegionServer request counters of chosen tables, from
// the REST gateway's GET /status/cluster: each live node lists its regions with their cumulative
// readRequestsCount and writeRequestsCount (a batch put of 1000 rows counts 1000 writes, spread
// over the regions its rows fall in; a get counts one read in the region of its row). The master
// refreshes them from each RegionServer's load report (hbase.regionserver.msginterval, 3 s), so a
// snapshot is taken after a wait (see cluster-status.ts).
import { setTimeout as sleep } from 'node:timers/promises';

interface StatusJson {
  LiveNodes?: { name: string; Region?: { name: string; readRequestsCount?: number; writeRequestsCount?: number }[] }[];
}

export interface RegionCounters {
  /** `ns:table` */
  table: string;
  /** Start key, hex ('' = the first region). */
  startKey: string;
  node: string;
  read: number;
  write: number;
}

/** Every region of the cluster with its node and counters, keyed by the region name. */
export type NodeSnapshot = Map<string, RegionCounters>;

export async function nodeSnapshot(baseUrl: string, headers: Record<string, string> = {}): Promise<NodeSnapshot> {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/status/cluster`, {
    headers: { ...headers, Accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 200) throw new Error(`GET /status/cluster answered ${res.status}`);
  const json = (await res.json()) as StatusJson;
  const out: NodeSnapshot = new Map();
  for (const node of json.LiveNodes ?? []) {
    for (const region of node.Region ?? []) {
      // "<ns>:<table>,<start key>,<id>.<encoded>." — the start key is binary and may hold commas,
      // so it is what lies between the first comma and the last ",<id>.".
      const raw = Buffer.from(region.name, 'base64');
      const first = raw.indexOf(0x2c);
      const last = raw.lastIndexOf(0x2c);
      out.set(region.name, {
        table: raw.subarray(0, first).toString('latin1'),
        startKey: raw.subarray(first + 1, last).toString('hex'),
        node: node.name,
        read: region.readRequestsCount ?? 0,
        write: region.writeRequestsCount ?? 0,
      });
    }
  }
  return out;
}

export async function settledNodeSnapshot(
  baseUrl: string,
  waitMs: number,
  headers: Record<string, string> = {},
): Promise<NodeSnapshot> {
  await sleep(waitMs);
  return nodeSnapshot(baseUrl, headers);
}

export async function liveNodes(baseUrl: string, headers: Record<string, string> = {}): Promise<string[]> {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/status/cluster`, {
    headers: { ...headers, Accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 200) throw new Error(`GET /status/cluster answered ${res.status}`);
  return ((await res.json()) as StatusJson).LiveNodes?.map((n) => n.name).sort() ?? [];
}

export interface NodeLoad {
  /** Requests (reads + writes) per live node over the phase, every node listed (0 when idle). */
  perNode: Record<string, number>;
  /** Per region of the tables: start key, node, requests. */
  perRegion: { table: string; startKey: string; node: string; requests: number }[];
  total: number;
  max: number;
  mean: number;
  /** max / mean over the live nodes: 1 = perfectly even. */
  maxOverMean: number;
}

/** after − before, reads + writes, of the regions of `tables`, summed per node. */
export function nodeLoad(before: NodeSnapshot, after: NodeSnapshot, tables: string[], nodes: string[]): NodeLoad {
  const perNode: Record<string, number> = Object.fromEntries(nodes.map((n) => [n, 0]));
  const perRegion: NodeLoad['perRegion'] = [];
  for (const [name, r] of after) {
    if (!tables.includes(r.table)) continue;
    const b = before.get(name);
    const requests = r.read + r.write - (b ? b.read + b.write : 0);
    perNode[r.node] = (perNode[r.node] ?? 0) + requests;
    perRegion.push({ table: r.table, startKey: r.startKey, node: r.node, requests });
  }
  perRegion.sort((a, b) =>
    a.table === b.table ? a.startKey.localeCompare(b.startKey) : a.table.localeCompare(b.table),
  );
  const values = Object.values(perNode);
  const total = values.reduce((a, b) => a + b, 0);
  const max = Math.max(...values);
  const mean = total / Math.max(1, values.length);
  return {
    perNode,
    perRegion,
    total,
    max,
    mean: Math.round(mean * 10) / 10,
    maxOverMean: mean > 0 ? Math.round((max / mean) * 1000) / 1000 : Number.NaN,
  };
}
