// infra/queue-settings.cjs — the one source of the queue numbers and names: the fan-out queue
// and the media queue (pictures: one image per invocation). Read by serverless
// (`${file(infra/queue-settings.cjs):forStage.<key>}`, the media queue under `forStage.media.<key>`)
// for CloudFormation and the workers' event mappings, and by Node code (createRequire) for the
// local queues and the poller. Each queue's numbers derive from one value per stage, its worker's timeout.
'use strict';

/** The stage that runs on this machine (ElasticMQ, serverless-offline) and wants redelivery in seconds. */
const LOCAL_STAGES = Object.freeze(['local']);
/** stack.sh's ElasticMQ (port ELASTICMQ_PORT, default 19324; account 000000000000). */
const ELASTICMQ_ACCOUNT_ID = '000000000000';
const SERVICE = 'weibo';

const isLocalStage = (stage) => LOCAL_STAGES.includes(stage);

/**
 * What differs between the queues. Fan-out: a batch of HBase writes per message, five tries.
 * Media: decoding and resizing one image (up to 40 megapixels) per invocation, so its own
 * timeout, batch size 1 (one image at a time bounds the worker's memory) and three tries (an
 * image that fails three times is broken, not unlucky; the worker marks bad input `failed` itself).
 */
const QUEUES = Object.freeze({
  fanout: Object.freeze({
    suffix: 'fanout',
    // Deployed: room for a batch of HBase fan-out work. Local: small, so a failed message comes
    // back (and a poison one reaches the DLQ) within seconds in e2e tests.
    workerTimeoutSeconds: { local: 3, deployed: 30 },
    batchSize: 10,
    // Deployed: wait up to 1 s to fill a batch (fewer invocations); locally deliver at once.
    maximumBatchingWindowSeconds: { local: 0, deployed: 1 },
    // Five tries absorb throttling and transient HBase errors before a message counts as poison.
    maxReceiveCount: 5,
  }),
  media: Object.freeze({
    suffix: 'media',
    // Deployed: the largest allowed image decoded, rotated, and written in three sizes with room
    // to spare. Local: the worst allowed picture (an animated GIF near 40 megapixels of frames)
    // took 13–16 s on this busy 2-core machine (test/bench/media-memory.ts), animated WebP
    // encoding most of it.
    workerTimeoutSeconds: { local: 30, deployed: 60 },
    batchSize: 1,
    // One message a batch: nothing to wait for.
    maximumBatchingWindowSeconds: { local: 0, deployed: 0 },
    maxReceiveCount: 3,
  }),
});

function queueNames(stage, queueName, suffix = QUEUES.fanout.suffix) {
  const name = queueName || `${SERVICE}-${stage}-${suffix}`;
  if (!/^[A-Za-z0-9_-]{1,76}$/.test(name)) throw new Error(`queue-settings: invalid queue name "${name}"`);
  return { queueName: name, deadLetterQueueName: `${name}-dlq` };
}

/**
 * LOCAL_FANOUT_TIMEOUT_SECONDS: the local fan-out worker's timeout for one run (the live bench
 * runs it with the deployed 30 s: the local 3 s is tuned for quick redelivery in tests). Local
 * stages only; the queue's visibility timeout follows it, as everywhere.
 */
function localTimeoutOverride(where, queue, env = process.env) {
  const raw = env.LOCAL_FANOUT_TIMEOUT_SECONDS;
  if (where !== 'local' || queue !== 'fanout' || raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 900)
    throw new Error(`queue-settings: LOCAL_FANOUT_TIMEOUT_SECONDS must be an integer 1..900, got "${raw}"`);
  return seconds;
}

/**
 * The numbers of one queue (`opts.queue`: 'fanout', the default, or 'media') for `stage`.
 * `opts.queueName` overrides the main queue's name (tests use one queue per run); the DLQ is
 * always `<queueName>-dlq`.
 */
