// infra/stage-settings.cjs — every per-stage setting of a deployment, checked before anything is
// packaged. serverless.yml declares the values under `params` (one block per stage; an operator
// may also pass `--param="name=value"`); serverless reads them only through this file
// (`${file(infra/stage-settings.cjs):forStage.<key>}`), so a stage that lacks what it needs fails
// at package/deploy time with a sentence naming the stage and the setting, instead of deploying
// functions that cannot reach their database or sign a token.
//
// The `local` stage (npm start, the e2e tests under serverless-offline) is the only special one:
// its values come from the environment, its secret is a plain variable, and its gateway may be
// plain HTTP on loopback. Every other stage name is deployed, and is treated the same.
'use strict';
const { isLocalStage, functionEnvironment } = require('./queue-settings.cjs');

/** The settings a stage declares under `params` (serverless.yml documents each). */
const PARAM_NAMES = Object.freeze([
  'hbaseRestUrl',
  'hbaseNamespace',
  'hbaseAuthorizationParameter',
  'jwtSecretParameter',
  'jwtPreviousSecretParameter',
  'secretsMaxAgeSeconds',
  'vpcSubnetIds',
  'vpcSecurityGroupIds',
  'workerMaxConcurrency',
  'mediaWorkerMaxConcurrency',
  'jobReservedConcurrency',
  'apiThrottleRate',
  'apiThrottleBurst',
  'celebrityFollowers',
  'inactiveAfterSeconds',
  'inboxCap',
  'outboxCap',
  'backfillLimit',
  'settleSeconds',
  'jobRowsPerStep',
  'regenStuckSeconds',
  'regionsPerTable',
  'schedulesEnabled',
  'logLevel',
]);

const SSM_NAME = /^\/[A-Za-z0-9_.\-/]{1,1000}$/;
const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

const list = (value) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Validates one stage's params and derives everything serverless.yml needs from them. Throws one
 * Error naming the stage and every problem found.
 */
