// test/support/job-driver.ts — runs a scheduled job to completion in-process, exactly as the
// deployed handlers chain: each step's continuation payload goes through JSON (as the Lambda
// Invoke payload does) and becomes the next step's event.
import type { JobContinuationPayload } from '../../shared/ports/job-continuation.js';
import {
  runJobStep,
  type JobDefinition,
  type JobLog,
  type JobOutcome,
} from '../../shared/use-cases/jobs/job-runner.js';

export const silentLog: JobLog = { info() {}, warn() {}, error() {} };

export const SCHEDULED_EVENT = {
  version: '0',
  id: '7bf73129-1428-4cd3-a780-95db273d1602',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  time: '2026-11-21T09:00:00Z',
  region: 'eu-west-1',
  resources: ['arn:aws:events:eu-west-1:123456789012:rule/weibo-dev-trim'],
  detail: {},
};

export async function runToCompletion<C>(
  job: JobDefinition<C>,
  opts: { rowsPerStep: number; maxSteps?: number; log?: JobLog },
): Promise<{ outcomes: JobOutcome[]; payloads: JobContinuationPayload[] }> {
  const pending: JobContinuationPayload[] = [];
  const payloads: JobContinuationPayload[] = [];
  const continuation = {
    async continueWith(functionName: string, payload: JobContinuationPayload) {
      if (functionName !== 'weibo-test-job') throw new Error(`continued into ${functionName}`);
      const copy = JSON.parse(JSON.stringify(payload)) as JobContinuationPayload;
      pending.push(copy);
      payloads.push(copy);
    },
  };
  const outcomes: JobOutcome[] = [];
  let event: unknown = SCHEDULED_EVENT;
  const maxSteps = opts.maxSteps ?? 10_000;
  for (;;) {
    const outcome = await runJobStep(job, event, {
      continuation,
      log: opts.log ?? silentLog,
      rowsPerStep: opts.rowsPerStep,
      maxSteps,
      functionName: 'weibo-test-job',
      retryPauseMs: 0,
    });
    outcomes.push(outcome);
    const next = pending.shift();
    if (!next) return { outcomes, payloads };
    event = next;
  }
}
