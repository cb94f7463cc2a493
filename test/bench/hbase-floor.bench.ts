// test/bench/hbase-floor.bench.ts — `npm run bench:hbase`: the raw HBase REST floor that every
// product target is a ratio of (product.md "Performance"): one row-get round trip, a multi-get
// of 20 rows, and batch-put throughput at 1 / 100 / 1000 cells per request. Runs against
// HBASE_REST_URL (default: the local stack, which must be running: `npm run stack:start`).
// Writes docs/bench/hbase-floor.json (BENCH_OUT_DIR elsewhere), rewrites docs/benchmarks.md from
// docs/bench, and prints a table. The measurements live in ./floor.ts
// (`npm run bench` runs the same ones inside its own run).
//   BENCH_REPS (default 300) — timed repetitions for the latency figures
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { refreshBenchmarksPage } from '../../infra/docs/benchmarks-document.js';
import { config } from '../../shared/config/config.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { measureFloor, prepareFloorTable, printFloor } from './floor.js';

const reps = Number(process.env.BENCH_REPS ?? 300);
const cfg = config();
const client = new HBaseRestClient({ baseUrl: cfg.HBASE_REST_URL, timeoutMs: 30_000 });
const table = 'bench_floor';

try {
  const version = await client.clusterVersion();
  console.log(`bench:hbase — HBase ${version} at ${cfg.HBASE_REST_URL}, ${reps} timed repetitions`);
  await prepareFloorTable(client, table);
  const floor = await measureFloor(client, table, { reps });

  const result = {
    at: new Date().toISOString(),
    hbaseVersion: version,
    restUrl: cfg.HBASE_REST_URL,
    node: process.version,
    reps,
    ...floor,
  };
  const outDir = process.env.BENCH_OUT_DIR || 'docs/bench';
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'hbase-floor.json'), `${JSON.stringify(result, null, 2)}\n`);
  printFloor(floor);
  console.log(`\nJSON: ${join(outDir, 'hbase-floor.json')}`);
  if (refreshBenchmarksPage(outDir)) console.log('rewrote docs/benchmarks.md');
} finally {
  await client.deleteTable(table).catch(() => {});
  await client.close();
}
