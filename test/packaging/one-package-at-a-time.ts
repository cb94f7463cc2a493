// test/packaging/one-package-at-a-time.ts — one `serverless package` at a time per checkout. Two
// runs in one checkout share its .serverless/ folder (the framework writes its state there
// whatever --package says, and a run cleans it first), so one made the other fail with ENOENT on
// serverless-state.json. The test files that package run side by side otherwise; each packages
// through packageService, which holds this lock (a directory: mkdir is atomic) for the run.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const LOCK = join(fileURLToPath(new URL('../..', import.meta.url)), '.serverless-package.lock');
/** Longer than any package run: a lock this old was left by a process that died holding it. */
const STALE_MS = 10 * 60_000;

export async function onePackageAtATime<T>(run: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      await sleep(500);
    }
  }
  try {
    return await run();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

const SLS = join(fileURLToPath(new URL('../..', import.meta.url)), 'node_modules/serverless/bin/serverless.js');
const run = promisify(execFile);

/**
 * `serverless package <args>` from the checkout's root, under the lock; a failure names the
 * framework's own output.
 */
export async function packageService(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  try {
    await onePackageAtATime(() =>
      run(process.execPath, [SLS, 'package', ...args], { cwd: fileURLToPath(new URL('../..', import.meta.url)), env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }),
    );
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`serverless package failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}
