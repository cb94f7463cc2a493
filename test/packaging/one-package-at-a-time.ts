// test/packaging/one-package-at-a-time.ts — one `serverless package` at a time per checkout. Two
// runs in one checkout share its .serverless/ folder (the framework writes its state there
// whatever --package says, and a run cleans it first), so one made the other fail with ENOENT on
// serverless-state.json. The test files that package run side by side otherwise; each packages
// through packageService, which holds this lock (a directory: mkdir is atomic) for the run.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FOLDERS } from '../../infra/plugins/build-folders.cjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LOCK = join(ROOT, '.serverless-package.lock');
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

const SLS = join(ROOT, 'node_modules/serverless/bin/serverless.js');
const run = promisify(execFile);

/** `serverless package <args>` from the checkout's root (no lock); a failure names the framework's own output. */
async function runPackage(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  try {
    await run(process.execPath, [SLS, 'package', ...args], {
      cwd: ROOT,
      env,
      timeout: timeoutMs,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`serverless package failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/** `serverless package <args>` from the checkout's root, under the lock. */
export async function packageService(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  await onePackageAtATime(() => runPackage(args, env, timeoutMs));
}

/** The dev stage's gateway as an operator passes it (serverless.yml names none for dev). */
export const DEV_GATEWAY = 'https://hbase-rest.dev.internal:8443';
const OFFLINE_MARKER = 'module.exports = "offline";\n';

export interface DevPackage {
  /** The package folder: the template and one zip per function. Shared: read it, never change it. */
  dir: string;
  /** A file of a serverless-offline build tree (a running `npm start`'s) was still there, unchanged, after packaging. */
  offlineTreeKept: boolean;
}

/**
 * The dev stage packaged as an operator packages it (`--stage dev`, the gateway as a param, nothing
 * overriding the build folder), ONCE per test run: the first file to ask makes it, under the lock,
 * the others read it (a full minified build is about two minutes of this machine's CPU). Beside
 * it stands a serverless-offline build tree with a file of ours in it, as a running `npm start`
 * has: whether packaging left that file alone is part of the result.
 */
export async function devPackage(cacheDir: string, timeoutMs: number): Promise<DevPackage> {
  const dir = join(cacheDir, 'dev');
  const made = join(cacheDir, 'dev.json');
  return onePackageAtATime(async () => {
    if (existsSync(made)) return JSON.parse(readFileSync(made, 'utf8')) as DevPackage;
    const offlineRoot = join(ROOT, FOLDERS.offline);
    const offlineExisted = existsSync(offlineRoot);
    const marker = join(offlineRoot, '.build', `package-test-marker-${process.pid}.cjs`);
    mkdirSync(dirname(marker), { recursive: true });
    writeFileSync(marker, OFFLINE_MARKER);
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, AWS_EC2_METADATA_DISABLED: 'true' }; // nothing may reach AWS
      delete env.ESBUILD_WORK_FOLDER; // as an operator runs it: the folder the plugin chooses
      await runPackage(['--stage', 'dev', '--package', dir, `--param=hbaseRestUrl=${DEV_GATEWAY}`], env, timeoutMs);
      const result: DevPackage = {
        dir,
        offlineTreeKept: existsSync(marker) && readFileSync(marker, 'utf8') === OFFLINE_MARKER,
      };
      writeFileSync(made, JSON.stringify(result));
      return result;
    } finally {
      rmSync(marker, { force: true });
      if (!offlineExisted) rmSync(offlineRoot, { recursive: true, force: true });
    }
  });
}
