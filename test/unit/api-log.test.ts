// test/unit/api-log.test.ts — what the local API's log says ran out of time
// (infra/local/api-log.ts), and how a load run tells timeouts among answers (test/support/timeouts.ts).
import { describe, expect, it } from 'vitest';
import { RAN_OUT_OF_TIME, countLogTimeouts, lineSplitter } from '../../infra/local/api-log.js';
import { LambdaTimeout } from '../support/api.js';
import { AnswerTally, answerTimeout, describeTimeouts } from '../support/timeouts.js';

const warn = (message: string) =>
  JSON.stringify({ level: 'WARN', message, service: 'weibo-serverless', function_name: 'weibo-local-follow' });

describe('the API log: invocations that ran out of time', () => {
  it('counts structured lines whose message is exactly the one, and the poller’s worker Lambda timeouts, each once', () => {
    const log = [
      warn(RAN_OUT_OF_TIME),
      `[sqs-poller] ${warn(RAN_OUT_OF_TIME)}`,
      warn(`${RAN_OUT_OF_TIME}?`),
      `POST /posts (λ: publishPost) ${RAN_OUT_OF_TIME}`,
      "× Unhandled Lambda Error during invoke of 'weibo-local-fanout': Error: [504] - Lambda timeout.",
      '[sqs-poller] worker weibo-local-fanout failed (Unhandled): {"errorMessage":"[504] - Lambda timeout.","errorType":"Error"}',
      '[sqs-poller] worker weibo-local-fanout failed (Unhandled): {"errorMessage":"boom","errorType":"Error"}',
      '[sqs-poller] invoke weibo-local-fanout at http://127.0.0.1:13002 failed: TimeoutError: The operation was aborted due to timeout',
    ].join('\n');
    expect(countLogTimeouts(log)).toEqual({ ranOutOfTime: 2, workerTimeouts: 1 });
  });

  it('splits a stream into lines whatever its chunks', () => {
    const lines: string[] = [];
    const feed = lineSplitter((l) => lines.push(l));
    feed('{"mess');
    feed(Buffer.from(`age":"${RAN_OUT_OF_TIME}"}\nsecond`));
    feed('\n');
    expect(lines).toEqual([`{"message":"${RAN_OUT_OF_TIME}"}`, 'second']);
  });
});

describe('answers that are timeouts', () => {
  it('the API’s 503 timeout and serverless-offline’s 504; no other 5xx', () => {
    expect(answerTimeout({ status: 503, json: { error: { code: 'timeout' } } })).toBe('api-503');
    expect(answerTimeout({ status: 504, json: { error: { code: 'EMULATOR_TIMEOUT' } } })).toBe('emulator-504');
    expect(answerTimeout({ status: 503, json: { error: { code: 'storage_unavailable' } } })).toBeUndefined();
    expect(answerTimeout({ status: 500, json: undefined })).toBeUndefined();
    const tally = new AnswerTally();
    for (const res of [
      { status: 200 },
      { status: 500 },
      { status: 503, json: { error: { code: 'timeout' } } },
      { status: 504, json: { error: { code: 'EMULATOR_TIMEOUT' } } },
    ])
      tally.add(res);
    // The test client throws serverless-offline's 504 as LambdaTimeout: still a 504 answer.
    tally.addThrown(new LambdaTimeout('PUT /users/a/following/b'));
    tally.addThrown(new TypeError('fetch failed'));
    expect(tally.describe()).toBe(
      '5 answers, 5xx: 4 (500 ×1, 503 ×1, 504 ×2); timeouts among them: 503 timeout 1, serverless-offline 504 2; 1 request(s) without an answer',
    );
    expect(describeTimeouts(tally, { ranOutOfTime: 2, workerTimeouts: 3 })).toBe(
      `ran out of time: 503 timeout answers 1, serverless-offline Lambda timeouts 5 (2 HTTP 504s + 3 worker), '${RAN_OUT_OF_TIME}' log lines 2`,
    );
  });
});