function stageSettings(stage, params, env = process.env) {
  if (typeof stage !== 'string' || stage === '') throw new Error('stage-settings: stage is required');
  const local = isLocalStage(stage);
  const problems = [];
  // A deployed stage names AWS resources, the media bucket among them (lowercase, at most 63 characters).
  if (!local && !/^[a-z0-9][a-z0-9-]{0,39}$/.test(stage))
    problems.push('the stage name must be 1–40 lowercase letters, digits or - (it names the media bucket)');
  const p = (name) => (params[name] === undefined || params[name] === null ? '' : String(params[name]).trim());
  const int = (name, min, max) => {
    const raw = p(name);
    const n = Number(raw);
    if (raw === '' || !Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return min;
    }
    return n;
  };

  const hbaseRestUrl = p('hbaseRestUrl');
  if (hbaseRestUrl === '') {
    problems.push('hbaseRestUrl is not set (the HBase REST gateway the functions call, https://…)');
  } else {
    let url;
    try {
      url = new URL(hbaseRestUrl);
    } catch {
      problems.push(`hbaseRestUrl is not a URL ("${hbaseRestUrl}")`);
    }
    // Outside the local stage the gateway is reached over TLS, certificate verified (Node's
    // default; nothing in the client can turn it off): credentials and posts cross the network.
    if (url && !local && url.protocol !== 'https:')
      problems.push(`hbaseRestUrl must be https:// outside the local stage (got "${hbaseRestUrl}")`);
    if (url && (url.username || url.password))
      problems.push(
        'hbaseRestUrl must not carry credentials: put them in the SSM parameter named by hbaseAuthorizationParameter',
      );
  }
  const hbaseNamespace = p('hbaseNamespace');
  if (!/^[A-Za-z0-9_]{1,64}$/.test(hbaseNamespace))
    problems.push(`hbaseNamespace must be 1–64 letters, digits or _ (got "${hbaseNamespace}")`);

  // Secrets: deployed stages name SSM parameters, read by the functions at cold start.
  const secretNames = {};
  for (const [name, required] of [
    ['jwtSecretParameter', true],
    ['jwtPreviousSecretParameter', false],
    ['hbaseAuthorizationParameter', false],
  ]) {
    const value = p(name);
    if (local) continue;
    if (value === '') {
      if (required) problems.push(`${name} is not set (the SSM SecureString parameter holding the token signing key)`);
      continue;
    }
    if (!SSM_NAME.test(value)) problems.push(`${name} must be an SSM parameter name starting with / (got "${value}")`);
    secretNames[name] = value;
  }
  const secretsMaxAgeSeconds = int('secretsMaxAgeSeconds', 1, 3600);

  const subnetIds = list(p('vpcSubnetIds'));
  const securityGroupIds = list(p('vpcSecurityGroupIds'));
  if (subnetIds.length > 0 !== securityGroupIds.length > 0) {
    problems.push('vpcSubnetIds and vpcSecurityGroupIds go together: set both (comma-separated) or neither');
  }
  if (subnetIds.some((s) => !/^subnet-[0-9a-f]{8,17}$/.test(s)))
    problems.push(`vpcSubnetIds must be subnet ids (got "${p('vpcSubnetIds')}")`);
  if (securityGroupIds.some((s) => !/^sg-[0-9a-f]{8,17}$/.test(s)))
    problems.push(`vpcSecurityGroupIds must be security group ids (got "${p('vpcSecurityGroupIds')}")`);

  const workerMaxConcurrency = int('workerMaxConcurrency', 2, 1000); // the SQS event source's own bounds
  const mediaWorkerMaxConcurrency = int('mediaWorkerMaxConcurrency', 2, 1000);
  const jobReservedConcurrency = int('jobReservedConcurrency', 1, 10);
  const apiThrottleRate = int('apiThrottleRate', 1, 10_000);
  const apiThrottleBurst = int('apiThrottleBurst', 1, 5_000);
  const knobs = {
    CELEBRITY_FOLLOWERS: int('celebrityFollowers', 1, 100_000_000),
    INACTIVE_AFTER_SECONDS: int('inactiveAfterSeconds', 60, 10 * 365 * 86_400),
    INBOX_CAP: int('inboxCap', 10, 100_000),
    OUTBOX_CAP: int('outboxCap', 10, 100_000),
    BACKFILL_LIMIT: int('backfillLimit', 0, 1000),
    SETTLE_SECONDS: int('settleSeconds', 5, 900),
    JOB_ROWS_PER_STEP: int('jobRowsPerStep', 1, 5000),
    REGEN_STUCK_SECONDS: int('regenStuckSeconds', 1, 86_400),
  };
  // Regions each table is pre-split into when `npm run schema` creates it (shared/schema/tables.ts
  // SPLITS; 256 = every value of the first salt byte). Not a function setting: the schema command
  // reads it (REGIONS_PER_TABLE / --regions). Absent means 1.
  const regionsPerTable = p('regionsPerTable') === '' ? 1 : int('regionsPerTable', 1, 256);
  const schedulesEnabled = p('schedulesEnabled');
  if (schedulesEnabled !== 'true' && schedulesEnabled !== 'false')
    problems.push(`schedulesEnabled must be true or false (got "${schedulesEnabled}")`);
  const logLevel = p('logLevel').toUpperCase();
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`logLevel must be one of ${LOG_LEVELS.join(', ')} (got "${p('logLevel')}")`);

  if (problems.length > 0) {
    throw new Error(
      `Stage "${stage}" is not configured: ${problems.join('; ')}. ` +
        `Set the values under params.${stage} in serverless.yml, or pass --param="<name>=<value>".`,
    );
  }

  const queues = functionEnvironment(stage, env);
  // No NODE_OPTIONS=--enable-source-maps by default: with it, the first error stack a container
  // touches parses the bundle's multi-MB source map synchronously (130 ms idle here; seconds on a
  // loaded machine, which stalled serverless-offline workers past the Lambda timeout). The
  // minified bundles keep their function names (serverless.yml custom.esbuild.keepNames) and ship
  // their map: an operator sets the flag on a function to read TypeScript lines in its stacks.
  const environment = {
    POWERTOOLS_SERVICE_NAME: 'weibo',
    HBASE_REST_URL: hbaseRestUrl,
    HBASE_NAMESPACE: hbaseNamespace,
    ...Object.fromEntries(Object.entries(knobs).map(([k, v]) => [k, String(v)])),
    POWERTOOLS_LOG_LEVEL: logLevel,
    // The queue every function may send to; the jobs' own settings (their DLQ, the Lambda
    // endpoint they continue through) are added to them alone (infra/functions/schedule.yml).
    FANOUT_QUEUE_URL: queues.FANOUT_QUEUE_URL,
    SQS_ENDPOINT: queues.SQS_ENDPOINT,
    // Pictures: where uploads and variants live, the queue that gets an upload processed, and
    // the public base URL of a variant (`${MEDIA_BASE_URL}/media/<id>/<variant>.webp`).
    MEDIA_QUEUE_URL: queues.MEDIA_QUEUE_URL,
    ...mediaEnvironment(local, env),
    // The WebSocket API's management endpoint, where the worker pushes frames to connections
    // (infra/functions/live.yml): serverless-offline's WebSocket port locally.
    ...liveEnvironment(local, env, stage),
  };
  if (local) {
    // Local only: the secret and the gateway credentials as plain variables (run-local.ts and
    // the e2e setup generate a throwaway secret).
    environment.JWT_SECRET = env.JWT_SECRET || '';
    if (env.JWT_PREVIOUS_SECRET) environment.JWT_PREVIOUS_SECRET = env.JWT_PREVIOUS_SECRET;
    // serverless-offline's worker threads stall on a 128 MiB scrypt (shared/config/config.ts).
    environment.PASSWORD_SCRYPT_LOG2N = env.PASSWORD_SCRYPT_LOG2N || '15';
    if (env.HBASE_AUTHORIZATION) environment.HBASE_AUTHORIZATION = env.HBASE_AUTHORIZATION;
    // How long a container reuses the hot feed's ranking (default 60 s): the e2e API shortens it.
    if (env.HOT_CACHE_SECONDS) environment.HOT_CACHE_SECONDS = env.HOT_CACHE_SECONDS;
  } else {
    // Deployed: only the parameter NAMES; the values never enter the template or the environment.
    environment.JWT_SECRET_PARAMETER = secretNames.jwtSecretParameter;
    if (secretNames.jwtPreviousSecretParameter)
      environment.JWT_PREVIOUS_SECRET_PARAMETER = secretNames.jwtPreviousSecretParameter;
    if (secretNames.hbaseAuthorizationParameter)
      environment.HBASE_AUTHORIZATION_PARAMETER = secretNames.hbaseAuthorizationParameter;
    environment.SECRETS_MAX_AGE_SECONDS = String(secretsMaxAgeSeconds);
  }

  const parameterArn = (name) => ({
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':ssm:',
        { Ref: 'AWS::Region' },
        ':',
        { Ref: 'AWS::AccountId' },
        ':parameter',
        name,
      ],
    ],
  });
  const roles = functionRoles(stage, {
    tokenKeys: local
      ? []
      : [secretNames.jwtSecretParameter, secretNames.jwtPreviousSecretParameter].filter(Boolean).map(parameterArn),
    gatewayCredentials: secretNames.hbaseAuthorizationParameter
      ? [parameterArn(secretNames.hbaseAuthorizationParameter)]
      : [],
  });
  return {
    stage,
    local,
    environment,
    /** Empty when no subnets are set: the functions then run outside any VPC. */
    vpc: subnetIds.length > 0 ? { subnetIds, securityGroupIds } : {},
    workerMaxConcurrency,
    jobReservedConcurrency,
    apiThrottleRate,
    apiThrottleBurst,
    schedulesEnabled: schedulesEnabled === 'true',
    /** For the schema command (REGIONS_PER_TABLE): regions per table when it creates the tables. */
    regionsPerTable,
    /** Each function's IAM statements (infra/plugins/function-roles-and-network.cjs gives every function a role of its own). */
    roles,
    /** The media bucket's name, domain, key spaces and served path (infra/resources/media.yml, web.yml). */
    media: {
      bucketName: mediaBucketName(stage),
      bucketDomainName: mediaBucketDomainName(stage),
      uploadsPrefix: MEDIA_PREFIXES.uploads,
      exportsPrefix: MEDIA_PREFIXES.exports,
      variantObjectsArn: mediaObjectsArn(MEDIA_PREFIXES.variants),
      privatePrefix: MEDIA_PREFIXES.private,
      variantsPathPattern: `/${MEDIA_PREFIXES.variants}*`,
      workerMaxConcurrency: mediaWorkerMaxConcurrency,
    },
  };
}

