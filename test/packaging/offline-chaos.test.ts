// test/packaging/offline-chaos.test.ts — the local emulator kills a worker invocation part-way on
// request (infra/plugins/offline-chaos.cjs, used by `npm run load -- --chaos`). Runs
// serverless-offline on a tiny fixture service (test/packaging/fixtures/offline-chaos: no
// bundling, no stack) whose queue worker writes down each of its ten steps: a kill 350 ms in
// leaves the batch half-done (no step after the kill ever runs), the invocation fails, and the
// same message invoked again runs to the end on a fresh thread and is reported redone.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(ROOT, 'test/packaging/fixtures/offline-chaos');
const API_PORT = process.env.FIXTURE_CHAOS_API_PORT ?? '14640';
const LAMBDA_PORT = process.env.FIXTURE_CHAOS_LAMBDA_PORT ?? '14642';
const WORKER = 'offline-chaos-fixture-local-worker';

const work = mkdtempSync(join(tmpdir(), 'offline-chaos-'));
const chaosDir = join(work, 'chaos');
const stepsFile = join(work, 'steps.txt');
let offline: ChildProcess;
let output = '';

beforeAll(async () => {
  writeFileSync(stepsFile, '');
  offline = spawn(process.execPath, [join(ROOT, 'node_modules/serverless/bin/serverless.js'), 'offline', 'start'], {
    cwd: FIXTURE,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      FIXTURE_API_PORT: API_PORT,
      FIXTURE_LAMBDA_PORT: LAMBDA_PORT,
      FIXTURE_STEPS_FILE: stepsFile,
      LOCAL_CHAOS_DIR: chaosDir,
    },
  });
  offline.stdout!.on('data', (d) => (output = (output + String(d)).slice(-8000)));
  offline.stderr!.on('data', (d) => (output = (output + String(d)).slice(-8000)));
  const deadline = Date.now() + 90_000;
  while (!existsSync(join(chaosDir, `ready-${API_PORT}.json`)) || !(await lambdaUp())) {
    if (offline.exitCode !== null) throw new Error(`serverless-offline exited (${offline.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`serverless-offline did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}, 120_000);

afterAll(() => {
  if (offline?.pid && offline.exitCode === null) process.kill(-offline.pid, 'SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

async function lambdaUp(): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${LAMBDA_PORT}/`, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

/** Invokes the worker with one SQS record, as the poller does; the answer's body. */
async function invoke(messageId: string): Promise<Record<string, unknown>> {
  const event = { Records: [{ messageId, receiptHandle: 'r', body: '{}', eventSource: 'aws:sqs' }] };
  const res = await fetch(`http://127.0.0.1:${LAMBDA_PORT}/2015-03-31/functions/${WORKER}/invocations`, {
    method: 'POST',
    body: JSON.stringify(event),
    signal: AbortSignal.timeout(20_000),
  });
  return (await res.json()) as Record<string, unknown>;
}

const stepsOf = (messageId: string) =>
  readFileSync(stepsFile, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`${messageId} `))
    .map((l) => Number(l.split(' ')[1]));

const events = () =>
  readFileSync(join(chaosDir, `events-${API_PORT}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; id: string; intoMs?: number; messageId?: string });

describe('serverless-offline with infra/plugins/offline-chaos.cjs', () => {
  it('kills a worker invocation part-way: its later steps never run, it fails, and the message redelivered runs whole', async () => {
    // The request, as the load run writes it: a file renamed into place.
    const request = join(chaosDir, `kill-${API_PORT}.json`);
    writeFileSync(`${request}.tmp`, JSON.stringify({ id: 'k1', functionName: WORKER, afterMs: 350 }));
    renameSync(`${request}.tmp`, request);
    // Armed once the emulator has read the request (it removes the file).
    for (const until = Date.now() + 10_000; existsSync(request); ) {
      if (Date.now() > until) throw new Error('the emulator never read the kill request');
      await new Promise((r) => setTimeout(r, 50));
    }

    const killed = await invoke('m1');
    // The thread never answered: the emulator failed the invocation (a function error, no batch response).
    expect(killed.batchItemFailures).toBeUndefined();
    expect(String(killed.errorMessage)).toMatch(/timeout/i);
    // Longer than the whole batch would have taken: no step after the kill ran late either.
    await new Promise((r) => setTimeout(r, 1_200));
    const steps = stepsOf('m1');
    expect(steps.length).toBeGreaterThanOrEqual(1);
    expect(steps.length).toBeLessThan(10);
    expect(events()).toContainEqual(expect.objectContaining({ type: 'killed', id: 'k1' }));
    const at = events().find((e) => e.type === 'killed')!.intoMs!;
    expect(at).toBeGreaterThanOrEqual(350);

    // Redelivered (same message id): a fresh thread runs it to the end, and the kill is reported done.
    const again = await invoke('m1');
    expect(again).toEqual({ batchItemFailures: [] });
    expect(stepsOf('m1').slice(steps.length)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(events()).toContainEqual(expect.objectContaining({ type: 'redone', id: 'k1', messageId: 'm1' }));
  }, 60_000);
});
