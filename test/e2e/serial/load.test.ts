// test/e2e/serial/load.test.ts — the sustained-load run (test/load/workload.ts, `npm run load`) in short:
// 10 s of the mixed workload against the e2e API, with both bursts (100 concurrent follows of one
// user, 100 concurrent likes of one post), then the drained queue and the model comparison. Not
// one error (no answer, 5xx, 429, serverless-offline's own failure answer) and not one mismatch.
// In the serial e2e project: it waits for the whole queue to drain.
import { describe, expect, inject, it } from 'vitest';
import { runLoad } from '../../load/workload.js';

/** Low enough that the run measures correctness, not this machine's ceiling (npm run load finds that). */
const RATE = 6;
const CONCURRENCY = 8;

describe('sustained load', () => {
  it('10 s of mixed load with bursts of 100: no error, and the drained system equals the model', async () => {
    const report = await runLoad({
      apiUrl: inject('apiUrl'),
      sqsEndpoint: inject('sqsEndpoint'),
      queueUrl: inject('fanoutQueueUrl'),
      rate: RATE,
      durationSeconds: 10,
      concurrency: CONCURRENCY,
      users: 10,
      burst: 100,
      seed: Math.floor(Math.random() * 1_000_000),
      drainTimeoutSeconds: 150,
      log: (line) => console.log(`[load] ${line}`),
    });
    console.log(
      `[load] seed ${report.seed}: ${report.achievedRate}/s achieved of ${report.targetRate}/s, ${report.requests.run} run + ${report.requests.burst} burst requests, ` +
        `max ${report.maxInFlight} in flight; ${report.routes.map((r) => `${r.route} p50 ${r.p50Ms} p99 ${r.p99Ms} ms`).join('; ')}`,
    );
    expect(report.bursts.map((b) => b.requests)).toEqual([100, 100]);
    expect(report.arrivals).toBeGreaterThan(RATE * 10 * 0.9);
    expect({ errors: report.errors, samples: report.errorSamples }).toEqual({ errors: 0, samples: [] });
    expect(report.mismatches).toEqual([]);
  }, 600_000);
});