const SERVICE = 'weibo';

/** The WebSocket API serverless makes from the functions' `websocket` events (infra/functions/live.yml). */
const LIVE_API_ID = 'WebsocketsApi';

/**
 * LIVE_ENDPOINT (and LIVE_LOCAL): where frames are pushed to the WebSocket API's connections.
 * Deployed: the API's own stage URL, https://<apiId>.execute-api.<region>.amazonaws.com/<stage>
 * (its management API). Browsers reach the same API through the web distribution at /api/live.
 */
function liveEnvironment(local, env, stage) {
  if (local) return { LIVE_ENDPOINT: `http://127.0.0.1:${env.WEBSOCKET_PORT || '13003'}`, LIVE_LOCAL: '1' };
  return {
    LIVE_ENDPOINT: {
      'Fn::Join': [
        '',
        ['https://', { Ref: LIVE_API_ID }, '.execute-api.', { Ref: 'AWS::Region' }, `.amazonaws.com/${stage}`],
      ],
    },
  };
}

/**
 * The media bucket's resource (infra/resources/media.yml) and its key spaces: originals as
 * uploaded (`uploads/<mediaId>`, transient), the worker's variants (`media/<mediaId>/<variant>.webp`),
 * which the web distribution serves under the same path, a private message's pictures
 * (`private/<mediaId>/<variant>.webp`, never behind the distribution: read only through a GET
 * presigned by the messages' functions), and data exports.
 */
