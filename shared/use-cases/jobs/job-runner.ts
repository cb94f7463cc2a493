// shared/use-cases/jobs/job-runner.ts — the common shape of every scheduled job.
//
// A job is a STEP function: it processes at most `rowsPerStep` rows from a position (`cursor`,
// opaque, made by the store) plus job-specific `carry` (e.g. the partial counts of a user cut
// by the chunk boundary), and returns `{ done, cursor, carry, stats }`. One Lambda invocation
// runs ONE step (so the function timeout is sized for one step), logs its progress, and when
// the job is not done hands the rest to a fresh asynchronous invocation of ITSELF through the
// JobContinuation port, never looping in place.
//
// Guards, so a run never loops forever or overlaps the next scheduled run:
//   * maxSteps (JOB_MAX_STEPS) per run; * a deadline per job (maxRunMs from the run's start);
//   * no progress: a step that returns the position and carry it was given stops the run;
//   * a failed step is retried by a fresh invocation at most MAX_ATTEMPTS times, then the run
//     stops (the next scheduled run starts over: every job is idempotent).
// The runner never throws: a rejected asynchronous invocation is not retried by us and
// serverless-offline (14.8.2) dies on it, so failures are logged and returned instead.
// A stopped run's last log line carries the payload to resume it by hand (`serverless invoke`).
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import { forEachLimit } from '../../runtime/concurrency.js';
import type { FanoutMessage, FanoutQueue } from '../../ports/fanout-queue.js';
import type { JobContinuation, JobContinuationPayload } from '../../ports/job-continuation.js';

export interface StepStats {
  /** Rows read by the step. */
  seen: number;
  /** Rows (or cells, counters…) the step changed. */
  fixed: number;
  [detail: string]: number;
}

export interface StepInput<C> {
  cursor?: string;
  carry?: C;
  rowsPerStep: number;
}

export interface StepResult<C> {
  done: boolean;
  /** Where the next step starts (absent = the job's own beginning of its next phase). */
  cursor?: string;
  carry?: C;
  stats: StepStats;
  /** Anything the job wants returned to the invoker (e.g. the dead-letter report). */
  detail?: unknown;
  /** A small sample of what the step changed, for the operator (logged with the step line). */
  notes?: Record<string, unknown>;
}

export interface JobDefinition<C> {
  /** Used in logs, e.g. 'trim-inboxes'. */
  name: string;
  /** Validates the carry a continuation brings (it crossed a process boundary as JSON). */
  carry: z.ZodType<C>;
  /** The run stops when this much time has passed since its first step (< the schedule interval). */
  maxRunMs: number;
  step(input: StepInput<C>): Promise<StepResult<C>>;
}

export interface JobLog {
  info(message: string, attributes: Record<string, unknown>): void;
  warn(message: string, attributes: Record<string, unknown>): void;
  error(message: string, attributes: Record<string, unknown>): void;
}

export interface JobRunnerDeps {
  continuation: JobContinuation;
  log: JobLog;
  rowsPerStep: number;
  maxSteps: number;
  /** The deployed name of the running function (Lambda context.functionName). */
  functionName: string;
  now?: () => number;
  /** Pause before a failed step's retry is handed on (ms × attempt); tests pass 0. */
  retryPauseMs?: number;
}

export type JobStatus = 'done' | 'continued' | 'retrying' | 'stopped';

export interface JobOutcome {
  job: string;
  status: JobStatus;
  runId: string;
  step: number;
  /** Why a run stopped before it was done. */
  reason?:
    | 'invalid-event'
    | 'max-steps'
    | 'deadline'
    | 'no-progress'
    | 'failed'
    | 'continuation-failed'
    | 'out-of-time';
  /** The last error, when a step or the hand-on failed. */
  error?: string;
  cursor?: string;
  stats?: StepStats;
  totals: { seen: number; fixed: number };
  /** The payload the next invocation got (continued/retrying) or would need (stopped). */
  next?: JobContinuationPayload;
  detail?: unknown;
}

export const MAX_ATTEMPTS = 3;
const DEFAULT_RETRY_PAUSE_MS = 1_000;

const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const CURSOR = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/)
  .max(4096);
const Count = z.number().int().min(0);

/** The payload a job passes to the next invocation of itself (JobContinuationPayload). */
export const ContinuationEvent = z.strictObject({
  runId: z.string().regex(RUN_ID),
  step: z.number().int().min(1),
  startedAt: z.number().int().min(0),
  attempt: z.number().int().min(0).max(MAX_ATTEMPTS),
  cursor: CURSOR.optional(),
  carry: z.unknown().optional(),
  totals: z.strictObject({ seen: Count, fixed: Count }),
});

/** An operator's manual start (`serverless invoke -f … -d '{}'`), optionally from a position. */
export const ManualStartEvent = z.strictObject({ cursor: CURSOR.optional(), carry: z.unknown().optional() });

/** What EventBridge sends on a `schedule` event (more fields may come; only these matter). */
export const ScheduledEvent = z.looseObject({
  source: z.literal('aws.events'),
  'detail-type': z.literal('Scheduled Event'),
});

export const JobEvent = z.union([ScheduledEvent, ContinuationEvent, ManualStartEvent]);

