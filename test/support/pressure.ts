// test/support/pressure.ts — an overloaded machine on demand, for the model check and the load
// run (docs/testing.md, "Pressure"): while a workload runs, a CPU burner per core and the HBase
// REST gateway of the stack under test paused (SIGSTOP … SIGCONT) now and then, on a schedule
// the run's seed decides. The schedule is pure (pauseSchedule); startPressure applies it and
// prints what it applied.
//
// Nothing it does outlives it: every pause is ended by a detached watchdog started before the
// SIGSTOP (it sends the SIGCONT even if this process is killed with SIGKILL), and by stop(), by
// the process's exit and by SIGINT / SIGTERM; every burner exits once its parent is gone or its
// time is up. stop() is bounded in time.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRng } from './model/prng.js';

/** One planned pause: `atMs` after the start of pressure, for `forMs`. */
export interface PauseWindow {
  atMs: number;
  forMs: number;
}

export interface ScheduleOptions {
  /** Quiet time before each pause (uniform in [min, max]). */
  minGapMs: number;
  maxGapMs: number;
  /** Length of each pause (uniform in [min, max]). */
  minPauseMs: number;
  maxPauseMs: number;
}

/** Pauses of 0.5–2.5 s every 2–6 s: shorter than a function's timeout, long enough that many calls meet one. */
export const DEFAULT_SCHEDULE: ScheduleOptions = {
  minGapMs: 2_000,
  maxGapMs: 6_000,
  minPauseMs: 500,
  maxPauseMs: 2_500,
};

/**
 * How long a watchdog lets a pause run past its end before it ends it itself: the in-process
 * timer's lateness on a saturated machine. Below the shortest gap, so a watchdog's SIGCONT never
 * cuts the next pause short.
 */
export const WATCHDOG_SLACK_MS = 750;

/** The most a burner spins, whatever happens to its parent: a forgotten burner ends by itself. */
export const BURNER_MAX_MS = 60 * 60_000;

/**
 * The pauses a seed gives, in order, until `untilMs` after the start. A pure function of the
 * seed (its own stream, not the plan's): the same seed pauses at the same offsets.
 */
export function pauseSchedule(seed: number, untilMs: number, opts: ScheduleOptions = DEFAULT_SCHEDULE): PauseWindow[] {
  if (opts.minGapMs <= WATCHDOG_SLACK_MS)
    throw new RangeError(`the gap between pauses must exceed the watchdog's slack (${WATCHDOG_SLACK_MS} ms)`);
  if (opts.minGapMs > opts.maxGapMs || opts.minPauseMs > opts.maxPauseMs || opts.minPauseMs <= 0)
    throw new RangeError('pause schedule: min above max, or an empty pause');
  const rng = seededRng((seed ^ 0x5eed_0f_5) >>> 0);
  const between = (min: number, max: number) => Math.round(min + rng.next() * (max - min));
  const out: PauseWindow[] = [];
  for (let at = between(opts.minGapMs, opts.maxGapMs); at < untilMs; ) {
    const forMs = between(opts.minPauseMs, opts.maxPauseMs);
    out.push({ atMs: at, forMs });
    at += forMs + between(opts.minGapMs, opts.maxGapMs);
  }
  return out;
}

/** The pid file stack.sh writes for the REST gateway of the stack whose state dir is `localDir`. */
export function restPidFile(localDir: string): string {
  return `${localDir}/hbase/rest.pid`;
}

/** The state dir of the stack the environment names (stack.sh's rule: WEIBO_LOCAL_DIR, else <repo>/.local). */
export function stackDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const dir = env.WEIBO_LOCAL_DIR;
  if (!dir) return resolve(root, '.local');
  return isAbsolute(dir) ? dir : resolve(process.cwd(), dir);
}

/**
 * The pid of the REST gateway listening on `port` that stack.sh started in `localDir`: its pid
 * file, checked against the process it names (a RESTServer JVM on that port). A gateway another
 * stack runs, or none, is never paused: the reason comes back instead.
 */
