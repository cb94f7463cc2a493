// shared/ports/job-continuation.ts — how a scheduled job hands the rest of its work to a fresh
// invocation of itself (asynchronous Lambda Invoke in production, serverless-offline's Lambda
// port locally: shared/adapters/lambda/lambda-job-continuation.ts). Unit tests record calls.

/** What one step of a job passes to the next (validated with zod by the job runner). */
export interface JobContinuationPayload {
  runId: string;
  /** The step the receiving invocation runs, 1-based. */
  step: number;
  /** Millis when the run's first step started (the run's deadline counts from here). */
  startedAt: number;
  /** Failed tries of this step so far (a failed step is retried a bounded number of times). */
  attempt: number;
  /** The store position the step resumes at; absent = the beginning. */
  cursor?: string;
  /** Job-specific state carried across the boundary (e.g. partial counts of a user). */
  carry?: unknown;
  /** Running totals of the run, for the final log line. */
  totals: { seen: number; fixed: number };
}

export interface JobContinuation {
  /** Starts `functionName` asynchronously with `payload`; resolves once the invoke was accepted. */
  continueWith(functionName: string, payload: JobContinuationPayload): Promise<void>;
}
