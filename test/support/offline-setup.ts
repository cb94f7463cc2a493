// test/support/offline-setup.ts — end-to-end tests go through HTTP exactly as clients do: the
// API runs under serverless-offline (API Gateway HTTP API + Lambda emulation of our real
// handlers) against the real HBase. Runs after global-setup.ts (the stack is up), applies the
// schema to a fresh namespace of its own, and stops the API and drops that namespace after.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { applySchema } from '../../infra/schema/apply-schema.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { TABLES, qualifiedTableName, type TableName } from '../../shared/schema/tables.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`serverless-offline exited (${child.exitCode}):\n${output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`serverless-offline did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
}

export default async function setup(project: TestProject) {
  const hbaseRestUrl = process.env.HBASE_REST_URL!;
  const namespace = `e2e_${Date.now().toString(36)}`;
  const jwtSecret = randomBytes(32).toString('base64url');
  const apiPort = process.env.E2E_API_PORT ?? '13100';
  const lambdaPort = process.env.E2E_LAMBDA_PORT ?? '13102';
  const apiUrl = `http://127.0.0.1:${apiPort}`;

  const hbase = new HBaseRestClient({ baseUrl: hbaseRestUrl, timeoutMs: 60_000 });
  await applySchema(hbase, namespace);

  let log = '';
  // The handlers' log output is kept in a file: tests read it to prove no secret appears there.
  mkdirSync(`${ROOT}/.local/logs`, { recursive: true });
  const logFile = `${ROOT}/.local/logs/offline-${namespace}.log`;
  writeFileSync(logFile, '');
  // Its own process group, so teardown can end the offline server and every worker it forks.
  const child = spawn(process.execPath, [`${ROOT}/node_modules/serverless/bin/serverless.js`, 'offline', 'start', '--stage', 'test'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HBASE_NAMESPACE: namespace,
      JWT_SECRET: jwtSecret,
      API_PORT: apiPort,
      OFFLINE_LAMBDA_PORT: lambdaPort,
      // Logs from the handlers become test evidence (no secrets may appear in them).
      POWERTOOLS_LOG_LEVEL: 'INFO',
    },
  });
  const capture = (d: Buffer) => {
    log = (log + String(d)).slice(-20_000);
    appendFileSync(logFile, d);
  };
  child.stdout!.on('data', capture);
  child.stderr!.on('data', capture);
  const stop = () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
  };

  try {
    await waitForHttp(`${apiUrl}/users/probe`, child, () => log.slice(-4000), 120_000);
  } catch (err) {
    stop();
    throw err;
  }
  console.log(`[e2e] API ${apiUrl} (serverless-offline) on HBase namespace ${namespace}`);

  project.provide('apiUrl', apiUrl);
  project.provide('e2eNamespace', namespace);
  project.provide('jwtSecret', jwtSecret);
  project.provide('offlineLogFile', logFile);

  return async () => {
    stop();
    for (const t of Object.keys(TABLES) as TableName[]) await hbase.deleteTable(qualifiedTableName(namespace, t)).catch(() => {});
    await hbase.deleteNamespace(namespace).catch(() => {});
    await hbase.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    e2eNamespace: string;
    jwtSecret: string;
    offlineLogFile: string;
  }
}
