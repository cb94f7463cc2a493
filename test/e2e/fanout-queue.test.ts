// test/e2e/fanout-queue.test.ts — the fan-out queue's delivery contract through the real
// queue (ElasticMQ), our poller and the real worker under serverless-offline: a duplicate
// delivery is harmless, and a failing record is retried alone until the DLQ takes it. A file of
// its own because the DLQ test waits out maxReceiveCount visibility timeouts (about 90 s of
// waiting): the test sequencer starts it first in its group, beside the busy files.
import { ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { userKey } from '../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../shared/schema/tables.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { handledFor, handledTypes, newCorrelationId } from '../support/queue.js';

const api = apiClient(inject('apiUrl'));
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl') });
const sqs = new SQSClient({
  endpoint: inject('sqsEndpoint'),
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
afterAll(async () => {
  sqs.destroy();
  await hbase.close();
});

type User = { handle: string; token: string };
const post = async (u: User, body: string) => {
  const res = await api.call('POST', '/posts', { token: u.token, body: { body } });
  if (res.status !== 201 || typeof res.json?.id !== 'string') throw new Error(`publish: ${res.status} ${res.text}`);
  return res.json as { id: string };
};
const followUser = (u: User, target: string) =>
  api.call('PUT', `/users/${u.handle}/following/${target}`, { token: u.token });
const timeline = (u: User) => api.call('GET', `/users/${u.handle}/timeline`, { token: u.token });
const bodies = (res: ApiResponse) => (res.json.posts as { body: string }[]).map((p) => p.body);

beforeAll(() => {
  // Fail fast with a clear message if the setup did not wire the queue.
  expect(inject('fanoutQueueUrl')).toMatch(/^http/);
});

describe('the fan-out queue', () => {
  const queueUrl = () => inject('fanoutQueueUrl');
  /** The worker handles a message under the correlation id its sender attached (the API's way). */
  const tagged = (correlationId: string) => ({ correlationId: { DataType: 'String', StringValue: correlationId } });
  const send = (body: unknown, correlationId: string) =>
    sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl(),
        MessageBody: JSON.stringify(body),
        MessageAttributes: tagged(correlationId),
      }),
    );

  it('a fan-out message delivered twice leaves exactly one inbox entry', async () => {
    const [author, reader] = [await api.newUser('dd_a'), await api.newUser('dd_r')];
    await followUser(reader, author.handle);
    const p = await post(author, 'delivered twice');
    const twice = newCorrelationId('twice');
    await send({ v: 1, type: 'fanout', postId: p.id }, twice);
    await send({ v: 1, type: 'fanout', postId: p.id }, twice);
    await eventually(async () => expect(bodies(await timeline(reader))).toEqual(['delivered twice']));
    await handledFor(inject('offlineLogFile'), twice, { fanout: 2 }); // the duplicate has been processed too
    const row = await hbase.getRow(qualifiedTableName(inject('e2eNamespace'), 'inbox'), userKey(reader.handle), {
      columns: ['i'],
    });
    expect(row?.cells).toHaveLength(1);
    expect(bodies(await timeline(reader))).toEqual(['delivered twice']);
  });

  it('a failing record in a batch is retried alone and ends in the DLQ; the others are handled once', async () => {
    const [author, reader] = [await api.newUser('pb_a'), await api.newUser('pb_r')];
    await followUser(reader, author.handle);
    const good = [await post(author, 'good 1'), await post(author, 'good 2')];
    const poison = `poison-${Date.now()}`;
    const batch = newCorrelationId('batch');
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl(),
        Entries: [
          {
            Id: 'g1',
            MessageBody: JSON.stringify({ v: 1, type: 'fanout', postId: good[0]!.id }),
            MessageAttributes: tagged(batch),
          },
          {
            Id: 'bad',
            MessageBody: JSON.stringify({ v: 1, type: 'explode', marker: poison }),
            MessageAttributes: tagged(batch),
          },
          {
            Id: 'g2',
            MessageBody: JSON.stringify({ v: 1, type: 'fanout', postId: good[1]!.id }),
            MessageAttributes: tagged(batch),
          },
        ],
      }),
    );
    await eventually(async () => expect(bodies(await timeline(reader))).toEqual(['good 2', 'good 1']));
    // Only the poison message is redelivered until maxReceiveCount, then it sits in the DLQ.
    const dlq = inject('fanoutDlqUrl');
    const inDlq = await eventually(async () => {
      const res = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: dlq, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 1 }),
      );
      const hit = (res.Messages ?? []).find((m) => m.Body?.includes(poison));
      if (!hit) throw new Error('poison message not in the DLQ yet');
      return hit;
    }, 150_000);
    expect(JSON.parse(inDlq.Body!)).toMatchObject({ type: 'explode' });
    // The good two were handled once each, by their first delivery (a redelivered batch would
    // have handled them again); the poison one never (it is in the DLQ, not in the queue).
    expect(handledTypes(inject('offlineLogFile'), batch)).toEqual(['fanout', 'fanout']);
    expect(bodies(await timeline(reader))).toEqual(['good 2', 'good 1']);
  }, 200_000);
});
