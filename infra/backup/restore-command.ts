// infra/backup/restore-command.ts — `npm run restore -- <backup name> --into <namespace> [--from <dir>] [--shell]`
// clones every snapshot of the backup (NAME.<table>) into a fresh namespace; with --from it first
// copies them back from the dir `npm run backup -- … --export <dir>` wrote (ExportSnapshot).
// `npm run restore -- <backup name> --in-place <namespace>` puts each table of that namespace back
// with restore_snapshot instead: each is disabled meanwhile (downtime). It prints the `hbase shell`
// statements and ExportSnapshot command lines that do the same on a real cluster; against the
// local stack it runs them. `--shell` only prints. Then `HBASE_NAMESPACE=<namespace> npm start`
// (or a stage whose namespace it is) serves the restored data, `npm run migrate` first when the
// backup's layout is older (docs/operations.md, "Backup and restore").
import { config } from '../../shared/config/config.js';
import { isLoopbackGateway } from '../schema/local-pre-split.js';
import {
  BACKUP_NAME,
  NAMESPACE_NAME,
  cloneStatements,
  dirUri,
  exportCommands,
  localCluster,
  localRootDir,
  restoreInPlaceStatements,
  runSnapshots,
} from './snapshots.js';
import { commandLine } from './command-line.js';

const cli = commandLine('restore');
const { argv, say, secondsSince, option, flag } = cli;
// Annotated, so that a call narrows what follows it (TypeScript's rule for functions that never return).
const fail: (why: string, code?: number) => never = cli.fail;
const shellOnly = flag('--shell');
const into = option('--into');
const inPlace = option('--in-place');
const from = option('--from');
const name = argv[0];
const usage =
  'usage: npm run restore -- <backup name> --into <fresh namespace> [--from <dir>] [--shell]\n' +
  '       npm run restore -- <backup name> --in-place <namespace> [--from <dir>] [--shell]';
if (!name || argv.length !== 1 || !BACKUP_NAME.test(name) || (into ? 1 : 0) + (inPlace ? 1 : 0) !== 1) fail(usage, 2);
const target = (into ?? inPlace)!;
if (!NAMESPACE_NAME.test(target)) fail(`a namespace is letters, digits and _ (got "${target}")`, 2);

if (from) {
  say(`on a real cluster, copy the snapshots back first (from where the backup exported them):`);
  for (const c of exportCommands(
    name,
    from.includes('://') ? from : 's3a://<bucket>/<prefix>',
    'hdfs://<namenode>/hbase',
  ))
    console.log(`  ${c}`);
}
if (into) {
  say(`clone into the fresh namespace ${into} (online; the backed-up namespace is untouched), in hbase shell:`);
  for (const s of cloneStatements(name, into)) console.log(`  ${s}`);
} else {
  say(`restore in place in ${inPlace} (each table is DISABLED from disable to enable: downtime), in hbase shell:`);
  for (const s of restoreInPlaceStatements(target, name)) console.log(`  ${s}`);
}
if (shellOnly) process.exit(0);
if (!isLoopbackGateway(config().HBASE_REST_URL))
  fail('HBASE_REST_URL is not this machine: run the statements above on the cluster (or use --shell)');

const cluster = localCluster();
try {
  let t = Date.now();
  if (from) {
    const copied = await runSnapshots(cluster, ['import', name, dirUri(from), localRootDir(cluster)]);
    for (const line of copied) say(line);
    say(`${copied.length} snapshot(s) copied back from ${dirUri(from)} in ${secondsSince(t)}`);
    t = Date.now();
  }
  const done = into
    ? await runSnapshots(cluster, ['clone', name, into])
    : await runSnapshots(cluster, ['restore', name, target]);
  for (const line of done) say(line);
  say(`${done.length} table(s) ${into ? `cloned into ${into}` : 'restored in place'} in ${secondsSince(t)}`);
  say(
    `done: serve it with HBASE_NAMESPACE=${target} npm start (npm run migrate first if the backup's layout is older)`,
  );
} catch (err) {
  fail(`failed — ${err instanceof Error ? err.message : String(err)}`);
}
