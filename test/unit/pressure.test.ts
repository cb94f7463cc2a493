// test/unit/pressure.test.ts — the pressure mode (test/support/pressure.ts): its seeded pause
// schedule, how it finds the gateway it may pause, and that nothing it starts outlives it — a
// paused process is resumed and every burner ends, after stop() and after its own process is
// killed outright. A `sleep` child stands in for the gateway: no network, no stack.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SCHEDULE,
  WATCHDOG_SLACK_MS,
  findGateway,
  pauseSchedule,
  restPidFile,
  startPressure,
} from '../support/pressure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The state letter of /proc/<pid>/stat: 'T' stopped, 'S'/'R' running; undefined once gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' ? undefined : state;
  } catch {
    return undefined;
  }
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}

const children: ChildProcess[] = [];
/** Processes a failing test may have left: ended after each test whatever happened. */
const strays: number[] = [];
/** A stand-in for the gateway: a process that only waits. */
function standIn(): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}
afterEach(() => {
  for (const pid of [...children.splice(0).map((c) => c.pid), ...strays.splice(0)]) {
    if (!pid) continue;
    try {
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

describe('pressure: the pause schedule', () => {
  it('is a function of the seed: the same pauses for the same seed, others for another', () => {
    expect(pauseSchedule(42, 120_000)).toEqual(pauseSchedule(42, 120_000));
    expect(pauseSchedule(43, 120_000)).not.toEqual(pauseSchedule(42, 120_000));
    // A longer run only appends pauses.
    expect(pauseSchedule(42, 300_000).slice(0, pauseSchedule(42, 120_000).length)).toEqual(pauseSchedule(42, 120_000));
  });

  it('pauses for 0.5–2.5 s after 2–6 s of quiet each time, one at a time, within the run', () => {
    for (const seed of [0, 1, 7, 123_456, 2 ** 31]) {
      const windows = pauseSchedule(seed, 600_000);
      expect(windows.length).toBeGreaterThan(600_000 / (DEFAULT_SCHEDULE.maxGapMs + DEFAULT_SCHEDULE.maxPauseMs) - 1);
      let end = 0;
      for (const w of windows) {
        expect(w.forMs).toBeGreaterThanOrEqual(500);
        expect(w.forMs).toBeLessThanOrEqual(2_500);
        expect(w.atMs - end).toBeGreaterThanOrEqual(2_000);
        expect(w.atMs - end).toBeLessThanOrEqual(6_000);
        expect(w.atMs).toBeLessThan(600_000);
        end = w.atMs + w.forMs;
      }
    }
  });

  it('refuses gaps a watchdog could cut into, and empty pauses', () => {
    expect(() => pauseSchedule(1, 10_000, { ...DEFAULT_SCHEDULE, minGapMs: WATCHDOG_SLACK_MS })).toThrow(RangeError);
    expect(() => pauseSchedule(1, 10_000, { ...DEFAULT_SCHEDULE, minPauseMs: 0 })).toThrow(RangeError);
  });
});

describe('pressure: the gateway it may pause', () => {
  it("is the pid in the stack's rest.pid, only if that process is a REST gateway on the port", () => {
    const dir = mkdtempSync(`${tmpdir()}/pressure-`);
    try {
      expect(findGateway(dir, '18080')).toEqual({ reason: expect.stringContaining('was not started from') });
      mkdirSync(`${dir}/hbase`);
      writeFileSync(restPidFile(dir), String(standIn()));
      expect(findGateway(dir, '18080')).toEqual({
        reason: expect.stringContaining('is not a REST gateway on port 18080'),
      });
      writeFileSync(restPidFile(dir), '2147483646');
      expect(findGateway(dir, '18080')).toEqual({ reason: expect.stringContaining('is not running') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Short pauses soon after the start, so a test sees several in a few seconds. */
const QUICK = { minGapMs: 1_000, maxGapMs: 1_000, minPauseMs: 600, maxPauseMs: 600 };

describe('pressure: nothing outlives it', () => {
  it('stop() resumes a paused process at once and ends every burner; the pauses it applied are reported', async () => {
    const target = standIn();
    const lines: string[] = [];
    const pressure = startPressure({
      seed: 5,
      gatewayPid: target,
      burners: 2,
      schedule: QUICK,
      log: (l) => lines.push(l),
    });
    expect(pressure.burnerPids).toHaveLength(2);
    strays.push(...pressure.burnerPids);
    // Let one pause end on its own, then stop in the middle of the next.
    await until('the first pause', () => stateOf(target) === 'T', 3_000);
    await until('the first pause ends', () => stateOf(target) !== 'T', 3_000);
    await until('the second pause', () => stateOf(target) === 'T', 3_000);
    const report = await pressure.stop();
    expect(stateOf(target)).not.toBe('T');
    for (const pid of pressure.burnerPids) expect(stateOf(pid)).toBeUndefined();
    expect(report.pauses).toHaveLength(2);
    expect(report.pauses[0]).toMatchObject({ plannedAtMs: 1_000, plannedForMs: 600 });
    expect(report.pauses[1]!.forMs).toBeLessThan(600 + 300);
    expect(lines.filter((l) => l.startsWith('pause '))).toHaveLength(2);
    // Stopped means stopped: no pause after it.
    await sleep(QUICK.minGapMs + QUICK.minPauseMs);
    expect(stateOf(target)).not.toBe('T');
  }, 20_000);

  it('stop() settles in a process that has nothing else to wait for (it must not end the process before its report)', async () => {
    const target = standIn();
    const runner = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import { startPressure } from './test/support/pressure.ts';
         const p = startPressure({ seed: 3, gatewayPid: ${target}, burners: 1, schedule: { minGapMs: 1000, maxGapMs: 1000, minPauseMs: 500, maxPauseMs: 500 }, log: () => {} });
         setTimeout(async () => { const r = await p.stop(); console.log('stopped', r.pauses.length); }, 1200);`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(runner);
    let out = '';
    runner.stdout!.on('data', (d: Buffer) => (out += String(d)));
    const code = await new Promise<number | null>((r) => runner.once('exit', r));
    expect(code).toBe(0);
    expect(out).toMatch(/^stopped 1$/m);
    expect(stateOf(target)).not.toBe('T');
  }, 30_000);

  it('a process killed outright (SIGKILL) mid-pause: its watchdog resumes the paused process, its burners end by themselves', async () => {
    const target = standIn();
    // Pressure in a process of its own, killed with no chance to clean up.
    const runner = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import { startPressure } from './test/support/pressure.ts';
         const p = startPressure({ seed: 9, gatewayPid: ${target}, burners: 1, schedule: { minGapMs: 1000, maxGapMs: 1000, minPauseMs: 2000, maxPauseMs: 2000 }, log: () => {} });
         console.log(JSON.stringify(p.burnerPids));`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(runner);
    let out = '';
    runner.stdout!.on('data', (d: Buffer) => (out += String(d)));
    await until('the runner started its burner', () => out.includes(']'), 15_000);
    const burners = JSON.parse(out) as number[];
    strays.push(...burners);
    await until('the pause', () => stateOf(target) === 'T', 5_000);
    const killedAt = Date.now();
    runner.kill('SIGKILL');
    await until('the target resumed by the watchdog', () => stateOf(target) !== 'T', 2_000 + WATCHDOG_SLACK_MS + 1_500);
    expect(Date.now() - killedAt).toBeLessThan(2_000 + WATCHDOG_SLACK_MS + 1_500);
    await until('the orphaned burner exits', () => burners.every((pid) => stateOf(pid) === undefined), 3_000);
  }, 30_000);
});
