// test/unit/deadline.test.ts — the invocation deadline the HBase client obeys
// (shared/runtime/deadline.ts), carried by the invocation scope every handler runs in.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { inInvocation } from '../../shared/observability/invocation.js';
import { runWithCorrelationId } from '../../shared/runtime/invocation-scope.js';
import {
  CLOCK_SKEW_MS,
  LANDING_MS,
  RESERVE_MS,
  currentDeadline,
  deadlineOf,
  operationBudgetMs,
} from '../../shared/runtime/deadline.js';
import { runWithinBudget } from '../../shared/runtime/invocation-scope.js';

const contextWith = (ms: number) =>
  ({ awsRequestId: `r-${ms}`, getRemainingTimeInMillis: () => ms }) as unknown as Context;

describe('invocation deadline', () => {
  it('is the time Lambda gives minus the reserve; none without a clock', () => {
    expect(deadlineOf({ getRemainingTimeInMillis: () => 10_000 }, 1_000_000)).toBe(1_000_000 + 10_000 - RESERVE_MS);
    expect(deadlineOf(undefined)).toBeUndefined();
    expect(deadlineOf({})).toBeUndefined();
  });

  it('is no later than the operation budget from the start, when the invocation has one', () => {
    const ctx = { getRemainingTimeInMillis: () => 10_000 };
    expect(deadlineOf(ctx, 1_000_000, 4_000)).toBe(1_004_000);
    expect(deadlineOf(ctx, 1_000_000, 60_000)).toBe(1_000_000 + 10_000 - RESERVE_MS);
    expect(deadlineOf(undefined, 1_000_000, 4_000)).toBe(1_004_000);
  });

  it('leaves room, within the settle window, for the tally: W ≥ 2B + landing + skew', () => {
    for (const w of [15_000, 20_000, 60_000]) {
      const b = operationBudgetMs(w);
      expect(b).toBeGreaterThan(0);
      expect(2 * b + LANDING_MS + CLOCK_SKEW_MS).toBeLessThanOrEqual(w);
    }
  });

  it('a part run within a budget gets the earlier of the two deadlines, and the invocation keeps its own', async () => {
    const handler = inInvocation(
      () => 'cid',
      async () => {
        // The invocation began at or before this instant (and after `started`, below).
        const inside = Date.now();
        const own = currentDeadline()!;
        // Timed around the call itself: a loaded machine may take long to get here.
        const before = Date.now();
        const inner = await runWithinBudget(500, async () => currentDeadline()!);
        const afterInner = Date.now();
        const wider = await runWithinBudget(60_000, async () => currentDeadline()!);
        return { inside, own, inner, before, afterInner, wider, after: currentDeadline()! };
      },
      { budgetMs: () => 5_000 },
    );
    const started = Date.now();
    const { inside, own, inner, before, afterInner, wider, after } = await handler(undefined, contextWith(9_000));
    // The budget (5 s) is the earlier bound, counted from the invocation's start.
    expect(own).toBeGreaterThanOrEqual(started + 5_000);
    expect(own).toBeLessThanOrEqual(inside + 5_000);
    expect(inner).toBeGreaterThanOrEqual(before + 500);
    expect(inner).toBeLessThanOrEqual(afterInner + 500);
    expect(inner).toBeLessThan(own);
    expect(wider).toBe(own);
    expect(after).toBe(own);
  });

  it('reaches everything a handler awaits (its records too), keeps side-by-side invocations apart, and nothing outside', async () => {
    const handler = inInvocation(
      () => 'cid',
      async (ms: number) => {
        await sleep(20 - ms / 1000);
        // A queue record runs under its own correlation id, still inside the invocation's deadline.
        const inRecord = await runWithCorrelationId('record', async () => currentDeadline());
        expect(inRecord).toBe(currentDeadline());
        return currentDeadline()! - Date.now();
      },
    );
    const [short, long] = await Promise.all([handler(2_000, contextWith(2_000)), handler(9_000, contextWith(9_000))]);
    expect(short).toBeLessThanOrEqual(2_000 - RESERVE_MS);
    expect(short).toBeGreaterThan(2_000 - RESERVE_MS - 200);
    expect(long).toBeGreaterThan(9_000 - RESERVE_MS - 200);
    expect(currentDeadline()).toBeUndefined();
  });
});
