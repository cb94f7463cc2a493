// test/unit/chaos-load.test.ts — the pure parts of `npm run load -- --chaos` (test/load/chaos.ts):
// the seed's schedule of faults, and the client's patience past a REST gateway restart (a write
// that gets 503s is sent again for as long as resendFor allows, not just three times).
import { afterEach, describe, expect, it } from 'vitest';
import { chaosSchedule, isLoss } from '../load/chaos.js';
import type { ApiResponse } from '../support/api.js';
import { resendFor, sendUntilAnswered } from '../support/model/http.js';

const answer = (status: number, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: new Headers(headers),
  text: '',
  json: undefined,
});

describe('chaosSchedule', () => {
  it('is the seed’s: the same faults for the same seed, a restart second and every third fault, kills between', () => {
    const plan = chaosSchedule(7);
    expect(chaosSchedule(7)).toEqual(plan);
    expect(chaosSchedule(8)).not.toEqual(plan);
    expect(plan.map((f) => f.kind).slice(0, 5)).toEqual([
      'worker kill',
      'gateway restart',
      'worker kill',
      'worker kill',
      'gateway restart',
    ]);
    for (const f of plan) {
      expect(f.gapMs).toBeGreaterThanOrEqual(3_000);
      expect(f.gapMs).toBeLessThanOrEqual(8_000);
      if (f.kind === 'gateway restart') expect(f.awayMs).toBeGreaterThanOrEqual(1_000);
      else expect(f.afterMs).toBeLessThanOrEqual(150);
    }
  });

  it('counts a finding that something is gone as lost, and a wrong count not', () => {
    expect(isLoss('timeline of a (pages of 3) is missing #4 by b: followed since w2')).toBe(true);
    expect(isLoss('following of c lacks a (history)')).toBe(true);
    expect(isLoss('profile of a: followers 3, model 4')).toBe(false);
  });
});

describe('sendUntilAnswered past a gateway restart', () => {
  afterEach(() => resendFor(0));

  it('sends a write again while it gets 503 with Retry-After, for as long as resendFor allows', async () => {
    resendFor(10_000);
    const answers = [503, 503, 503, 200];
    let sends = 0;
    const { res, resent } = await sendUntilAnswered(async () => answer(answers[sends++]!, { 'retry-after': '1' }));
    expect(res.status).toBe(200);
    expect(resent).toBe(true);
    expect(sends).toBe(4);
  }, 15_000);
});