export function findGateway(localDir: string, port: string): { pid: number } | { reason: string } {
  const file = restPidFile(localDir);
  if (!existsSync(file)) return { reason: `no ${file}: the gateway on port ${port} was not started from ${localDir}` };
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 1) return { reason: `${file} holds no pid` };
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return { reason: `pid ${pid} of ${file} is not running` };
  }
  if (!cmdline.includes('org.apache.hadoop.hbase.rest.RESTServer') || !cmdline.includes(`-p ${port}`)) {
    return { reason: `pid ${pid} of ${file} is not a REST gateway on port ${port}` };
  }
  return { pid };
}

export interface PressureOptions {
  /** Decides the pause schedule. */
  seed: number;
  /** The gateway to pause; none: CPU burners only. */
  gatewayPid?: number;
  /** Burner processes (default: one per core). */
  burners?: number;
  schedule?: ScheduleOptions;
  log?: (line: string) => void;
}

/** A pause as it was applied: offsets from the start of pressure, measured. */
export interface AppliedPause {
  atMs: number;
  forMs: number;
  plannedAtMs: number;
  plannedForMs: number;
}

export interface PressureReport {
  seed: number;
  burners: number;
  gatewayPid?: number;
  ranMs: number;
  pauses: AppliedPause[];
}

export interface Pressure {
  /** The burners' pids (for a test that they end). */
  readonly burnerPids: readonly number[];
  /** Ends every pause and every burner, and reports what was applied; at most a few seconds. */
  stop(): Promise<PressureReport>;
}

// A busy loop that checks, every few milliseconds of spinning, that its parent is still there
// and that its time is not up (argv: parent pid, end time).
const BURNER_SOURCE = `
const parent = Number(process.argv[1]);
const end = Number(process.argv[2]);
let x = 0;
for (;;) {
  const until = Date.now() + 5;
  while (Date.now() < until) x = (x * 31 + 7) | 0;
  if (Date.now() > end || process.ppid !== parent) process.exit(0);
}`;

/** Signals `pid`, ignoring a process that is gone. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* gone */
  }
}

const live = new Set<() => void>();
let hooked = false;

/** Ends every pressure still running, synchronously: on exit and on the signals below. */
function releaseAll(): void {
  for (const release of [...live]) release();
}

function hookProcess(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', releaseAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      releaseAll();
      // Only when nobody else handles it: otherwise their handler decides how the process ends.
      if (process.listenerCount(sig) === 1) process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
}

