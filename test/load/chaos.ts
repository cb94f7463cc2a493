// test/load/chaos.ts — the faults of `npm run load -- --chaos` (docs/operations.md, "Chaos load").
// During the run phase, on a schedule the run's seed decides (chaosSchedule, pure), two kinds of
// fault hit the stack of this checkout:
//   - a REST gateway restart: `stack.sh stop rest`, a few seconds away, `stack.sh start hbase`
//     (as the outage drill test/e2e/serial/fault-tolerance.test.ts does). Measured from the stop:
//     when the API began answering 503 and when it answered 2xx again (a probe read every 250 ms),
//     and when the fan-out queue was back to its depth before the stop.
//   - a worker kill: the emulator ends the worker thread of a running fan-out invocation a random
//     time into its batch (infra/plugins/offline-chaos.cjs); what it wrote stays half-done and the
//     batch comes back after the visibility timeout. Measured until every message of the killed
//     batch was completed by a later invocation.
// One restart at a time, and no kill is asked for while the gateway is away; the measuring goes
// on in the background (into the drain) and stop() waits for it, bounded. The gateway is never
// left stopped: stop(), SIGINT / SIGTERM and the process's exit start it again.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { seededRng } from '../support/model/prng.js';
import { queueCounts } from '../support/queue.js';

const STACK = fileURLToPath(new URL('../../infra/local/stack.sh', import.meta.url));
const run = promisify(execFile);

export type PlannedFault =
  | { kind: 'gateway restart'; gapMs: number; awayMs: number }
  | { kind: 'worker kill'; gapMs: number; afterMs: number };

/**
 * The faults of a run, in order, each `gapMs` after the previous one ended (a restart ends when
 * the gateway is back, a kill when its invocation was killed or none could be): one fault at a
 * time, so a slow restart delays the rest instead of piling them up. Every third fault is a
 * restart (the second one first), kills between; gaps of 3–8 s, the gateway away 1–4 s
 * (its stop and start take seconds more), a kill 5–150 ms into its batch. As many as fit the run.
 */
export function chaosSchedule(seed: number, count = 40): PlannedFault[] {
  const rng = seededRng((seed ^ 0xc4a05) >>> 0);
  const between = (min: number, max: number) => Math.round(min + rng.next() * (max - min));
  const out: PlannedFault[] = [];
  for (let i = 0; i < count; i++) {
    const gapMs = between(3_000, 8_000);
    if (i % 3 === 1) out.push({ kind: 'gateway restart', gapMs, awayMs: between(1_000, 4_000) });
    else out.push({ kind: 'worker kill', gapMs, afterMs: between(5, 150) });
  }
  return out;
}

export interface RestartFigures {
  kind: 'gateway restart';
  /** Offsets from the start of the run, in ms. */
  atMs: number;
  stopMs: number;
  awayMs: number;
  startMs: number;
  /** The probe's first 503, and its first 2xx after it (offsets from the run's start). */
  first503AtMs?: number;
  back2xxAtMs?: number;
  /** The probe's answers from the stop to its 2xx again: status → count. */
  probe: Record<string, number>;
  queueBefore: number;
  /** When the queue was back to queueBefore (offset from the run's start), if it was in time. */
  queueBackAtMs?: number;
  /** The gateway back up (offset from the run's start). */
  upAtMs: number;
}

export interface KillFigures {
  kind: 'worker kill';
  atMs: number;
  afterMs: number;
  /** The kill itself: when, how far into its batch, which messages; absent when no invocation outlasted afterMs. */
  killedAtMs?: number;
  intoMs?: number;
  messages?: number;
  tries?: number;
  /** When the last message of the killed batch was completed by a later invocation. */
  redoneAtMs?: number;
}

export type FaultFigures = RestartFigures | KillFigures;

export interface ChaosOptions {
  seed: number;
  durationMs: number;
  apiUrl: string;
  /** A read that answers 200 while storage is up (a profile): the restart's probe. */
  probePath: string;
  sqs: SQSClient;
  queueUrl: string;
  /** The directory infra/plugins/offline-chaos.cjs watches, and the API's port (its files' names). */
  chaosDir: string;
  apiPort: string;
  functionName: string;
  log: (line: string) => void;
}

