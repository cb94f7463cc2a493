// test/bench/feed/cluster-status.ts — the region servers' read-request counters, per table, from
// the REST gateway's GET /status/cluster (not wrapped by the product's client: only the
// benchmark needs it). The master's view is refreshed by each region server's load report
// (hbase.regionserver.msginterval, 3 s), so callers wait a few seconds around what they count.
//
// What readRequestsCount counts (checked on 2.6.1): rows a region RETURNED (gets, scan rows that
// passed the filter, the reads inside check-and-mutate / increment; plus each region scanner's
// last, empty `next`). Rows a filter rejected are counted in filteredReadRequestsCount, which
// /status/cluster does not expose: ExaminedProbe (below) reads it from the master.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

interface StatusJson {
  LiveNodes?: { Region?: { name: string; readRequestsCount?: number }[] }[];
}

/** Sum of readRequestsCount over every region, by table (`ns:table`). */
export async function readRequestsByTable(
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<Map<string, number>> {
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
export async function settledReadRequests(
  baseUrl: string,
  waitMs: number,
  headers: Record<string, string> = {},
): Promise<Map<string, number>> {
  await sleep(waitMs);
  return readRequestsByTable(baseUrl, headers);
}

/** after − before, summed over the tables `pick` accepts. */
export function readDelta(
  before: Map<string, number>,
  after: Map<string, number>,
  pick: (table: string) => boolean,
): number {
  let sum = 0;
  for (const [table, n] of after) if (pick(table)) sum += n - (before.get(table) ?? 0);
  return sum;
}

// ---------------------------------------------------------------- rows examined
//
// A filtered scan's rows EXAMINED = the rows it returned (readRequestsCount) + the rows its filter
// rejected (filteredReadRequestsCount). The master has both per region (each region server's load
// report, the source of /status/cluster too), but the REST gateway's StorageClusterStatusModel
// drops the filtered one, and this stack runs its info servers (the /jmx pages) off. So a small
// HBase Java client (./RegionReadCounters.java, run on the stack's own jars) asks the master for
// the region metrics; it stays up for the run and answers one snapshot per request.

/** Per table (`ns:table`): rows returned, rows a filter rejected, and the table's regions. */
export type ExaminedCounters = Map<string, { read: number; filtered: number; regions: number }>;

export interface ExaminedProbeOptions {
  /** Directory of the HBase jars (the local stack's `.local/hbase/lib`). */
  hbaseLib: string;
  /** ZooKeeper quorum host and client port of that HBase. */
  zkHost: string;
  zkPort: number;
  /** Give up starting after this long (JVM start + compile + connect, ~3 s here). */
  startTimeoutMs?: number;
}

export class ExaminedProbe {
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;
  private closed = false;
  private stderr = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (l) => {
      this.lines.push(l);
      this.waiter?.();
    });
    child.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    child.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
  }

  /** Starts the probe, or explains why it cannot run here. */
  static async start(opts: ExaminedProbeOptions): Promise<{ probe: ExaminedProbe } | { unavailable: string }> {
    if (!existsSync(opts.hbaseLib))
      return { unavailable: `no HBase jars at ${opts.hbaseLib} (set BENCH_HBASE_LIB to the HBase lib directory)` };
    const source = join(dirname(fileURLToPath(import.meta.url)), 'RegionReadCounters.java');
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn('java', ['-Xmx128m', '-cp', join(opts.hbaseLib, '*'), source, opts.zkHost, String(opts.zkPort)], {
        stdio: 'pipe',
      });
    } catch (err) {
      return { unavailable: `cannot start java: ${(err as Error).message}` };
    }
    const probe = new ExaminedProbe(child);
    const spawnError = new Promise<string>((resolve) => child.once('error', (e) => resolve(e.message)));
    const first = await Promise.race([
      probe.nextLine(opts.startTimeoutMs ?? 60_000),
      spawnError.then((m) => ({ error: `cannot start java: ${m}` })),
    ]);
    if (typeof first === 'string' && first === 'ready') return { probe };
    probe.close();
    const why = typeof first === 'string' ? `unexpected first line ${JSON.stringify(first)}` : first.error;
    return { unavailable: `${why}; stderr: ${probe.stderr.trim().split('\n').slice(-3).join(' | ')}` };
  }

  private async nextLine(timeoutMs: number): Promise<string | { error: string }> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (this.closed) return { error: 'the probe exited' };
      const left = deadline - Date.now();
      if (left <= 0) return { error: `no answer within ${timeoutMs} ms` };
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.waiter = undefined;
    }
    return this.lines.shift()!;
  }

  /** One snapshot of every table's counters, as the master holds them now. */
  async read(): Promise<ExaminedCounters> {
    this.child.stdin.write('read\n');
    const line = await this.nextLine(30_000);
    if (typeof line !== 'string')
      throw new Error(`rows-examined probe: ${line.error}; stderr: ${this.stderr.slice(-500)}`);
    const json = JSON.parse(line) as Record<string, [number, number, number]>;
    return new Map(Object.entries(json).map(([t, [read, filtered, regions]]) => [t, { read, filtered, regions }]));
  }

  /** Waits for a fresh load report (like settledReadRequests), then reads. */
  async settled(waitMs: number): Promise<ExaminedCounters> {
    await sleep(waitMs);
    return this.read();
  }

  close(): void {
    if (this.closed) return;
    this.child.stdin.end();
    // It exits when stdin closes; a stuck JVM is ended by its own pid.
    const t = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    t.unref();
  }
}

/**
 * after − before of read and filtered, summed over the tables `pick` accepts. `regionsChanged`:
 * a table's region count moved in between (a split or merge resets counters: the delta is void).
 */
export function examinedDelta(
  before: ExaminedCounters,
  after: ExaminedCounters,
  pick: (table: string) => boolean,
): { read: number; filtered: number; examined: number; regions: number; regionsChanged: boolean } {
  let read = 0;
  let filtered = 0;
  let regions = 0;
  let regionsChanged = false;
  for (const [table, c] of after) {
    if (!pick(table)) continue;
    const b = before.get(table) ?? { read: 0, filtered: 0, regions: 0 };
    read += c.read - b.read;
    filtered += c.filtered - b.filtered;
    regions += c.regions;
    if (b.regions !== c.regions) regionsChanged = true;
  }
  return { read, filtered, examined: read + filtered, regions, regionsChanged };
}
