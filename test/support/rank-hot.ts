// test/support/rank-hot.ts — runs the rank-hot job now, on the offline Lambda port, as its
// schedule would (end-to-end and browser tests): the hot feed shows the ranking it writes.
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { expect } from 'vitest';

export async function rankHotNow(lambdaEndpoint: string): Promise<void> {
  const lambda = new LambdaClient({
    endpoint: lambdaEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    const out = await lambda.send(
      new InvokeCommand({ FunctionName: 'weibo-local-rankHot', InvocationType: 'RequestResponse', Payload: '{}' }),
    );
    const outcome = JSON.parse(Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8'));
    expect(outcome).toMatchObject({ job: 'rank-hot', status: 'done' });
  } finally {
    lambda.destroy();
  }
}
