// test/packaging/offline-errors.test.ts — the local emulator's own failures answer as 5xx, never
// as a 200 (infra/plugins/offline-errors.cjs). Runs serverless-offline on a tiny fixture service
// (test/packaging/fixtures/offline-errors: no bundling, no stack) whose handlers outlive their
// 1 s timeout, throw, or cannot be loaded, beside one that answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(ROOT, 'test/packaging/fixtures/offline-errors');
const API_PORT = process.env.FIXTURE_API_PORT ?? '14630';
const LAMBDA_PORT = process.env.FIXTURE_LAMBDA_PORT ?? '14632';
const API = `http://127.0.0.1:${API_PORT}`;

let offline: ChildProcess;
let output = '';

beforeAll(async () => {
  offline = spawn(process.execPath, [join(ROOT, 'node_modules/serverless/bin/serverless.js'), 'offline', 'start'], {
    cwd: FIXTURE,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FIXTURE_API_PORT: API_PORT, FIXTURE_LAMBDA_PORT: LAMBDA_PORT },
  });
  offline.stdout!.on('data', (d) => (output = (output + String(d)).slice(-8000)));
  offline.stderr!.on('data', (d) => (output = (output + String(d)).slice(-8000)));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (offline.exitCode !== null) throw new Error(`serverless-offline exited (${offline.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${API}/fine`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`serverless-offline did not answer:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}, 120_000);

afterAll(() => {
  if (offline?.pid && offline.exitCode === null) process.kill(-offline.pid, 'SIGTERM');
});

/** An answer's body: the fields these tests read (an error in our shape, the emulator's own fields), and the rest. */
type AnswerBody = {
  error: { code: string; message: string };
  errorType: string;
  errorMessage: string;
  [field: string]: unknown;
};

async function get(path: string) {
  const res = await fetch(`${API}${path}`, { signal: AbortSignal.timeout(20_000) });
  return {
    status: res.status,
    json: (await res.json()) as AnswerBody,
    emulatorError: res.headers.get('x-emulator-error'),
  };
}

describe('serverless-offline with infra/plugins/offline-errors.cjs', () => {
  it('answers a Lambda timeout as a 504 in our error shape, still naming the emulator’s error type', async () => {
    const res = await get('/slow');
    expect(res.status).toBe(504);
    expect(res.json.error).toMatchObject({ code: 'EMULATOR_TIMEOUT' });
    expect(res.json.error.message).toContain('Lambda timeout');
    // test/support/api.ts retries what it recognises by this field.
    expect(res.json.errorType).toBe('LambdaTimeoutError');
    expect(res.emulatorError).toBe('LambdaTimeoutError');
  });

  it('answers a handler that throws, and one whose module cannot be loaded, as a 502', async () => {
    const broken = await get('/broken');
    expect(broken.status).toBe(502);
    expect(broken.json.error).toMatchObject({ code: 'EMULATOR_FAILURE' });
    expect(broken.json.errorMessage).toContain('the handler failed');
    const missing = await get('/missing');
    expect(missing.status).toBe(502);
    expect(missing.json.error.code).toBe('EMULATOR_FAILURE');
  });

  it('keeps a bundle’s load out of the first call’s timeout, as Lambda’s init phase is: load and work each fit, together they would not', async () => {
    const res = await get('/cold/7?work=1');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ worked: true });
  });

  it('leaves a function’s own answer alone', async () => {
    const res = await get('/fine');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(res.emulatorError).toBeNull();
  });

  it('leaves a Lambda invoke of a failing function a function error, as before', async () => {
    const res = await fetch(
      `http://127.0.0.1:${LAMBDA_PORT}/2015-03-31/functions/offline-errors-fixture-local-broken/invocations`,
      {
        method: 'POST',
        body: '{}',
        signal: AbortSignal.timeout(20_000),
      },
    );
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.statusCode).toBeUndefined();
    expect(String(body.errorMessage)).toContain('the handler failed');
  });

  it('runs at most OFFLINE_FUNCTION_CONCURRENCY (4) calls of one function at once: a burst of 24 waits its turn on 4 workers, each answered', async () => {
    const answers = await Promise.all(Array.from({ length: 24 }, (_, n) => get(`/busy?n=${n}`)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    // Each call got its own event, though calls shared an instance.
    expect(answers.map((a) => a.json.n)).toEqual(answers.map((_, n) => String(n)));
    expect(new Set(answers.map((a) => a.json.threadId)).size).toBeLessThanOrEqual(4);
  });
});
