// test/bench/hbase-floor.bench.ts — `npm run bench:hbase`: the raw HBase REST floor that every
// product target is a ratio of (product.md "Performance"): one row-get round trip, a multi-get
// of 20 rows, and batch-put throughput at 1 / 100 / 1000 cells per request. Runs against
// HBASE_REST_URL (default: the local stack, which must be running: `npm run stack:start`).
// Writes bench-results/hbase-floor.json and prints a table.
//   BENCH_REPS (default 300) — timed repetitions for the latency figures
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { config } from '../../shared/config/config.js';
import { HBaseRestClient, type RowInput } from '../../shared/hbase/index.js';
import { printTable, summarize, timeRepeated, type LatencySummary } from './stats.js';

const reps = Number(process.env.BENCH_REPS ?? 300);
const cfg = config();
const client = new HBaseRestClient({ baseUrl: cfg.HBASE_REST_URL, timeoutMs: 30_000 });
const table = 'bench_floor';
const VALUE = 'x'.repeat(64); // about the size of an inbox cell + a short post reference

const key = (prefix: string, i: number) => `${prefix}-${String(i).padStart(8, '0')}`;

async function prepare(): Promise<void> {
  await client.createTable(table, { columnFamilies: [{ name: 'f', VERSIONS: 1, BLOOMFILTER: 'ROW' }] });
  const rows: RowInput[] = Array.from({ length: 1000 }, (_, i) => ({ key: key('r', i), cells: [{ column: 'f:v', value: VALUE }] }));
  await client.put(table, rows);
}

async function batchPutThroughput(batchSize: number, totalCells: number): Promise<{ batchSize: number; cellsPerSec: number; requests: number; perRequest: LatencySummary }> {
  const batches = Math.max(3, Math.ceil(totalCells / batchSize));
  let next = 0;
  const t0 = performance.now();
  const samples = await timeRepeated(batches, 0, async () => {
    const rows: RowInput[] = Array.from({ length: batchSize }, () => ({ key: key(`p${batchSize}`, next++), cells: [{ column: 'f:v', value: VALUE }] }));
    await client.put(table, rows);
  });
  const seconds = (performance.now() - t0) / 1000;
  return { batchSize, cellsPerSec: Math.round((batches * batchSize) / seconds), requests: batches, perRequest: summarize(samples) };
}

try {
  const version = await client.clusterVersion();
  console.log(`bench:hbase — HBase ${version} at ${cfg.HBASE_REST_URL}, ${reps} timed repetitions`);
  await prepare();

  const rowGet = summarize(await timeRepeated(reps, 20, (i) => client.getRow(table, key('r', (i + 1000) % 1000))));
  const multiGet20 = summarize(
    await timeRepeated(reps, 20, (i) => client.multiGet(table, Array.from({ length: 20 }, (_, j) => key('r', (Math.abs(i) * 20 + j) % 1000)))),
  );
  const batchPut = [];
  for (const [size, total] of [[1, Math.min(reps, 500)], [100, 20_000], [1000, 50_000]] as const) {
    batchPut.push(await batchPutThroughput(size, total));
  }

  const result = { at: new Date().toISOString(), hbaseVersion: version, restUrl: cfg.HBASE_REST_URL, node: process.version, reps, rowGet, multiGet20, batchPut };
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/hbase-floor.json', `${JSON.stringify(result, null, 2)}\n`);

  printTable('Raw HBase REST floor (latency, ms)', ['operation', 'n', 'median', 'p99', 'min', 'max'], [
    ['row get (1 round trip)', rowGet.n, rowGet.medianMs, rowGet.p99Ms, rowGet.minMs, rowGet.maxMs],
    ['multi-get of 20 rows', multiGet20.n, multiGet20.medianMs, multiGet20.p99Ms, multiGet20.minMs, multiGet20.maxMs],
  ]);
  printTable('Raw batch put (one PUT per batch, sequential)', ['cells/request', 'requests', 'cells/s', 'median ms', 'p99 ms'],
    batchPut.map((b) => [b.batchSize, b.requests, b.cellsPerSec, b.perRequest.medianMs, b.perRequest.p99Ms]));
  console.log('\nJSON: bench-results/hbase-floor.json');
} finally {
  await client.deleteTable(table).catch(() => {});
  await client.close();
}
