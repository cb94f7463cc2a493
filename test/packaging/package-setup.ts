// test/packaging/package-setup.ts — the packaging project's global setup: a folder for this run's
// shared packages (one-package-at-a-time.ts devPackage), removed after the run. Several files
// read the dev stage's package; it is made once, by whichever asks first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'weibo-packages-'));
  project.provide('packageCacheDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    packageCacheDir: string;
  }
}