/** Starts the burners and the pause schedule now. */
export function startPressure(opts: PressureOptions): Pressure {
  const log = opts.log ?? ((line: string) => console.log(`[pressure] ${line}`));
  const started = Date.now();
  const since = () => Date.now() - started;
  const burnerCount = opts.burners ?? availableParallelism();
  const burners: ChildProcess[] = [];
  const watchdogs = new Set<ChildProcess>();
  const timers = new Set<NodeJS.Timeout>();
  const pauses: AppliedPause[] = [];
  const gateway = opts.gatewayPid;
  let paused: { plannedAtMs: number; plannedForMs: number; atMs: number } | undefined;
  let stopped = false;

  hookProcess();
  for (let i = 0; i < burnerCount; i++) {
    const child = spawn(process.execPath, ['-e', BURNER_SOURCE, String(process.pid), String(started + BURNER_MAX_MS)], {
      stdio: 'ignore',
    });
    child.on('error', (err) => log(`a CPU burner could not start: ${err.message}`));
    child.unref();
    burners.push(child);
  }

  const resume = () => {
    if (gateway === undefined || !paused) return;
    signal(gateway, 'SIGCONT');
    const { plannedAtMs, plannedForMs, atMs } = paused;
    paused = undefined;
    const applied = { atMs, forMs: since() - atMs, plannedAtMs, plannedForMs };
    pauses.push(applied);
    log(
      `pause ${pauses.length}: REST gateway (pid ${gateway}) stopped at +${s(applied.atMs)} s for ${s(applied.forMs)} s (planned +${s(plannedAtMs)} s for ${s(plannedForMs)} s)`,
    );
  };

  // Synchronous and idempotent: safe from an exit handler.
  const release = () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    if (gateway !== undefined) signal(gateway, 'SIGCONT');
    paused = undefined;
    for (const b of burners) if (b.exitCode === null && b.signalCode === null && b.pid) signal(b.pid, 'SIGKILL');
    for (const w of watchdogs) if (w.pid) signal(-w.pid, 'SIGKILL');
    live.delete(release);
  };
  live.add(release);

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(
      () => {
        timers.delete(t);
        fn();
      },
      Math.max(0, ms),
    );
    timers.add(t);
  };

  // One pause at a time, each planned from the schedule; the next is planned when this one ends.
  const schedule = opts.schedule ?? DEFAULT_SCHEDULE;
  const windows = pauseSchedule(opts.seed, BURNER_MAX_MS, schedule);
  const pauseNext = (i: number) => {
    const w = windows[i];
    if (!w || gateway === undefined) return;
    later(w.atMs - since(), () => {
      if (stopped) return;
      // The watchdog first: from the SIGSTOP on, something outside this process ends the pause.
      const watchdog = spawn(
        'sh',
        [
          '-c',
          'sleep "$1"; kill -CONT "$0" 2>/dev/null',
          String(gateway),
          ((w.forMs + WATCHDOG_SLACK_MS) / 1000).toFixed(3),
        ],
        {
          detached: true,
          stdio: 'ignore',
        },
      );
      // Without its watchdog the pause still ends by the timer below (and stop(), exit, signals).
      watchdog.on('error', (err) => log(`the watchdog of pause ${pauses.length + 1} could not start: ${err.message}`));
      watchdog.unref();
      watchdogs.add(watchdog);
      watchdog.once('exit', () => watchdogs.delete(watchdog));
      paused = { plannedAtMs: w.atMs, plannedForMs: w.forMs, atMs: since() };
      signal(gateway, 'SIGSTOP');
      later(w.forMs, () => {
        resume();
        if (!stopped) pauseNext(i + 1);
      });
    });
  };
  pauseNext(0);
  log(
    `${burnerCount} CPU burner(s)${opts.burners === undefined ? ' (one per core)' : ''} and ` +
      (gateway === undefined
        ? 'no gateway pauses'
        : `pauses of the REST gateway (pid ${gateway}) of ${s(schedule.minPauseMs)}–${s(schedule.maxPauseMs)} s every ${s(schedule.minGapMs)}–${s(schedule.maxGapMs)} s, seed ${opts.seed}`),
  );

  return {
    burnerPids: burners.flatMap((b) => (b.pid ? [b.pid] : [])),
    async stop() {
      if (!stopped) resume();
      release();
      // Bounded: burners were sent SIGKILL; wait for them at most 5 s. The timer is not unref'd:
      // it keeps the process alive until stop() settles (the burners' handles are unref'd).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(
          burners.map((b) =>
            b.exitCode !== null || b.signalCode !== null ? undefined : new Promise((r) => b.once('exit', r)),
          ),
        ),
        new Promise((r) => (timer = setTimeout(r, 5_000))),
      ]);
      clearTimeout(timer);
      const ranMs = since();
      const total = pauses.reduce((sum, p) => sum + p.forMs, 0);
      log(
        `stopped after ${s(ranMs)} s: ${pauses.length} pause(s), ${s(total)} s paused in all; ${burnerCount} burner(s) ended`,
      );
      return {
        seed: opts.seed,
        burners: burnerCount,
        ...(gateway === undefined ? {} : { gatewayPid: gateway }),
        ranMs,
        pauses,
      };
    },
  };
}

const s = (ms: number) => (ms / 1000).toFixed(1);
