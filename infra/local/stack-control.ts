// infra/local/stack-control.ts — the Node side of infra/local/stack.sh for a command that brings
// its own stack: readiness probes, and a session that starts components through stack.sh and
// stops exactly the ones it started (also when the command fails or is interrupted). Used by the
// test suite's global setup, by `npm run bench:regions` and by `npm run drill`.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const STACK_SH = fileURLToPath(new URL('./stack.sh', import.meta.url));

/** `regionserver`: one more RegionServer in a JVM of its own, beside a running `hbase` (drills). */
export type StackComponent = 'hbase' | 'queue' | 's3' | 'regionserver';

/** The HBase version the gateway at `url` reports, or null when it does not answer. */
export async function clusterVersion(url: string, headers: Record<string, string> = {}): Promise<string | null> {
  try {
    const res = await fetch(`${url}/version/cluster`, {
      headers: { Accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(5_000),
    });
    if (res.status !== 200) return null;
    return ((await res.json()) as { Version: string }).Version;
  } catch {
    return null;
  }
}

export async function queueHealthy(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(3_000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

const onSignal: { session: StackSession; before?: () => Promise<void> }[] = [];

/**
 * Components started through stack.sh with one environment (state dir, ports), remembered so
 * that stop() ends those and nothing else: a component that was already running is never
 * started here, so never stopped here either.
 */
export class StackSession {
  private readonly started: StackComponent[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  get startedHere(): readonly StackComponent[] {
    return this.started;
  }

  /**
   * Starts the component and waits for it (stack.sh's STACK_START_TIMEOUT bounds the wait).
   * Throws when it does not come up; stack.sh has then printed the tail of its logs, and
   * whatever it had launched is stopped again, so a failed start leaves no process behind.
   */
  start(component: StackComponent): void {
    this.started.push(component);
    try {
      this.run('start', component);
    } catch (err) {
      this.started.pop();
      try {
        this.run('stop', component);
      } catch {
        /* the start's error is the one to report */
      }
      throw err;
    }
  }

  /** Stops what this session started, last first; safe to call more than once. */
  stop(): void {
    while (this.started.length) this.run('stop', this.started.pop()!);
  }

  /**
   * On SIGINT/SIGTERM: `before` (if any), then stop(), then exit 130. Install it before start():
   * start() blocks the event loop, so a Ctrl-C during it is handled once it returns — and the
   * stack it started is then stopped, where Node's default action would have left it running.
   * One handler serves every session of the process (vitest runs a global setup per project),
   * so none is left running because another's handler exited first.
   */
  stopOnSignals(before?: () => Promise<void>): void {
    onSignal.push({ session: this, before });
    if (onSignal.length > 1) return;
    let handled = false;
    const handler = () => {
      if (handled) return;
      handled = true;
      void Promise.allSettled(onSignal.map((s) => s.before?.())).finally(() => {
        for (const s of onSignal) {
          try {
            s.session.stop();
          } catch {
            /* stop the others all the same */
          }
        }
        process.exit(130);
      });
    };
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, handler);
  }

  private run(cmd: 'start' | 'stop', component: StackComponent): void {
    // stdio inherited: stack.sh prints its progress, and the tail of the logs when startup fails.
    // Its own session (setsid -w waits for it): a Ctrl-C at the terminal does not reach it or the
    // JVMs it launches, and if this process is torn down meanwhile, a stop still runs to the end,
    // including its SIGKILL fallback for a JVM slow to shut down.
    execFileSync('setsid', ['-w', 'bash', STACK_SH, cmd, component], {
      stdio: 'inherit',
      timeout: 600_000,
      env: this.env,
    });
  }
}
