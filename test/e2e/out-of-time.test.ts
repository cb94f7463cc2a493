// test/e2e/out-of-time.test.ts — a write that runs out of time, met over HTTP as a client meets
// it: the real register function (bundled as serverless-esbuild bundles it) under
// serverless-offline with the project's emulator plugin (infra/plugins/offline-errors.cjs), a 3 s
// function timeout, and an HBase REST gateway that accepts connections and never answers (an
// overloaded gateway: a socket, not a stand-in for HBase). The API answers 503 `timeout` with
// Retry-After a second before the emulator's own timeout — never a 500 or the emulator's 504 —
// and logs one `Invocation ran out of time` line for it. A small service of its own on free
// ports, beside the shared e2e API.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUT_OF_TIME_MESSAGE } from '../../shared/observability/out-of-time.js';
import { contractViolations } from '../support/contract.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVICE = join(ROOT, `.local/out-of-time-${process.pid}-${Date.now().toString(36)}`);
const TIMEOUT_SECONDS = 3;

let offline: ChildProcess | undefined;
let output = '';
let api = '';
let gateway: Server;
const held: Socket[] = [];

/** A port nothing listens on now (the emulator is told it, then binds it). */
async function freePort(): Promise<number> {
  const probe = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  // The gateway: takes every connection and never answers on it.
  gateway = createServer((socket) => void held.push(socket));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const gatewayUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;

  mkdirSync(SERVICE, { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'functions/http/register.ts')],
    outfile: join(SERVICE, 'register.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    mainFields: ['module', 'main'],
    keepNames: true,
    logLevel: 'silent',
  });
  writeFileSync(
    join(SERVICE, 'offline-errors-plugin.cjs'),
    `module.exports = require(${JSON.stringify(join(ROOT, 'infra/plugins/offline-errors.cjs'))});\n`,
  );
  const [httpPort, lambdaPort] = [await freePort(), await freePort()];
  writeFileSync(
    join(SERVICE, 'serverless.yml'),
    [
      'service: out-of-time',
      "frameworkVersion: '4'",
      'plugins: [./offline-errors-plugin.cjs, serverless-offline]',
      'provider:',
      '  name: aws',
      '  runtime: nodejs22.x',
      '  stage: local',
      `  timeout: ${TIMEOUT_SECONDS}`,
      '  environment:',
      `    HBASE_REST_URL: '${gatewayUrl}'`,
      "    HBASE_NAMESPACE: 'out_of_time'",
      `    JWT_SECRET: '${'x'.repeat(40)}'`,
      "    PASSWORD_SCRYPT_LOG2N: '12'",
      "    POWERTOOLS_LOG_LEVEL: 'INFO'",
      'functions:',
      '  register:',
      '    handler: register.handler',
      '    events: [{ httpApi: { method: POST, path: /users } }]',
      'custom:',
      '  serverless-offline:',
      '    host: 127.0.0.1',
      `    httpPort: ${httpPort}`,
      `    lambdaPort: ${lambdaPort}`,
      '    noPrependStageInUrl: true',
      '',
    ].join('\n'),
  );
  api = `http://127.0.0.1:${httpPort}`;
  offline = spawn(process.execPath, [join(ROOT, 'node_modules/serverless/bin/serverless.js'), 'offline', 'start'], {
    cwd: SERVICE,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env },
  });
  offline.stdout!.on('data', (d) => (output += String(d)));
  offline.stderr!.on('data', (d) => (output += String(d)));
  // Up, and the function loaded: an invalid body is refused by validation, before any HBase call.
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (offline.exitCode !== null)
      throw new Error(`serverless-offline exited (${offline.exitCode}):\n${output.slice(-4000)}`);
    const res = await fetch(`${api}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(20_000),
    }).catch(() => null);
    if (res?.status === 422) break;
    if (Date.now() > deadline) throw new Error(`the fixture API did not answer 422 in time:\n${output.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}, 180_000);

afterAll(async () => {
  if (offline?.pid && offline.exitCode === null) process.kill(-offline.pid, 'SIGTERM');
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => gateway?.close(() => resolve()) ?? resolve());
  rmSync(SERVICE, { recursive: true, force: true });
});

describe('a write that runs out of time, through serverless-offline', () => {
  it('answers 503 timeout with Retry-After before the function’s own timeout (never 500 or 504), and logs it once', async () => {
    const started = Date.now();
    const res = await fetch(`${api}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-correlation-id': 'out-of-time-e2e-1' },
      body: JSON.stringify({ handle: 'slowpoke', displayName: 'Slow', password: 'a-long-enough-password' }),
      signal: AbortSignal.timeout(30_000),
    });
    const took = Date.now() - started;
    const text = await res.text();
    expect(res.status, text).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    const body = JSON.parse(text);
    expect(body).toEqual({
      error: { code: 'timeout', message: expect.stringMatching(/ran out of time.*not known.*Retrying is safe/) },
    });
    expect(text).not.toMatch(/HBase|127\.0\.0\.1|out_of_time/);
    // The answer the contract documents for this operation.
    expect(
      contractViolations('POST', '/users', { status: res.status, headers: res.headers, text, json: body }),
    ).toEqual([]);
    // Before the emulator's timeout: it would have answered 504 at TIMEOUT_SECONDS.
    expect(took).toBeLessThan(TIMEOUT_SECONDS * 1000);

    // One WARN line for the invocation, with its route and the caller's correlation id.
    await new Promise((r) => setTimeout(r, 500));
    const lines = output
      .split('\n')
      .filter((l) => l.includes(OUT_OF_TIME_MESSAGE))
      .map((l) => JSON.parse(l.slice(l.indexOf('{'))) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'WARN',
      message: OUT_OF_TIME_MESSAGE,
      route: 'POST /users',
      correlation_id: 'out-of-time-e2e-1',
    });
  });
});
