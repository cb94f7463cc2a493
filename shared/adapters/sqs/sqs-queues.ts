// shared/adapters/sqs/sqs-queues.ts — secondary adapter: the queue ports on SQS (ElasticMQ
// locally): the fan-out queue and the media queue. One client per queue per container; warm
// invocations reuse its connections.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { FanoutMessage, FanoutQueue } from '../../ports/fanout-queue.js';
import type { MediaMessage, MediaQueue } from '../../ports/media-queue.js';
import { CORRELATION_ATTRIBUTE } from '../../observability/correlation-id.js';
import { currentScope } from '../../runtime/invocation-scope.js';
import { awsEndpointConfig } from '../aws-endpoint.js';

export interface SqsQueueOptions {
  queueUrl: string;
  /** Only for a local SQS (ElasticMQ); deployed functions use the SDK's regional endpoint. */
  endpoint?: string;
  /** Defaults to AWS_REGION (set by Lambda); us-east-1 for a local endpoint. */
  region?: string;
}

/** Sends messages of type M as JSON bodies. */
class SqsQueue<M> {
  readonly #client: SQSClient;
  readonly #queueUrl: string;

  constructor(opts: SqsQueueOptions) {
    this.#queueUrl = opts.queueUrl;
    this.#client = new SQSClient({
      ...awsEndpointConfig(opts),
      // An API request waits on this send: fail in seconds, well inside the function timeout.
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
    });
  }

  async send(message: M, opts: { delaySeconds?: number } = {}): Promise<void> {
    const delay =
      opts.delaySeconds === undefined
        ? {}
        : { DelaySeconds: Math.min(900, Math.max(0, Math.round(opts.delaySeconds))) };
    // The sender's correlation id rides as a message attribute, not in the body: the body is what
    // the worker parses and what makes a redelivery rewrite the same cells, and it stays as it was.
    const correlationId = currentScope()?.correlationId;
    const attributes = correlationId
      ? { MessageAttributes: { [CORRELATION_ATTRIBUTE]: { DataType: 'String', StringValue: correlationId } } }
      : {};
    await this.#client.send(
      new SendMessageCommand({
        QueueUrl: this.#queueUrl,
        MessageBody: JSON.stringify(message),
        ...delay,
        ...attributes,
      }),
    );
  }
}

export class SqsFanoutQueue extends SqsQueue<FanoutMessage> implements FanoutQueue {}

export class SqsMediaQueue extends SqsQueue<MediaMessage> implements MediaQueue {}