const MEDIA_BUCKET_ID = 'MediaBucket';
const MEDIA_PREFIXES = Object.freeze({
  uploads: 'uploads/',
  variants: 'media/',
  private: 'private/',
  exports: 'exports/',
});
const mediaObjectsArn = (prefix) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [MEDIA_BUCKET_ID, 'Arn'] }, `/${prefix}*`]] });
/** stack.sh's local object store (S3-compatible) and its bucket, unless the environment names others. */
const LOCAL_S3_ENDPOINT = 'http://127.0.0.1:19000';
const LOCAL_MEDIA_BUCKET = 'weibo-local-media';

/**
 * The media bucket's name, as CloudFormation builds it: `weibo-<stage>-media-<12 hex digits of
 * the stack id>` (globally unique, and no account id in the presigned URLs users see). Named
 * rather than generated because the distribution's origin must know the bucket's domain without
 * a reference to the bucket: the bucket's CORS rule already refers to the distribution's domain,
 * and a reference back would be a cycle.
 */
function mediaBucketName(stage) {
  const stackIdTail = {
    'Fn::Select': [4, { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }],
  };
  return { 'Fn::Join': ['-', [`${SERVICE}-${stage}-media`, stackIdTail]] };
}

/** The bucket's regional domain (what GetAtt RegionalDomainName answers), from its name alone. */
function mediaBucketDomainName(stage) {
  return { 'Fn::Join': ['', [mediaBucketName(stage), '.s3.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] };
}

/**
 * The functions' media environment. Deployed: the stack's bucket, variants served by the web
 * distribution under /media/*. Local: stack.sh's object store (the environment may name another
 * store or bucket), served straight from it.
 */
function mediaEnvironment(local, env) {
  if (!local) {
    return {
      MEDIA_BUCKET: { Ref: MEDIA_BUCKET_ID },
      MEDIA_BASE_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': ['WebDistribution', 'DomainName'] }]] },
    };
  }
  const bucket = env.MEDIA_BUCKET || LOCAL_MEDIA_BUCKET;
  const endpoint = env.S3_ENDPOINT || LOCAL_S3_ENDPOINT;
  return { MEDIA_BUCKET: bucket, MEDIA_BASE_URL: env.MEDIA_BASE_URL || `${endpoint}/${bucket}`, S3_ENDPOINT: endpoint };
}

/** The scheduled jobs (infra/functions/schedule.yml) and what each needs beyond invoking itself. */
const JOBS = Object.freeze({
  trimInboxes: { hbase: true },
  repairRelations: { hbase: true },
  repairPostCounts: { hbase: true },
  regenerationSweep: { hbase: true, sendsToQueue: true },
  awaySweep: { hbase: true, sendsToQueue: true },
  mediaCleanup: { hbase: true, sendsToMediaQueue: true },
  // An erased post's pictures are discarded through the media queue, as a deleted post's are.
  eraseAccounts: { hbase: true, sendsToMediaQueue: true },
  deadLetterReport: { hbase: false, readsDeadLetters: true },
  rankHot: { hbase: true },
  migrateLayout: { hbase: true },
});

/**
 * Least privilege, per function. The API functions send to the fan-out queue and read the token
 * key; only the worker consumes the queue; only the dead-letter report reads the DLQ (and never
 * deletes); each job may invoke itself (to hand on the rest of its run) and nothing else. The
 * gateway credentials (when the stage has them) go to whoever calls HBase. Logs: the plugin adds
 * each function's own log group.
 * Pictures, by key prefix, never the whole bucket: createUpload may put under uploads/ (it
 * presigns the browser's PUT, and a presigned URL carries exactly its signer's rights);
 * completeUpload may read uploads/ (its HEAD) and queue the upload; only the media worker
 * consumes the media queue, reads and deletes originals, and writes and deletes variants under
 * media/ and private/ (a discard). deletePost and the media-cleanup job send to the media queue
 * (discards), and touch no object. The private messages' functions (role `messages`) may read
 * private/ (they presign a reader's GET of a message picture) and queue discards (a recall). Data exports: the fan-out worker writes them under exports/ (it builds
 * them); exportData may read exports/ (it presigns the download) and sends the build's message.
 */
function functionRoles(stage, arns) {
  const queueArn = { 'Fn::GetAtt': ['FanoutQueue', 'Arn'] };
  const send = { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: [queueArn] };
  const mediaQueueArn = { 'Fn::GetAtt': ['MediaQueue', 'Arn'] };
  const sendMedia = { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: [mediaQueueArn] };
  const uploads = mediaObjectsArn(MEDIA_PREFIXES.uploads);
  const variants = mediaObjectsArn(MEDIA_PREFIXES.variants);
  const privateVariants = mediaObjectsArn(MEDIA_PREFIXES.private);
  const exportsArn = mediaObjectsArn(MEDIA_PREFIXES.exports);
  const readParameters = (resources) =>
    resources.length > 0 ? [{ Effect: 'Allow', Action: ['ssm:GetParameter'], Resource: resources }] : [];
  const hbase = readParameters(arns.gatewayCredentials);
  const functionArn = (name) => ({
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':lambda:',
        { Ref: 'AWS::Region' },
        ':',
        { Ref: 'AWS::AccountId' },
        `:function:${SERVICE}-${stage}-${name}`,
      ],
    ],
  });
  const jobs = {};
  for (const [name, needs] of Object.entries(JOBS)) {
    jobs[name] = [
      { Effect: 'Allow', Action: ['lambda:InvokeFunction'], Resource: [functionArn(name)] },
      ...(needs.hbase ? hbase : []),
      ...(needs.sendsToQueue ? [send] : []),
      ...(needs.sendsToMediaQueue ? [sendMedia] : []),
      ...(needs.readsDeadLetters
        ? [
            {
              Effect: 'Allow',
              Action: ['sqs:GetQueueAttributes', 'sqs:ReceiveMessage'],
              Resource: [{ 'Fn::GetAtt': ['FanoutDeadLetterQueue', 'Arn'] }],
            },
          ]
        : []),
    ];
  }
  const api = [send, ...readParameters([...arns.tokenKeys, ...arns.gatewayCredentials])];
  // Pushing to (PostToConnection: POST) and ending (DeleteConnection: DELETE) connections of the
  // WebSocket API (infra/functions/live.yml), on that API and this stage alone:
  // arn:aws:execute-api:<region>:<account>:<apiId>/<stage>/<method>/@connections/<connectionId>.
  // Connection ids are API Gateway's own: the one star left is that segment.
  const connectionsArn = (method) => ({
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':execute-api:',
        { Ref: 'AWS::Region' },
        ':',
        { Ref: 'AWS::AccountId' },
        ':',
        { Ref: LIVE_API_ID },
        `/${stage}/${method}/@connections/*`,
      ],
    ],
  });
  const manageConnections = {
    Effect: 'Allow',
    Action: ['execute-api:ManageConnections'],
    Resource: [connectionsArn('POST'), connectionsArn('DELETE')],
  };
  // The live routes that check an access token ($connect, and a renew frame).
  const tokenKeys = readParameters(arns.tokenKeys);
  return {
    api,
    liveConnect: [...tokenKeys, ...hbase],
    liveDisconnect: hbase,
    liveMessage: [...tokenKeys, ...hbase, manageConnections],
    // Private messages tell both sides over the live channel; they sign a reader's GET of a
    // message picture (under private/ only: a signed URL carries exactly its signer's rights);
    // a recall gives its pictures to the discard.
    messages: [
      ...api,
      manageConnections,
      { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [privateVariants] },
      sendMedia,
    ],
    createUpload: [...api, { Effect: 'Allow', Action: ['s3:PutObject'], Resource: [uploads] }],
    completeUpload: [...api, { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [uploads] }, sendMedia],
    // A deleted post's pictures are discarded through the media queue (the worker removes them).
    deletePost: [...api, sendMedia],
    exportData: [...api, { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [exportsArn] }],
    fanout: [
      {
        Effect: 'Allow',
        Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
        Resource: [queueArn],
      },
      send,
      ...hbase,
      manageConnections,
      { Effect: 'Allow', Action: ['s3:PutObject'], Resource: [exportsArn] },
    ],
    processMedia: [
      {
        Effect: 'Allow',
        Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
        Resource: [mediaQueueArn],
      },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:DeleteObject'], Resource: [uploads] },
      { Effect: 'Allow', Action: ['s3:PutObject', 's3:DeleteObject'], Resource: [variants, privateVariants] },
      ...hbase,
      // It tells the uploader's connections that a picture is ready (the live channel).
      manageConnections,
    ],
    ...jobs,
  };
}

/** For serverless: the settings of the stage being packaged or deployed. */
async function forStage({ resolveVariable }) {
  const stage = await resolveVariable('sls:stage');
  const params = {};
  for (const name of PARAM_NAMES) params[name] = await resolveVariable(`param:${name}`);
  return stageSettings(stage, params);
}

module.exports = { PARAM_NAMES, JOBS, MEDIA_PREFIXES, stageSettings, forStage };
