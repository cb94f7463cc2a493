// infra/schema/schema-command.ts — CLI entry for `npm run schema [-- --fix-drift]`.
// Talks to HBASE_REST_URL (default: the local stack) in namespace HBASE_NAMESPACE (default weibo).
import { config } from '../../shared/config/config.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { applySchema } from './apply-schema.js';

const cfg = config();
const client = new HBaseRestClient({
  baseUrl: cfg.HBASE_REST_URL,
  timeoutMs: 60_000, // DDL disables/enables tables: slower than data calls
  headers: cfg.HBASE_AUTHORIZATION ? { Authorization: cfg.HBASE_AUTHORIZATION } : {},
});

try {
  console.log(`schema: HBase ${await client.clusterVersion()} at ${cfg.HBASE_REST_URL}, namespace ${cfg.HBASE_NAMESPACE}`);
  const report = await applySchema(client, cfg.HBASE_NAMESPACE, {
    fixDrift: process.argv.includes('--fix-drift'),
    log: (line) => console.log(`schema: ${line}`),
  });
  const changed = report.createdNamespace || report.createdTables.length + report.addedFamilies.length + report.fixedFamilies.length > 0;
  console.log(changed ? 'schema: applied' : 'schema: already up to date');
  if (report.drift.length > 0 && !process.argv.includes('--fix-drift')) {
    console.log(`schema: ${report.drift.length} drift item(s) reported above; run with --fix-drift to re-apply attributes`);
  }
} catch (err) {
  console.error(`schema: failed — ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
