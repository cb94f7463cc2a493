// infra/schema/migrate-command.ts — `npm run migrate`: an upgrade of a namespace to this code's
// layout. Applies the schema (as `npm run schema -- --fix-drift`: new tables and families, and
// family attributes re-applied where they drifted; nothing is dropped), then
// every migration the namespace has not had (shared/schema/migrations.ts), batch by batch with
// its progress, while the system serves. Stopped at any point, it goes on from the last batch
// recorded when run again. Talks to HBASE_REST_URL in namespace HBASE_NAMESPACE, as `npm run
// schema`; run it against a deployed gateway the same way (docs/operations.md, "Upgrades").
import { config } from '../../shared/config/config.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { migrate } from '../../shared/schema/migrations.js';
import { applySchema } from './apply-schema.js';
import { isLoopbackGateway, localPreSplitter, localStackHBase } from './local-pre-split.js';

const cfg = config();
const client = new HBaseRestClient({
  baseUrl: cfg.HBASE_REST_URL,
  timeoutMs: 60_000, // DDL disables/enables tables: slower than data calls
  headers: cfg.HBASE_AUTHORIZATION ? { Authorization: cfg.HBASE_AUTHORIZATION } : {},
});

try {
  const started = Date.now();
  console.log(
    `migrate: HBase ${await client.clusterVersion()} at ${cfg.HBASE_REST_URL}, namespace ${cfg.HBASE_NAMESPACE}`,
  );
  await applySchema(client, cfg.HBASE_NAMESPACE, {
    fixDrift: true,
    log: (line) => console.log(`migrate: schema: ${line}`),
    ...(isLoopbackGateway(cfg.HBASE_REST_URL) ? { preSplit: localPreSplitter(localStackHBase()) } : {}),
  });
  const report = await migrate(client, cfg.HBASE_NAMESPACE, { log: (line) => console.log(`migrate: ${line}`) });
  console.log(
    report.from === report.to
      ? `migrate: layout version ${report.to}, nothing to migrate (${((Date.now() - started) / 1000).toFixed(1)} s)`
      : `migrate: layout version ${report.from} → ${report.to} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (err) {
  console.error(`migrate: failed — ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
