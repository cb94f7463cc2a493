// infra/backup/snapshots.ts — backups of a namespace with HBase's own tools: a snapshot of every
// table, ExportSnapshot to copy them off the cluster and back, clone_snapshot into a namespace,
// restore_snapshot in place (docs/operations.md, "Backup and restore"). Two faces:
//   - the `hbase shell` statements and ExportSnapshot command lines an operator runs on a real
//     cluster (printed by `npm run backup` / `npm run restore`);
//   - the same steps on the local stack, run by infra/local/Snapshots.java (Admin API over
//     ZooKeeper, ExportSnapshot in-process) on the stack's HBase jars.
// A backup NAME is one snapshot per table, named NAME.<table>: a clone puts each table back under
// its own name in whatever namespace it is cloned into.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { TABLES, type TableName } from '../../shared/schema/tables.js';

const run = promisify(execFile);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TOOLS_POM = join(REPO, 'infra/local/hbase-tools/pom.xml');

/** A backup's name: it prefixes every snapshot's (NAME.<table>), so no dot; HBase allows the rest. */
export const BACKUP_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;
/** As shared/config/config.ts takes HBASE_NAMESPACE. */
export const NAMESPACE_NAME = /^[A-Za-z0-9_]{1,64}$/;

export const tableNames = (): TableName[] => Object.keys(TABLES) as TableName[];
const q = (s: string) => `'${s}'`;

/** `hbase shell` statements of a backup: one snapshot per table (online: each region flushes first). */
export function snapshotStatements(namespace: string, name: string, tables = tableNames()): string[] {
  return tables.map((t) => `snapshot ${q(`${namespace}:${t}`)}, ${q(`${name}.${t}`)}`);
}

/** `hbase shell` statements of a restore into a fresh namespace (online: the source is untouched). */
export function cloneStatements(name: string, into: string, tables = tableNames()): string[] {
  return [
    `create_namespace ${q(into)}`,
    ...tables.map((t) => `clone_snapshot ${q(`${name}.${t}`)}, ${q(`${into}:${t}`)}`),
  ];
}

/** `hbase shell` statements of a restore in place: each table is offline from disable to enable. */
export function restoreInPlaceStatements(namespace: string, name: string, tables = tableNames()): string[] {
  return tables.flatMap((t) => [
    `disable ${q(`${namespace}:${t}`)}`,
    `restore_snapshot ${q(`${name}.${t}`)}`,
    `enable ${q(`${namespace}:${t}`)}`,
  ]);
}

/**
 * ExportSnapshot command lines, to `dir` (s3a://bucket/prefix, hdfs://other-cluster/hbase) or,
 * with `rootdir`, from `dir` back into that cluster's hbase.rootdir.
 */
export function exportCommands(name: string, dir: string, rootdir?: string, tables = tableNames()): string[] {
  const where = rootdir ? `-copy-from ${dir} -copy-to ${rootdir}` : `-copy-to ${dir}`;
  return tables.map(
    (t) =>
      `hbase org.apache.hadoop.hbase.snapshot.ExportSnapshot -snapshot ${name}.${t} ${where} -mappers 16 -bandwidth 100`,
  );
}

/** The local stack as infra/local/stack.sh lays it out (WEIBO_LOCAL_DIR, HBASE_ZK_PORT). */
export interface LocalCluster {
  /** <state dir>/hbase */
  hbaseDir: string;
  /** ZooKeeper host:port */
  zookeeper: string;
}

export function localCluster(env: NodeJS.ProcessEnv = process.env): LocalCluster {
  return {
    hbaseDir: join(resolve(env.WEIBO_LOCAL_DIR || join(REPO, '.local')), 'hbase'),
    zookeeper: `127.0.0.1:${env.HBASE_ZK_PORT || '21818'}`,
  };
}

/** The local cluster's hbase.rootdir (stack.sh's hbase-site.xml), where imported snapshots go. */
export function localRootDir(cluster: LocalCluster): string {
  return pathToFileURL(join(cluster.hbaseDir, 'data/root')).href;
}

/** A local directory as the URI ExportSnapshot takes. */
export function dirUri(dir: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(dir) ? dir : pathToFileURL(resolve(dir)).href;
}

/**
 * The one jar ExportSnapshot needs beyond the stack's (the local job runner), resolved by Maven
 * into <state dir>/hbase/tools-lib the first time, as stack.sh resolves the stack's own.
 */
function ensureToolsClasspath(cluster: LocalCluster): string {
  const lib = join(cluster.hbaseDir, 'tools-lib');
  const stamp = join(lib, '.pom.sha256');
  const want = createHash('sha256').update(readFileSync(TOOLS_POM)).digest('hex');
  const jars = existsSync(lib) && readdirSync(lib).some((f) => f.endsWith('.jar'));
  if (jars && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === want) return lib;
  mkdirSync(lib, { recursive: true });
  const mvn = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      '-f',
      TOOLS_POM,
      'dependency:copy-dependencies',
      `-DoutputDirectory=${lib}`,
      '-DexcludeTransitive=true',
    ],
    { encoding: 'utf8' },
  );
  if (mvn.status !== 0)
    throw new Error(`Maven could not resolve ${TOOLS_POM}: ${`${mvn.stdout}${mvn.stderr}`.slice(-2000)}`);
  writeFileSync(stamp, want);
  return lib;
}

export type SnapshotCommand =
  | ['snapshot', namespace: string, name: string]
  | ['export', name: string, dir: string, rootdir: string]
  | ['import', name: string, dir: string, rootdir: string]
  | ['clone', name: string, namespace: string]
  | ['restore', name: string, namespace: string]
  | ['delete', name: string]
  | ['list', name: string];

/** Runs one command of Snapshots.java on the local cluster; resolves with its lines (one per table). */
export async function runSnapshots(cluster: LocalCluster, command: SnapshotCommand): Promise<string[]> {
  const lib = join(cluster.hbaseDir, 'lib');
  if (!existsSync(lib)) throw new Error(`no HBase jars at ${lib} (start the stack with infra/local/stack.sh first)`);
  const classpath = [`${lib}/*`];
  if (command[0] === 'export' || command[0] === 'import') classpath.push(`${ensureToolsClasspath(cluster)}/*`);
  const args = [
    '-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true',
    ...['java.lang', 'java.nio', 'sun.nio.ch', 'java.util', 'java.io'].flatMap((p) => [
      '--add-opens',
      `java.base/${p}=ALL-UNNAMED`,
    ]),
    '-cp',
    classpath.join(':'),
    join(REPO, 'infra/local/Snapshots.java'),
    cluster.zookeeper,
    ...command,
  ];
  try {
    const { stdout } = await run('java', args, { timeout: 15 * 60_000, maxBuffer: 64 << 20 });
    return stdout.trim().split('\n').filter(Boolean);
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    const lines = `${e.stdout ?? ''}`.trim();
    const tail = `${e.stderr ?? ''}`
      .split('\n')
      .filter((l) => /ERROR|Exception/.test(l))
      .slice(-5)
      .join('\n');
    throw new Error(`Snapshots.java ${command[0]} failed:\n${lines || e.message}${tail ? `\n${tail}` : ''}`);
  }
}
