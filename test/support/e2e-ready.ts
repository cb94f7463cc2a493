// test/support/e2e-ready.ts — a setup file of the e2e projects: before a file's first test, waits
// until the API that offline-setup.ts started in the background answers with every function
// loaded (its ready file), or fails the file with the reason it never will.
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, inject } from 'vitest';

/** Bundling and loading every function on a busy 2-core machine: minutes, not more. */
const READY_WITHIN_MS = 420_000;

beforeAll(async () => {
  const file = inject('e2eReadyFile');
  const deadline = Date.now() + READY_WITHIN_MS;
  while (!existsSync(file)) {
    if (Date.now() > deadline)
      throw new Error(`the e2e API was not ready within ${READY_WITHIN_MS / 1000} s (no ${file})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const state = JSON.parse(readFileSync(file, 'utf8')) as { ready: boolean; error?: string };
  if (!state.ready) throw new Error(`the e2e API did not start: ${state.error}`);
}, READY_WITHIN_MS + 10_000);
