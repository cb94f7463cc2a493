// test/bench/floor.ts — the raw HBase REST floor, as importable measurements: one row-get round
// trip, a multi-get of 20 rows, and batch-put throughput at 1 / 100 / 1000 cells per request.
// Used by `npm run bench:hbase` (hbase-floor.bench.ts) and by `npm run bench` (feed.bench.ts),
// which express every product target as a ratio of a floor measured in the same run.
import { performance } from 'node:perf_hooks';
import type { HBaseRestClient, RowInput } from '../../shared/hbase/index.js';
import { printTable, summarize, timeRepeated, type LatencySummary } from './stats.js';

/** About the size of an inbox cell + a short post reference. */
export const FLOOR_VALUE = 'x'.repeat(64);
const FLOOR_ROWS = 1000;

export interface BatchPutResult {
  batchSize: number;
  cellsPerSec: number;
  requests: number;
  perRequest: LatencySummary;
}

export interface FloorResult {
  rowGet: LatencySummary;
  multiGet20: LatencySummary;
  batchPut: BatchPutResult[];
}

export const floorKey = (prefix: string, i: number) => `${prefix}-${String(i).padStart(8, '0')}`;

/** Creates `table` (family f) and writes the 1000 rows the get / multi-get measurements read. */
export async function prepareFloorTable(client: HBaseRestClient, table: string): Promise<void> {
  await client.createTable(table, { columnFamilies: [{ name: 'f', VERSIONS: 1, BLOOMFILTER: 'ROW' }] });
  const rows: RowInput[] = Array.from({ length: FLOOR_ROWS }, (_, i) => ({
    key: floorKey('r', i),
    cells: [{ column: 'f:v', value: FLOOR_VALUE }],
  }));
  await client.put(table, rows);
}

export async function measureRowGet(client: HBaseRestClient, table: string, reps: number): Promise<LatencySummary> {
  return summarize(
    await timeRepeated(reps, 20, (i) => client.getRow(table, floorKey('r', (i + FLOOR_ROWS) % FLOOR_ROWS))),
  );
}

export async function measureMultiGet20(client: HBaseRestClient, table: string, reps: number): Promise<LatencySummary> {
  return summarize(
    await timeRepeated(reps, 20, (i) =>
      client.multiGet(
        table,
        Array.from({ length: 20 }, (_, j) => floorKey('r', (Math.abs(i) * 20 + j) % FLOOR_ROWS)),
      ),
    ),
  );
}

/** Sequential batch puts of `batchSize` one-cell rows (new keys each time) until about `totalCells`. */
export async function measureBatchPut(
  client: HBaseRestClient,
  table: string,
  batchSize: number,
  totalCells: number,
): Promise<BatchPutResult> {
  const batches = Math.max(3, Math.ceil(totalCells / batchSize));
  let next = 0;
  const t0 = performance.now();
  const samples = await timeRepeated(batches, 0, async () => {
    const rows: RowInput[] = Array.from({ length: batchSize }, () => ({
      key: floorKey(`p${batchSize}`, next++),
      cells: [{ column: 'f:v', value: FLOOR_VALUE }],
    }));
    await client.put(table, rows);
  });
  const seconds = (performance.now() - t0) / 1000;
  return {
    batchSize,
    cellsPerSec: Math.round((batches * batchSize) / seconds),
    requests: batches,
    perRequest: summarize(samples),
  };
}

export interface FloorOptions {
  reps: number;
  /** [cells per request, total cells] pairs; default 1/min(reps,500), 100/20k, 1000/50k. */
  batchPuts?: readonly (readonly [number, number])[];
  onProgress?: (fraction: number) => void;
}

/** Every floor figure, on an already prepared table (prepareFloorTable). */
export async function measureFloor(client: HBaseRestClient, table: string, opts: FloorOptions): Promise<FloorResult> {
  const batchPuts = opts.batchPuts ?? [
    [1, Math.min(opts.reps, 500)],
    [100, 20_000],
    [1000, 50_000],
  ];
  const steps = 2 + batchPuts.length;
  const progress = (done: number) => opts.onProgress?.(done / steps);
  const rowGet = await measureRowGet(client, table, opts.reps);
  progress(1);
  const multiGet20 = await measureMultiGet20(client, table, opts.reps);
  progress(2);
  const batchPut: BatchPutResult[] = [];
  for (const [size, total] of batchPuts) {
    batchPut.push(await measureBatchPut(client, table, size, total));
    progress(2 + batchPut.length);
  }
  return { rowGet, multiGet20, batchPut };
}

export function printFloor(floor: FloorResult): void {
  const { rowGet, multiGet20, batchPut } = floor;
  printTable(
    'Raw HBase REST floor (latency, ms)',
    ['operation', 'n', 'median', 'p99', 'min', 'max'],
    [
      ['row get (1 round trip)', rowGet.n, rowGet.medianMs, rowGet.p99Ms, rowGet.minMs, rowGet.maxMs],
      ['multi-get of 20 rows', multiGet20.n, multiGet20.medianMs, multiGet20.p99Ms, multiGet20.minMs, multiGet20.maxMs],
    ],
  );
  printTable(
    'Raw batch put (one PUT per batch, sequential)',
    ['cells/request', 'requests', 'cells/s', 'median ms', 'p99 ms'],
    batchPut.map((b) => [b.batchSize, b.requests, b.cellsPerSec, b.perRequest.medianMs, b.perRequest.p99Ms]),
  );
}
