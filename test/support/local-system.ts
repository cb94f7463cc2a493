// test/support/local-system.ts — processes of a checkout run beside a test: its `npm start`
// (infra/local/run-local.ts) on the suite's stack, in a namespace and on ports of the test's
// own, or any of its TypeScript entries (run with tsx). Each one's output is kept (the tail) for
// the test's messages and written whole to <stack dir>/logs/<label>.log.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stackDir } from './pressure.js';

/** What `npm start` prints once everything answers. */
export const SYSTEM_RUNNING = 'weibo-serverless is running locally';

export interface LocalProcess {
  child: ChildProcess;
  /** The tail of what it printed (stdout and stderr). */
  output(): string;
  /** Until it prints `text`; fails when it exits first or the time is up. */
  printed(text: string, timeoutMs: number): Promise<void>;
  /** Its exit code; fails when it is still running after `timeoutMs`. */
  exited(timeoutMs: number): Promise<number | null>;
  /** SIGTERM to its process group (npm start then stops what it started), SIGKILL after a minute. */
  stop(): Promise<void>;
}

/** The ports an `npm start` serves on, from `apiPort` up: API, web, Lambda invoke, WebSocket. */
export function systemPorts(apiPort: number): Record<string, string> {
  return {
    API_PORT: String(apiPort),
    WEB_PORT: String(apiPort + 1),
    OFFLINE_LAMBDA_PORT: String(apiPort + 2),
    WEBSOCKET_PORT: String(apiPort + 3),
  };
}

/**
 * Runs `entry` of the checkout at `tree` with tsx, on the suite's stack (its state dir). An
 * `npm start` so run skips its warm-up (WARM_UP=0): a function loads at its first call instead.
 */
export function startLocal(tree: string, entry: string, label: string, env: Record<string, string>): LocalProcess {
  const logs = join(stackDir(), 'logs');
  mkdirSync(logs, { recursive: true });
  const log = createWriteStream(join(logs, `${label}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: tree,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, WEIBO_LOCAL_DIR: stackDir(), WARM_UP: '0', ...env },
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail += String(chunk);
    if (tail.length > 200_000) tail = tail.slice(-100_000);
    log.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', () => log.end());
  const done = () => child.exitCode !== null || child.signalCode !== null;
  const exited = (timeoutMs: number) =>
    done()
      ? Promise.resolve(child.exitCode)
      : Promise.race([
          new Promise<number | null>((r) => child.once('exit', (code) => r(code))),
          sleep(timeoutMs).then(() => {
            throw new Error(`${label}: still running after ${timeoutMs / 1000} s:\n${tail.slice(-4000)}`);
          }),
        ]);
  return {
    child,
    output: () => tail,
    exited,
    async printed(text, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!tail.includes(text)) {
        if (done())
          throw new Error(
            `${label} exited (${child.exitCode ?? child.signalCode}) before "${text}":\n${tail.slice(-4000)}`,
          );
        if (Date.now() > deadline)
          throw new Error(`${label}: no "${text}" within ${timeoutMs / 1000} s:\n${tail.slice(-4000)}`);
        await sleep(250);
      }
    },
    async stop() {
      if (done() || !child.pid) return;
      const signal = (sig: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sig);
        } catch {
          /* gone */
        }
      };
      signal('SIGTERM');
      await exited(60_000).catch(() => signal('SIGKILL'));
    },
  };
}
