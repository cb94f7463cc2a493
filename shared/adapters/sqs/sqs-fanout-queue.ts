// shared/adapters/sqs/sqs-fanout-queue.ts — secondary adapter: the FanoutQueue port on SQS
// (ElasticMQ locally). One client per container; warm invocations reuse its connections.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { FanoutMessage, FanoutQueue } from '../../ports/fanout-queue.js';

export interface SqsFanoutQueueOptions {
  queueUrl: string;
  /** Only for a local SQS (ElasticMQ); deployed functions use the SDK's regional endpoint. */
  endpoint?: string;
  /** Defaults to AWS_REGION (set by Lambda); us-east-1 for a local endpoint. */
  region?: string;
}

// ElasticMQ ignores signatures, but the SDK insists on signing: static dummy keys, so a local
// run never goes looking for (or uses) a developer's real AWS credentials.
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export class SqsFanoutQueue implements FanoutQueue {
  readonly #client: SQSClient;
  readonly #queueUrl: string;

  constructor(opts: SqsFanoutQueueOptions) {
    this.#queueUrl = opts.queueUrl;
    const region = opts.region ?? (opts.endpoint ? 'us-east-1' : undefined);
    this.#client = new SQSClient({
      ...(region ? { region } : {}),
      ...(opts.endpoint ? { endpoint: opts.endpoint, credentials: LOCAL_CREDENTIALS } : {}),
      // An API request waits on this send: fail in seconds, well inside the function timeout.
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
    });
  }

  async send(message: FanoutMessage): Promise<void> {
    await this.#client.send(new SendMessageCommand({ QueueUrl: this.#queueUrl, MessageBody: JSON.stringify(message) }));
  }
}
