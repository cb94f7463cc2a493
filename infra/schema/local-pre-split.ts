// infra/schema/local-pre-split.ts — how the LOCAL stack pre-splits: the REST gateway cannot, so
// infra/local/PreSplit.java (Java 17 single-file launch on the stack's own HBase client jars)
// re-creates each freshly created, empty table with its split keys through the Admin API, over
// ZooKeeper. Used by `npm run schema` against a loopback gateway, by the regions benchmark and
// its test. On a real cluster operators run the `hbase shell` script instead (shell-script.ts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface PreSplitRequest {
  /** `ns:table` */
  table: string;
  points: Uint8Array[];
}

/** Pre-splits the tables; resolves with PreSplit.java's line per table. */
export type PreSplitter = (requests: PreSplitRequest[]) => Promise<string[]>;

export interface LocalStackHBase {
  /** The stack's HBase jars (infra/local/stack.sh puts them in <state dir>/hbase/lib). */
  libDir: string;
  /** ZooKeeper `host:port` of the stack. */
  zookeeper: string;
}

/** The local stack as infra/local/stack.sh lays it out, from the same variables. */
export function localStackHBase(env: NodeJS.ProcessEnv = process.env): LocalStackHBase {
  return {
    libDir: join(env.WEIBO_LOCAL_DIR || join(REPO, '.local'), 'hbase', 'lib'),
    zookeeper: `127.0.0.1:${env.HBASE_ZK_PORT || '21818'}`,
  };
}

/** True when the gateway is on this machine, so the stack's ZooKeeper and jars are too. */
export function isLoopbackGateway(restUrl: string): boolean {
  const host = new URL(restUrl).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

export function localPreSplitter(stack: LocalStackHBase): PreSplitter {
  return async (requests) => {
    const todo = requests.filter((r) => r.points.length > 0);
    if (todo.length === 0) return [];
    if (!existsSync(stack.libDir))
      throw new Error(`no HBase jars at ${stack.libDir} (start the stack with infra/local/stack.sh first)`);
    const args = [
      '-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true',
      '--add-opens',
      'java.base/java.lang=ALL-UNNAMED',
      '--add-opens',
      'java.base/java.nio=ALL-UNNAMED',
      '--add-opens',
      'java.base/sun.nio.ch=ALL-UNNAMED',
      '-cp',
      `${stack.libDir}/*`,
      join(REPO, 'infra/local/PreSplit.java'),
      stack.zookeeper,
      ...todo.map((r) => `${r.table}=${r.points.map((p) => Buffer.from(p).toString('hex')).join(',')}`),
    ];
    try {
      const { stdout } = await run('java', args, { timeout: 30_000 + 10_000 * todo.length, maxBuffer: 16 << 20 });
      return stdout.trim().split('\n').filter(Boolean);
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      const lines = `${e.stdout ?? ''}`.trim();
      const tail = `${e.stderr ?? ''}`.trim().split('\n').slice(-5).join('\n');
      throw new Error(`PreSplit.java failed: ${lines || e.message}${tail ? `\n${tail}` : ''}`);
    }
  };
}