function queueSettings(stage, opts = {}) {
  if (typeof stage !== 'string' || stage === '') throw new Error('queue-settings: stage is required');
  const queue = opts.queue ?? 'fanout';
  const spec = QUEUES[queue];
  if (!spec) throw new Error(`queue-settings: unknown queue "${queue}" (one of ${Object.keys(QUEUES).join(', ')})`);
  const where = isLocalStage(stage) ? 'local' : 'deployed';
  const workerTimeoutSeconds = localTimeoutOverride(where, queue) ?? spec.workerTimeoutSeconds[where];
  const maximumBatchingWindowSeconds = spec.maximumBatchingWindowSeconds[where];
  return Object.freeze({
    stage,
    queue,
    ...queueNames(stage, opts.queueName, spec.suffix),
    workerTimeoutSeconds,
    batchSize: spec.batchSize,
    maximumBatchingWindowSeconds,
    // AWS guidance for Lambda consumers: at least 6 × the function timeout, plus the batching
    // window, so a batch still being retried by Lambda is never handed out twice.
    visibilityTimeoutSeconds: 6 * workerTimeoutSeconds + maximumBatchingWindowSeconds,
    maxReceiveCount: spec.maxReceiveCount,
    messageRetentionSeconds: 4 * 24 * 3600, // 345600: the SQS default, stated
    // The SQS maximum: two weeks to notice the alarm, fix the bug and redrive.
    deadLetterRetentionSeconds: 14 * 24 * 3600, // 1209600
  });
}

/** The SQS endpoint of the local stack (SQS_ENDPOINT, else stack.sh's ElasticMQ port). */
function localSqsEndpoint(env = process.env) {
  return env.SQS_ENDPOINT || `http://127.0.0.1:${env.ELASTICMQ_PORT || '19324'}`;
}

/** ElasticMQ's URL for a queue (the node-address stack.sh configures). */
function localQueueUrl(endpoint, queueName) {
  return `${endpoint.replace(/\/+$/, '')}/${ELASTICMQ_ACCOUNT_ID}/${queueName}`;
}

/**
 * The functions' queue environment. Deployed: the CloudFormation queues' URLs and no endpoint
 * override. Local stages: ElasticMQ; FANOUT_QUEUE_URL and MEDIA_QUEUE_URL from the environment
 * win (tests run queues of their own per run).
 * The scheduled jobs also read FANOUT_DLQ_URL (the dead-letter report) and LAMBDA_ENDPOINT
 * (a job hands the rest of its work to a new invocation of itself): serverless-offline's Lambda
 * port locally, empty when deployed (the SDK's regional endpoint).
 */
function functionEnvironment(stage, env = process.env) {
  if (!isLocalStage(stage)) {
    return {
      FANOUT_QUEUE_URL: { Ref: 'FanoutQueue' },
      MEDIA_QUEUE_URL: { Ref: 'MediaQueue' },
      SQS_ENDPOINT: '',
      FANOUT_DLQ_URL: { Ref: 'FanoutDeadLetterQueue' },
      LAMBDA_ENDPOINT: '',
    };
  }
  const endpoint = localSqsEndpoint(env);
  const settings = queueSettings(stage);
  return {
    FANOUT_QUEUE_URL: env.FANOUT_QUEUE_URL || localQueueUrl(endpoint, settings.queueName),
    MEDIA_QUEUE_URL: env.MEDIA_QUEUE_URL || localQueueUrl(endpoint, queueSettings(stage, { queue: 'media' }).queueName),
    SQS_ENDPOINT: endpoint,
    // The DLQ is always `<queueName>-dlq` in the same ElasticMQ, so it follows an overridden queue URL.
    FANOUT_DLQ_URL:
      env.FANOUT_DLQ_URL ||
      (env.FANOUT_QUEUE_URL ? `${env.FANOUT_QUEUE_URL}-dlq` : localQueueUrl(endpoint, settings.deadLetterQueueName)),
    LAMBDA_ENDPOINT: env.LAMBDA_ENDPOINT || `http://127.0.0.1:${env.OFFLINE_LAMBDA_PORT || '13002'}`,
  };
}

/**
 * For serverless: osls calls a function it reaches in a `${file(...):…}` address with its
 * variable resolver, so the settings follow `--stage`.
 */
async function forStage({ resolveVariable }) {
  const stage = await resolveVariable('sls:stage');
  return {
    ...queueSettings(stage),
    media: queueSettings(stage, { queue: 'media' }),
    environment: functionEnvironment(stage),
  };
}

module.exports = {
  LOCAL_STAGES,
  ELASTICMQ_ACCOUNT_ID,
  QUEUES,
  isLocalStage,
  queueSettings,
  localSqsEndpoint,
  localQueueUrl,
  functionEnvironment,
  forStage,
};
