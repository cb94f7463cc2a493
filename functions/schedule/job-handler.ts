// functions/schedule/job-handler.ts — the glue every scheduled job handler shares: build the
// job from its ports (shared/wiring/jobs.ts), run ONE step for this invocation's event (an EventBridge
// scheduled event, a `{cursor, carry, …}` continuation from the previous step, or `{}` for a
// manual start; zod-validated in the runner) and hand the rest on to this same function.
// Never throws (see shared/use-cases/jobs/job-runner.ts): failures are logged and returned.
// Instrumented like every function (shared/observability/invocation.ts); a step's log lines
// carry the invocation's request id as their correlation id.
//
// Out of time: a step that fails on the deadline is retried like any failed step (the runner),
// and noted for the invocation's one out-of-time report; a step still running at the deadline is
// answered for with a `stopped` outcome (reason `out-of-time`, the payload it was given to
// resume by hand): the run ends there, and the next scheduled run starts over (every job is
// idempotent).
import type { JobDependencies } from '../../shared/use-cases/jobs/job-deps.js';
import { jobDependencies } from '../../shared/wiring/jobs.js';
import { logger } from '../../shared/logging/logger.js';
import { observedHandler } from '../../shared/observability/invocation.js';
import { noteIfOutOfTime } from '../../shared/observability/out-of-time.js';
import {
  ContinuationEvent,
  runJobStep,
  type JobDefinition,
  type JobOutcome,
} from '../../shared/use-cases/jobs/job-runner.js';

/** What a job invocation answers when its step was still running at the deadline. */
function outOfTimeOutcome(name: string, event: unknown): JobOutcome {
  const given = ContinuationEvent.safeParse(event);
  const position = given.success
    ? { runId: given.data.runId, step: given.data.step, totals: given.data.totals, next: given.data }
    : { runId: '-', step: 0, totals: { seen: 0, fixed: 0 } };
  return { job: name, status: 'stopped', reason: 'out-of-time', ...position };
}

export function scheduledJob<C>(name: string, build: (deps: JobDependencies) => JobDefinition<C>) {
  return observedHandler(
    async (event: unknown, context): Promise<JobOutcome> => {
      let deps: JobDependencies;
      let job: JobDefinition<C>;
      try {
        deps = jobDependencies();
        const built = build(deps);
        job = {
          ...built,
          step: (input) =>
            built.step(input).catch((err: unknown) => {
              noteIfOutOfTime(err);
              throw err;
            }),
        };
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        const outcome: JobOutcome = {
          job: name,
          status: 'stopped',
          reason: 'failed',
          error,
          runId: '-',
          step: 0,
          totals: { seen: 0, fixed: 0 },
        };
        logger.error('job could not start', { ...outcome });
        return outcome;
      }
      return runJobStep(job, event, {
        continuation: deps.continuation,
        log: logger,
        rowsPerStep: deps.limits.rowsPerStep,
        maxSteps: deps.limits.maxSteps,
        // The deployed `<service>-<stage>-<fn>`; serverless-offline sets both the same way.
        functionName: context.functionName || process.env.AWS_LAMBDA_FUNCTION_NAME || '',
      });
    },
    { whenOutOfTime: (event) => outOfTimeOutcome(name, event) },
  );
}
