// infra/queue-settings.d.cts — types for infra/queue-settings.cjs (load it with createRequire).

export type QueueKind = 'fanout' | 'media';

export interface QueueSettings {
  readonly stage: string;
  readonly queue: QueueKind;
  readonly queueName: string;
  readonly deadLetterQueueName: string;
  readonly workerTimeoutSeconds: number;
  readonly batchSize: number;
  readonly maximumBatchingWindowSeconds: number;
  readonly visibilityTimeoutSeconds: number;
  readonly maxReceiveCount: number;
  readonly messageRetentionSeconds: number;
  readonly deadLetterRetentionSeconds: number;
}

export interface QueueEnvironment {
  FANOUT_QUEUE_URL: string | { Ref: 'FanoutQueue' };
  MEDIA_QUEUE_URL: string | { Ref: 'MediaQueue' };
  SQS_ENDPOINT: string;
  /** Read by the dead-letter report job. */
  FANOUT_DLQ_URL: string | { Ref: 'FanoutDeadLetterQueue' };
  /** serverless-offline's Lambda port locally; '' when deployed. */
  LAMBDA_ENDPOINT: string;
}

export declare const LOCAL_STAGES: readonly string[];
export declare const ELASTICMQ_ACCOUNT_ID: string;
export declare const QUEUES: Readonly<Record<QueueKind, unknown>>;
export declare function isLocalStage(stage: string): boolean;
export declare function queueSettings(stage: string, opts?: { queue?: QueueKind; queueName?: string }): QueueSettings;
export declare function localSqsEndpoint(env?: NodeJS.ProcessEnv): string;
export declare function localQueueUrl(endpoint: string, queueName: string): string;
export declare function functionEnvironment(stage: string, env?: NodeJS.ProcessEnv): QueueEnvironment;
export declare function forStage(resolver: {
  resolveVariable(variable: string): Promise<unknown>;
}): Promise<QueueSettings & { media: QueueSettings; environment: QueueEnvironment }>;
