// test/packaging/one-package-at-a-time.ts — one `serverless package` at a time per checkout. Two
// runs in one checkout share its .serverless/ folder (the framework writes its state there
// whatever --package says, and a run cleans it first), so one made the other fail with ENOENT on
// serverless-state.json. The test files that package run side by side otherwise; each takes this
// lock (a directory: mkdir is atomic) around its package run.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

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
