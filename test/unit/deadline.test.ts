// test/unit/deadline.test.ts — the invocation deadline the HBase client obeys
// (shared/runtime/deadline.ts), carried by the invocation scope every handler runs in.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { inInvocation } from '../../shared/observability/invocation.js';
import { runWithCorrelationId } from '../../shared/runtime/invocation-scope.js';
import { RESERVE_MS, currentDeadline, deadlineOf } from '../../shared/runtime/deadline.js';

const contextWith = (ms: number) => ({ awsRequestId: `r-${ms}`, getRemainingTimeInMillis: () => ms }) as unknown as Context;

describe('invocation deadline', () => {
  it('is the time Lambda gives minus the reserve; none without a clock', () => {
    expect(deadlineOf({ getRemainingTimeInMillis: () => 10_000 }, 1_000_000)).toBe(1_000_000 + 10_000 - RESERVE_MS);
    expect(deadlineOf(undefined)).toBeUndefined();
    expect(deadlineOf({})).toBeUndefined();
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
