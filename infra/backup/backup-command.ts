// infra/backup/backup-command.ts — `npm run backup -- <namespace> [--name N] [--export <dir>] [--shell]`:
// a snapshot of every table of the namespace, named N.<table> (default N: <namespace>-<UTC time>),
// and with --export a copy of them off the cluster by ExportSnapshot. It prints the `hbase shell`
// statements and ExportSnapshot command lines that do the same on a real cluster; against the
// local stack (HBASE_REST_URL on this machine: its jars and ZooKeeper are here) it runs them.
// `--shell` only prints. The system keeps serving throughout (docs/operations.md, "Backup and restore").
import { config } from '../../shared/config/config.js';
import { isLoopbackGateway } from '../schema/local-pre-split.js';
import {
  BACKUP_NAME,
  NAMESPACE_NAME,
  dirUri,
  exportCommands,
  localCluster,
  localRootDir,
  runSnapshots,
  snapshotStatements,
} from './snapshots.js';
import { commandLine } from './command-line.js';

const cli = commandLine('backup');
const { argv, say, secondsSince, option, flag } = cli;
// Annotated, so that a call narrows what follows it (TypeScript's rule for functions that never return).
const fail: (why: string, code?: number) => never = cli.fail;
const shellOnly = flag('--shell');
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
const exportTo = option('--export');
const givenName = option('--name');
const namespace = argv[0];
if (!namespace || argv.length !== 1 || !NAMESPACE_NAME.test(namespace))
  fail('usage: npm run backup -- <namespace> [--name N] [--export <dir>] [--shell]', 2);
const name = givenName ?? `${namespace}-${stamp}`;
if (!BACKUP_NAME.test(name)) fail(`a backup's name is letters, digits, _ and - (got "${name}")`, 2);

say(`namespace ${namespace} → snapshots ${name}.<table>; on a real cluster, in hbase shell:`);
for (const s of snapshotStatements(namespace, name)) console.log(`  ${s}`);
if (exportTo) {
  say('then, copied off the cluster (to s3a://bucket/prefix or hdfs://backup-cluster/hbase):');
  for (const c of exportCommands(name, exportTo.includes('://') ? exportTo : 's3a://<bucket>/<prefix>'))
    console.log(`  ${c}`);
}
if (shellOnly) process.exit(0);
if (!isLoopbackGateway(config().HBASE_REST_URL))
  fail('HBASE_REST_URL is not this machine: run the statements above on the cluster (or use --shell)');

const cluster = localCluster();
try {
  let t = Date.now();
  const taken = await runSnapshots(cluster, ['snapshot', namespace, name]);
  for (const line of taken) say(line);
  say(`${taken.length} table(s) snapshotted in ${secondsSince(t)}`);
  if (exportTo) {
    t = Date.now();
    const copied = await runSnapshots(cluster, ['export', name, dirUri(exportTo), localRootDir(cluster)]);
    for (const line of copied) say(line);
    say(`${copied.length} snapshot(s) exported to ${dirUri(exportTo)} in ${secondsSince(t)}`);
  }
  say(`done: ${name} (restore: npm run restore -- ${name} --into <namespace>${exportTo ? ` --from ${exportTo}` : ''})`);
} catch (err) {
  fail(`failed — ${err instanceof Error ? err.message : String(err)}`);
}