export interface Chaos {
  /** No new fault from now on (a restart under way completes). */
  stopFaults(): Promise<void>;
  /** Waits for the measures (at most `waitMs`), and returns the figures (offsets from `startedAt`, epoch ms). */
  finish(waitMs: number): Promise<{ startedAt: number; faults: FaultFigures[] }>;
}

/** The emulator of `npm start` takes kill requests (its chaos plugin is on): or why not. */
export function checkKillable(chaosDir: string, apiPort: string): string | undefined {
  const ready = `${chaosDir}/ready-${apiPort}.json`;
  if (!existsSync(ready))
    return `no ${ready}: the API on port ${apiPort} was not started by npm start from this checkout (it turns worker kills on)`;
  const { pid } = JSON.parse(readFileSync(ready, 'utf8')) as { pid: number };
  try {
    process.kill(pid, 0);
  } catch {
    return `the emulator named in ${ready} (pid ${pid}) is not running: start the API again with npm start`;
  }
  return undefined;
}

interface ChaosEvent {
  type: 'killed' | 'missed' | 'redone';
  id: string;
  at: string;
  intoMs?: number;
  messageIds?: string[];
  tries?: number;
}

export function startChaos(opts: ChaosOptions): Chaos {
  const t0 = Date.now();
  const since = (t: number = Date.now()) => t - t0;
  const figures: FaultFigures[] = [];
  const measures: Promise<void>[] = [];
  const eventsFile = `${opts.chaosDir}/events-${opts.apiPort}.jsonl`;
  let stopped = false;
  let gatewayDown = false;
  const stack = (...args: string[]) => run('bash', [STACK, ...args], { timeout: 240_000 });

  // Whatever ends this process, a stopped gateway is started again.
  const restore = () => {
    if (!gatewayDown) return;
    gatewayDown = false;
    execFileSync('bash', [STACK, 'start', 'hbase'], { stdio: 'inherit', timeout: 240_000 });
  };
  const onSignal = (sig: NodeJS.Signals) => {
    restore();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', restore);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const depth = async () => Object.values(await queueCounts(opts.sqs, opts.queueUrl)).reduce((a, b) => a + b, 0);

  const restart = async (f: Extract<PlannedFault, { kind: 'gateway restart' }>) => {
    const queueBefore = await depth().catch(() => 0);
    const fig: RestartFigures = {
      kind: 'gateway restart',
      atMs: since(),
      stopMs: 0,
      awayMs: 0,
      startMs: 0,
      probe: {},
      queueBefore,
      upAtMs: 0,
    };
    figures.push(fig);
    let probing = true;
    const probe = (async () => {
      while (probing || fig.back2xxAtMs === undefined) {
        const sent = Date.now();
        let status = 0;
        try {
          status = (await fetch(`${opts.apiUrl}${opts.probePath}`, { signal: AbortSignal.timeout(15_000) })).status;
        } catch {
          status = 0;
        }
        if (status !== 200 || fig.first503AtMs !== undefined) fig.probe[status] = (fig.probe[status] ?? 0) + 1;
        if (status === 503 && fig.first503AtMs === undefined) fig.first503AtMs = since(sent);
        if (status === 200 && fig.first503AtMs !== undefined) {
          fig.back2xxAtMs = since();
          return;
        }
        // The gateway came back and the API never answered 503 (a stop shorter than a probe's gap).
        if (!probing && status === 200) return;
        if (since() - fig.atMs > 180_000) return;
        await sleep(250);
      }
    })();
    opts.log(`chaos: +${s(fig.atMs)} s restarting the REST gateway (away ${s(f.awayMs)} s)`);
    gatewayDown = true;
    let t = Date.now();
    await stack('stop', 'rest');
    fig.stopMs = Date.now() - t;
    t = Date.now();
    await sleep(f.awayMs);
    fig.awayMs = Date.now() - t;
    t = Date.now();
    await stack('start', 'hbase');
    gatewayDown = false;
    fig.startMs = Date.now() - t;
    fig.upAtMs = since();
    opts.log(`chaos: +${s(fig.upAtMs)} s the REST gateway is back (${s(fig.upAtMs - fig.atMs)} s after the stop)`);
    probing = false;
    measures.push(
      (async () => {
        await probe;
        for (;;) {
          if ((await depth().catch(() => Number.POSITIVE_INFINITY)) <= queueBefore) {
            fig.queueBackAtMs = since();
            return;
          }
          if (since() - fig.upAtMs > 180_000 || finishing) return;
          await sleep(500);
        }
      })(),
    );
  };

  let kills = 0;
  // Unique to this run: the emulator's events file outlives a run (one per npm start).
  const runTag = `${opts.seed.toString(36)}-${t0.toString(36)}`;
  const kill = async (f: Extract<PlannedFault, { kind: 'worker kill' }>) => {
    const id = `${runTag}-k${++kills}`;
    const fig: KillFigures = { kind: 'worker kill', atMs: since(), afterMs: f.afterMs };
    figures.push(fig);
    const request = `${opts.chaosDir}/kill-${opts.apiPort}.json`;
    writeFileSync(`${request}.tmp`, JSON.stringify({ id, functionName: opts.functionName, afterMs: f.afterMs }));
    renameSync(`${request}.tmp`, request);
    let settled!: () => void;
    const taken = new Promise<void>((r) => (settled = r));
    measures.push(
      (async () => {
        for (;;) {
          const mine = readEvents(eventsFile).filter((e) => e.id === id);
          const killed = mine.find((e) => e.type === 'killed');
          if (killed && fig.killedAtMs === undefined) {
            fig.killedAtMs = since(Date.parse(killed.at));
            fig.intoMs = killed.intoMs ?? 0;
            fig.messages = killed.messageIds?.length ?? 0;
            opts.log(
              `chaos: +${s(fig.killedAtMs)} s killed a fan-out invocation ${fig.intoMs} ms into a batch of ${fig.messages} message(s)`,
            );
          }
          if (killed) settled();
          const missed = mine.find((e) => e.type === 'missed');
          if (missed && !killed) {
            fig.tries = missed.tries ?? 0;
            settled();
            return;
          }
          const redone = mine.filter((e) => e.type === 'redone');
          if (killed && redone.length >= (killed.messageIds?.length ?? 0)) {
            fig.redoneAtMs = Math.max(...redone.map((e) => since(Date.parse(e.at))));
            return;
          }
          if (finishing) return settled();
          await sleep(250);
        }
      })(),
    );
    // The next fault waits for this one to land (or to find nothing to kill), not past the run.
    await Promise.race([taken, runOver]);
  };

  let finishing = false;
  let endRun!: () => void;
  const runOver = new Promise<void>((r) => (endRun = r));
  const loop = (async () => {
    for (const fault of chaosSchedule(opts.seed)) {
      await sleep(fault.gapMs);
      if (stopped || since() + 1_000 > opts.durationMs) return;
      try {
        if (fault.kind === 'gateway restart') await restart(fault);
        else await kill(fault);
      } catch (err) {
        opts.log(`chaos: ${fault.kind} failed: ${err instanceof Error ? err.message : String(err)}`);
        restore();
      }
    }
  })();

  return {
    async stopFaults() {
      stopped = true;
      endRun();
      await loop;
    },
    async finish(waitMs) {
      stopped = true;
      endRun();
      await loop;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(measures), new Promise((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
      finishing = true;
      await Promise.all(measures);
      process.off('exit', restore);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      return { startedAt: t0, faults: figures };
    },
  };
}

function readEvents(file: string): ChaosEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ChaosEvent);
}

const s = (ms: number) => (ms / 1000).toFixed(1);

/** Findings that say something the model holds is gone, or that an answer left the model unable to tell. */
export const isLoss = (finding: string) => /\bis missing\b|\blacks?\b|\bmiss\b|cannot tell what happened/.test(finding);

/**
 * The faults, each with what it cost, and the totals; true when the run passes its chaos checks
 * (no new DLQ message, every restart answered 2xx again, every killed message done again).
 */
export function describeChaos(
  faults: FaultFigures[],
  startedAt: number,
  retryLater: { byPhase: Record<string, number>; at: number[] },
  deadLetters: number,
): { lines: string[]; ok: boolean } {
  const at = (ms: number | undefined) => (ms === undefined ? '?' : `+${s(ms)} s`);
  const lines: string[] = ['', 'faults:'];
  const windows: [number, number][] = [];
  let ok = deadLetters === 0;
  const restarts = faults.filter((f): f is RestartFigures => f.kind === 'gateway restart');
  const kills = faults.filter((f): f is KillFigures => f.kind === 'worker kill');
  for (const f of faults) {
    if (f.kind === 'gateway restart') {
      const end = (f.back2xxAtMs ?? f.upAtMs) + 5_000;
      windows.push([startedAt + f.atMs, startedAt + end]);
      const in503 = retryLater.at.filter((t) => t >= startedAt + f.atMs && t <= startedAt + end).length;
      const probe = Object.entries(f.probe).map(([st, n]) => `${st === '0' ? 'no answer' : st} ×${n}`);
      if (f.back2xxAtMs === undefined) ok = false;
      lines.push(
        `  ${at(f.atMs).padEnd(9)} REST gateway restart: stop ${s(f.stopMs)} s, away ${s(f.awayMs)} s, start ${s(f.startMs)} s — back at ${at(f.upAtMs)}, ${s(f.upAtMs - f.atMs)} s after the stop`,
        `            cost: the API answered 503 from ${at(f.first503AtMs)} to ${at(f.back2xxAtMs)}` +
          (f.first503AtMs !== undefined && f.back2xxAtMs !== undefined
            ? ` (${s(f.back2xxAtMs - f.first503AtMs)} s; 2xx again ${s(f.back2xxAtMs - f.atMs)} s after the stop)`
            : '') +
          `; the probe's answers ${probe.join(', ') || '200 only'}; the workload's 503s in that time: ${in503}`,
        `            the queue back to its depth before the stop (${f.queueBefore}) ${f.queueBackAtMs === undefined ? 'not within the wait' : `at ${at(f.queueBackAtMs)}, ${s(f.queueBackAtMs - f.atMs)} s after the stop`}`,
      );
    } else if (f.killedAtMs === undefined) {
      lines.push(
        `  ${at(f.atMs).padEnd(9)} worker kill ${f.afterMs} ms into a batch: no invocation of the worker outlasted that within the request's 30 s (${f.tries ?? 0} tried); nothing killed`,
      );
    } else {
      if (f.redoneAtMs === undefined) ok = false;
      lines.push(
        `  ${at(f.atMs).padEnd(9)} worker kill: asked for ${f.afterMs} ms into a batch; at ${at(f.killedAtMs)} a fan-out invocation's thread was terminated ${f.intoMs} ms into a batch of ${f.messages} message(s)`,
        `            cost: ${f.redoneAtMs === undefined ? 'NOT every message of it was done again' : `every message of it done again by a later invocation at ${at(f.redoneAtMs)}, ${s(f.redoneAtMs - f.killedAtMs)} s after the kill`}`,
      );
    }
  }
  const done = kills.filter((k) => k.killedAtMs !== undefined);
  const costs = done.flatMap((k) => (k.redoneAtMs === undefined ? [] : [k.redoneAtMs - k.killedAtMs!]));
  const outage = restarts.flatMap((r) =>
    r.first503AtMs !== undefined && r.back2xxAtMs !== undefined ? [r.back2xxAtMs - r.first503AtMs] : [],
  );
  const total503 = retryLater.at.length;
  const inWindows = retryLater.at.filter((t) => windows.some(([a, b]) => t >= a && t <= b)).length;
  lines.push(
    '',
    `chaos totals: ${restarts.length} REST gateway restart(s), the API answering 503 for ${s(outage.reduce((a, b) => a + b, 0))} s in all (longest ${s(Math.max(0, ...outage))} s); ` +
      `${done.length} worker invocation(s) killed (${done.reduce((a, k) => a + (k.messages ?? 0), 0)} messages; ${kills.length - done.length} request(s) found none to kill), each done again after ${costs.length ? `${s(Math.min(...costs))}–${s(Math.max(...costs))} s` : '—'}`,
    `503 answers with Retry-After: ${total503} (${Object.entries(retryLater.byPhase)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ')}), ${inWindows} of them within a restart's window; DLQ: ${deadLetters} new message(s)`,
  );
  return { lines, ok };
}
