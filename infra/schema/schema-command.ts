// infra/schema/schema-command.ts — CLI entry for `npm run schema [-- --fix-drift] [--regions N] [--shell]`.
// Creates what is missing and says which layout version the namespace's data is in; moving the
// data to this code's is `npm run migrate` (./migrate-command.ts).
// Talks to HBASE_REST_URL (default: the local stack) in namespace HBASE_NAMESPACE (default weibo).
//
// Regions per table (the stage param regionsPerTable): `--regions N` or REGIONS_PER_TABLE, 1–256,
// default 1. Tables this run creates are pre-split where it can be done: against a loopback
// gateway (the local stack) through infra/local/PreSplit.java over ZooKeeper 127.0.0.1:HBASE_ZK_PORT;
// elsewhere the REST gateway cannot, so the command prints the `hbase shell` script instead.
// `--shell` only prints that script (nothing is created): operators run it on a real cluster
// BEFORE `npm run schema`, which then finds every table and just reports drift.
import { config } from '../../shared/config/config.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { BASE_LAYOUT_VERSION } from '../../shared/schema/migrations.js';
import { MAX_REGIONS_PER_TABLE } from '../../shared/schema/row-keys.js';
import { applySchema } from './apply-schema.js';
import { isLoopbackGateway, localPreSplitter, localStackHBase } from './local-pre-split.js';
import { hbaseShellScript } from './shell-script.js';

function regionsPerTable(argv: string[], env: NodeJS.ProcessEnv): number {
  const at = argv.findIndex((a) => a === '--regions' || a.startsWith('--regions='));
  const raw =
    at < 0 ? (env.REGIONS_PER_TABLE ?? '1') : argv[at]!.includes('=') ? argv[at]!.split('=')[1]! : (argv[at + 1] ?? '');
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_REGIONS_PER_TABLE) {
    throw new Error(`regions per table must be an integer from 1 to ${MAX_REGIONS_PER_TABLE} (got "${raw}")`);
  }
  return n;
}

const cfg = config();
const argv = process.argv.slice(2);
let regions = 1;
try {
  regions = regionsPerTable(argv, process.env);
} catch (err) {
  console.error(`schema: ${(err as Error).message}`);
  process.exit(2);
}

if (argv.includes('--shell')) {
  process.stdout.write(hbaseShellScript(cfg.HBASE_NAMESPACE, regions));
  process.exit(0);
}

const client = new HBaseRestClient({
  baseUrl: cfg.HBASE_REST_URL,
  timeoutMs: 60_000, // DDL disables/enables tables: slower than data calls
  headers: cfg.HBASE_AUTHORIZATION ? { Authorization: cfg.HBASE_AUTHORIZATION } : {},
});

try {
  console.log(
    `schema: HBase ${await client.clusterVersion()} at ${cfg.HBASE_REST_URL}, namespace ${cfg.HBASE_NAMESPACE}, ${regions} region(s) per table`,
  );
  const report = await applySchema(client, cfg.HBASE_NAMESPACE, {
    fixDrift: argv.includes('--fix-drift'),
    log: (line) => console.log(`schema: ${line}`),
    regionsPerTable: regions,
    ...(isLoopbackGateway(cfg.HBASE_REST_URL) ? { preSplit: localPreSplitter(localStackHBase()) } : {}),
  });
  const changed =
    report.createdNamespace ||
    report.createdTables.length + report.addedFamilies.length + report.fixedFamilies.length > 0;
  console.log(changed ? 'schema: applied' : 'schema: already up to date');
  if (report.drift.length > 0 && !argv.includes('--fix-drift')) {
    console.log(
      `schema: ${report.drift.length} drift item(s) reported above; run with --fix-drift to re-apply attributes`,
    );
  }
  const { recorded, code } = report.layout;
  console.log(
    `schema: layout version ${recorded ?? `${BASE_LAYOUT_VERSION} (none recorded)`}, this code's ${code}` +
      ((recorded ?? BASE_LAYOUT_VERSION) < code ? ': run npm run migrate to move the data' : ''),
  );
  if (report.notPreSplit.length > 0) {
    console.log(
      `schema: the REST gateway cannot pre-split; ${report.notPreSplit.length} table(s) were created with one region. ` +
        `On a real cluster create them with this hbase shell script first (npm run schema -- --shell --regions ${regions}):`,
    );
    process.stdout.write(hbaseShellScript(cfg.HBASE_NAMESPACE, regions));
  }
} catch (err) {
  console.error(`schema: failed — ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
