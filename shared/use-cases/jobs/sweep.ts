// shared/use-cases/jobs/sweep.ts — the one shape of the sweeps (away-sweep.ts,
// regeneration-sweep.ts): walk one kind of mark in chunks of rowsPerStep, judge each mark, and
// queue a message for those that need one. The messages are sent after the walk's scan has
// closed, a few at a time; the worker does the work. Stateless between steps: the position is
// the only thing carried. Idempotent as long as the messages are (both sweeps' are).
import * as z from 'zod';
import type { FanoutMessage, FanoutQueue } from '../../ports/fanout-queue.js';
import type { Cursor } from '../../ports/maintenance-store.js';
import { sendAll, type JobDefinition, type StepInput, type StepResult } from './job-runner.js';

export const SweepCarry = z.strictObject({});
export type SweepCarry = z.infer<typeof SweepCarry>;

/** What a sweep makes of one mark: a message to queue, and/or the stat that counts it. */
export interface Verdict<S extends string> {
  send?: FanoutMessage;
  count?: S;
}

export interface Sweep<M extends { next: Cursor }, S extends string> {
  name: string;
  /** The run stops when this much time has passed since its first step (< the schedule interval). */
  maxRunMs: number;
  /** The stats a step reports beside seen and fixed (each starts at 0). */
  counts: readonly S[];
  marks(opts: { start?: Cursor; limit: number }): AsyncIterable<M>;
  judge(mark: M, now: number): Verdict<S>;
}

export interface SweepDeps {
  queue: FanoutQueue;
  now?: () => number;
}

export async function sweepStep<M extends { next: Cursor }, S extends string>(
  sweep: Sweep<M, S>,
  deps: SweepDeps,
  input: StepInput<SweepCarry>,
): Promise<StepResult<SweepCarry>> {
  const now = (deps.now ?? Date.now)();
  const stats: Record<string, number> & { seen: number; fixed: number } = { seen: 0, fixed: 0 };
  for (const c of sweep.counts) stats[c] = 0;
  let cursor = input.cursor;
  const messages: FanoutMessage[] = [];
  for await (const mark of sweep.marks({
    ...(input.cursor === undefined ? {} : { start: input.cursor }),
    limit: input.rowsPerStep,
  })) {
    stats.seen++;
    cursor = mark.next;
    const verdict = sweep.judge(mark, now);
    if (verdict.count !== undefined) stats[verdict.count]! += 1;
    if (verdict.send) messages.push(verdict.send);
  }
  stats.fixed = await sendAll(deps.queue, messages);
  // Fewer marks than asked: the walk is over.
  if (stats.seen === input.rowsPerStep)
    return { done: false, ...(cursor === undefined ? {} : { cursor }), carry: {}, stats };
  return { done: true, stats };
}

export function sweepJob<M extends { next: Cursor }, S extends string>(
  sweep: Sweep<M, S>,
  deps: SweepDeps,
): JobDefinition<SweepCarry> {
  return {
    name: sweep.name,
    carry: SweepCarry,
    maxRunMs: sweep.maxRunMs,
    step: (input) => sweepStep(sweep, deps, input),
  };
}