const newRunId = () => `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

function firstPayload(cursor: string | undefined, carry: unknown, now: number): JobContinuationPayload {
  return {
    runId: newRunId(),
    step: 1,
    startedAt: now,
    attempt: 0,
    ...(cursor === undefined ? {} : { cursor }),
    ...(carry === undefined ? {} : { carry }),
    totals: { seen: 0, fixed: 0 },
  };
}

const describe = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

/** Runs one step of `job` for one invocation's `event`; see the file comment. Never throws. */
export async function runJobStep<C>(job: JobDefinition<C>, event: unknown, deps: JobRunnerDeps): Promise<JobOutcome> {
  const now = deps.now ?? Date.now;
  const log = (
    level: 'info' | 'warn' | 'error',
    message: string,
    outcome: JobOutcome,
    extra: Record<string, unknown> = {},
  ) => deps.log[level](message, { ...outcome, ...extra, detail: undefined });

  const parsed = JobEvent.safeParse(event);
  if (!parsed.success) {
    const outcome: JobOutcome = {
      job: job.name,
      status: 'stopped',
      reason: 'invalid-event',
      runId: '-',
      step: 0,
      totals: { seen: 0, fixed: 0 },
    };
    log('error', 'job event rejected', outcome, {
      issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`),
    });
    return outcome;
  }
  const input = parsed.data;
  const payload: JobContinuationPayload =
    'runId' in input
      ? (input as JobContinuationPayload)
      : 'source' in input
        ? firstPayload(undefined, undefined, now())
        : firstPayload((input as { cursor?: string }).cursor, (input as { carry?: unknown }).carry, now());
  const base = { job: job.name, runId: payload.runId, step: payload.step, totals: payload.totals } as const;
  const stop = (
    reason: NonNullable<JobOutcome['reason']>,
    message: string,
    extra: Partial<JobOutcome> = {},
  ): JobOutcome => {
    const outcome: JobOutcome = {
      ...base,
      status: 'stopped',
      reason,
      ...(payload.cursor ? { cursor: payload.cursor } : {}),
      next: payload,
      ...extra,
    };
    log('error', message, outcome);
    return outcome;
  };

  if (payload.step > deps.maxSteps) return stop('max-steps', `job stopped: more than ${deps.maxSteps} steps`);
  if (now() - payload.startedAt > job.maxRunMs)
    return stop('deadline', `job stopped: past its ${job.maxRunMs} ms deadline`);
  const carry = payload.carry === undefined ? undefined : job.carry.safeParse(payload.carry);
  if (carry && !carry.success) return stop('invalid-event', 'job stopped: the continuation carry does not validate');

  const started = now();
  let result: StepResult<C>;
  try {
    result = await job.step({
      ...(payload.cursor === undefined ? {} : { cursor: payload.cursor }),
      ...(carry ? { carry: carry.data } : {}),
      rowsPerStep: deps.rowsPerStep,
    });
  } catch (err) {
    if (payload.attempt + 1 >= MAX_ATTEMPTS)
      return stop('failed', `job stopped: step failed ${MAX_ATTEMPTS} times`, { error: describe(err) });
    const retry: JobContinuationPayload = { ...payload, attempt: payload.attempt + 1 };
    const outcome: JobOutcome = { ...base, status: 'retrying', error: describe(err), next: retry };
    log('warn', 'job step failed; retrying in a fresh invocation', outcome);
    await sleep((deps.retryPauseMs ?? DEFAULT_RETRY_PAUSE_MS) * retry.attempt);
    return handOn(outcome, retry);
  }

  const totals = { seen: payload.totals.seen + result.stats.seen, fixed: payload.totals.fixed + result.stats.fixed };
  const progress: JobOutcome = {
    ...base,
    status: result.done ? 'done' : 'continued',
    ...(result.cursor === undefined ? {} : { cursor: result.cursor }),
    stats: result.stats,
    totals,
    ...(result.detail === undefined ? {} : { detail: result.detail }),
  };
  log('info', 'job step', progress, { elapsedMs: now() - started, ...(result.notes ? { notes: result.notes } : {}) });
  if (result.done) {
    log('info', 'job finished', progress, { runMs: now() - payload.startedAt, steps: payload.step });
    return progress;
  }

  const next: JobContinuationPayload = {
    runId: payload.runId,
    step: payload.step + 1,
    startedAt: payload.startedAt,
    attempt: 0,
    ...(result.cursor === undefined ? {} : { cursor: result.cursor }),
    ...(result.carry === undefined ? {} : { carry: result.carry }),
    totals,
  };
  if (next.cursor === payload.cursor && JSON.stringify(next.carry) === JSON.stringify(payload.carry)) {
    return stop('no-progress', 'job stopped: the step made no progress');
  }
  return handOn({ ...progress, next }, next);

  async function handOn(outcome: JobOutcome, nextPayload: JobContinuationPayload): Promise<JobOutcome> {
    try {
      await deps.continuation.continueWith(deps.functionName, nextPayload);
      return outcome;
    } catch (err) {
      const stopped: JobOutcome = {
        ...outcome,
        status: 'stopped',
        reason: 'continuation-failed',
        error: describe(err),
        next: nextPayload,
      };
      log('error', 'job stopped: could not hand the rest to a new invocation', stopped);
      return stopped;
    }
  }
}

/** Messages a job queues are sent this many at a time (after its scan has closed). */
const SEND_CONCURRENCY = 8;

/** Sends every message, a few at a time; returns how many were sent (a failed send throws). */
export async function sendAll(
  queue: FanoutQueue,
  messages: FanoutMessage[],
  opts?: { delaySeconds?: number },
): Promise<number> {
  await forEachLimit(messages, SEND_CONCURRENCY, (m) => queue.send(m, opts));
  return messages.length;
}
