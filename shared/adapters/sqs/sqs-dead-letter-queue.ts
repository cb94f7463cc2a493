// shared/adapters/sqs/sqs-dead-letter-queue.ts — secondary adapter: the DeadLetterQueue port on
// SQS (ElasticMQ locally), read-only. Needs sqs:GetQueueAttributes and sqs:ReceiveMessage on
// the DLQ (serverless.yml); it never deletes, so it is never granted sqs:DeleteMessage there.
import { GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DeadLetter, DeadLetterQueue } from '../../ports/dead-letter-queue.js';
import { awsEndpointConfig } from '../aws-endpoint.js';

export interface SqsDeadLetterQueueOptions {
  queueUrl: string;
  /** Only for a local SQS (ElasticMQ); deployed functions use the SDK's regional endpoint. */
  endpoint?: string;
  region?: string;
  /** How long peeked messages stay hidden from other readers; short, as nothing is deleted. */
  visibilityTimeoutSeconds?: number;
}

const count = (v: string | undefined) => {
  const n = Number(v ?? '0');
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};

export class SqsDeadLetterQueue implements DeadLetterQueue {
  readonly name: string;
  readonly #client: SQSClient;
  readonly #queueUrl: string;
  readonly #visibility: number;

  constructor(opts: SqsDeadLetterQueueOptions) {
    this.#queueUrl = opts.queueUrl;
    this.name = opts.queueUrl.replace(/\/+$/, '').split('/').at(-1) ?? opts.queueUrl;
    this.#visibility = opts.visibilityTimeoutSeconds ?? 5;
    this.#client = new SQSClient({
      ...awsEndpointConfig(opts),
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 2_000, requestTimeout: 10_000 },
    });
  }

  async counts(): Promise<{ visible: number; inFlight: number }> {
    const out = await this.#client.send(
      new GetQueueAttributesCommand({
        QueueUrl: this.#queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return {
      visible: count(out.Attributes?.ApproximateNumberOfMessages),
      inFlight: count(out.Attributes?.ApproximateNumberOfMessagesNotVisible),
    };
  }

  async peek(max: number): Promise<DeadLetter[]> {
    const out = await this.#client.send(
      new ReceiveMessageCommand({
        QueueUrl: this.#queueUrl,
        MaxNumberOfMessages: Math.min(Math.max(1, max), 10),
        VisibilityTimeout: this.#visibility,
        // A short long-poll: SQS then asks every server instead of a sample of them.
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ['SentTimestamp', 'ApproximateReceiveCount'],
      }),
    );
    return (out.Messages ?? []).map((m) => {
      const sent = Number(m.Attributes?.SentTimestamp);
      const received = Number(m.Attributes?.ApproximateReceiveCount);
      return {
        body: m.Body ?? '',
        sentAt: Number.isSafeInteger(sent) && sent > 0 ? sent : null,
        receiveCount: Number.isSafeInteger(received) ? received : null,
      };
    });
  }
}
