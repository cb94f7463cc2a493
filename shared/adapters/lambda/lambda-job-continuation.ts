// shared/adapters/lambda/lambda-job-continuation.ts — secondary adapter: the JobContinuation
// port as an asynchronous Lambda Invoke (InvocationType 'Event') of the job's own function.
// Deployed: the SDK's regional endpoint and the function's role, which may invoke only the job
// functions (serverless.yml). Locally: serverless-offline's Lambda port (LAMBDA_ENDPOINT), which
// accepts 'Event' invokes (202) and runs the handler without waiting for it.
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { JobContinuation, JobContinuationPayload } from '../../ports/job-continuation.js';
import { awsEndpointConfig } from '../aws-endpoint.js';

export interface LambdaJobContinuationOptions {
  /** serverless-offline's Lambda endpoint, e.g. http://127.0.0.1:13002; unset when deployed. */
  endpoint?: string;
  /** Defaults to AWS_REGION (set by Lambda); us-east-1 for a local endpoint. */
  region?: string;
}

export class LambdaJobContinuation implements JobContinuation {
  readonly #client: LambdaClient;

  constructor(opts: LambdaJobContinuationOptions = {}) {
    this.#client = new LambdaClient({
      ...awsEndpointConfig(opts),
      // One attempt: an invoke whose reply was lost may still have started the next step, and
      // a retry would then run two chains. A failed hand-on stops the run (logged with the
      // payload to resume from); the next scheduled run starts over.
      maxAttempts: 1,
      requestHandler: { connectionTimeout: 2_000, requestTimeout: 10_000 },
    });
  }

  async continueWith(functionName: string, payload: JobContinuationPayload): Promise<void> {
    const out = await this.#client.send(
      new InvokeCommand({
        FunctionName: functionName,
        InvocationType: 'Event',
        Payload: Buffer.from(JSON.stringify(payload)),
      }),
    );
    if (out.StatusCode !== 202 || out.FunctionError) {
      throw new Error(
        `asynchronous invoke of ${functionName} answered ${out.StatusCode ?? '?'}${out.FunctionError ? ` (${out.FunctionError})` : ''}`,
      );
    }
  }
}
