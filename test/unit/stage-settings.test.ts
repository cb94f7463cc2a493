// test/unit/stage-settings.test.ts — the per-stage settings (infra/stage-settings.cjs) and the
// deploy-time check of the SSM parameters they name (infra/plugins/stage-check.cjs). The
// packaged template itself is checked in test/packaging/serverless-package.test.ts.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The functions whose roles these tests read. */
type FunctionName =
  | 'api'
  | 'fanout'
  | 'trimInboxes'
  | 'repairRelations'
  | 'repairPostCounts'
  | 'regenerationSweep'
  | 'deadLetterReport'
  | 'createUpload'
  | 'completeUpload'
  | 'processMedia'
  | 'deletePost'
  | 'mediaCleanup'
  | 'eraseAccounts'
  | 'exportData'
  | 'messages';

/** An IAM statement of a function's role. */
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** What stageSettings answers: the parts these tests read. */
interface StageSettings {
  environment: Record<string, unknown>;
  vpc: unknown;
  roles: Record<FunctionName, Statement[]>;
  media: Record<string, unknown>;
}

const require = createRequire(import.meta.url);
const { stageSettings } = require('../../infra/stage-settings.cjs') as {
  stageSettings: (stage: string, params: Record<string, unknown>, env?: Record<string, string>) => StageSettings;
};
const { checkParameters } = require('../../infra/plugins/stage-check.cjs') as {
  checkParameters: (stage: string, names: string[], get: (p: { Name: string }) => Promise<unknown>) => Promise<void>;
};

/** params.default of serverless.yml, for stage "dev". */
const defaults = {
  hbaseRestUrl: 'https://hbase-rest.internal:8443',
  hbaseNamespace: 'weibo',
  jwtSecretParameter: '/weibo/dev/jwt-secret',
  jwtPreviousSecretParameter: '/weibo/dev/jwt-secret-previous',
  hbaseAuthorizationParameter: '',
  secretsMaxAgeSeconds: 300,
  vpcSubnetIds: '',
  vpcSecurityGroupIds: '',
  workerMaxConcurrency: 5,
  mediaWorkerMaxConcurrency: 5,
  jobReservedConcurrency: 1,
  apiThrottleRate: 100,
  apiThrottleBurst: 200,
  celebrityFollowers: 10000,
  inactiveAfterSeconds: 2592000,
  inboxCap: 800,
  outboxCap: 200,
  backfillLimit: 200,
  settleSeconds: 60,
  jobRowsPerStep: 500,
  regenStuckSeconds: 600,
  schedulesEnabled: true,
  logLevel: 'INFO',
};

describe('stage settings', () => {
  it('derive the environment of a deployed stage: parameter names, never values; the gateway credentials to every HBase caller', () => {
    const s = stageSettings('staging', { ...defaults, hbaseAuthorizationParameter: '/weibo/staging/hbase-auth' });
    expect(s.environment).toMatchObject({
      HBASE_REST_URL: defaults.hbaseRestUrl,
      JWT_SECRET_PARAMETER: '/weibo/dev/jwt-secret',
      HBASE_AUTHORIZATION_PARAMETER: '/weibo/staging/hbase-auth',
    });
    expect(s.environment).not.toHaveProperty('JWT_SECRET');
    const ssm = (role: Statement[]) => JSON.stringify(role.filter((st) => st.Action.includes('ssm:GetParameter')));
    for (const fn of [
      'api',
      'fanout',
      'trimInboxes',
      'repairRelations',
      'repairPostCounts',
      'regenerationSweep',
    ] as const)
      expect(ssm(s.roles[fn]), fn).toContain('/weibo/staging/hbase-auth');
    expect(ssm(s.roles.deadLetterReport)).toBe('[]');
    expect(ssm(s.roles.fanout)).not.toContain('jwt-secret');
    expect(s.vpc).toEqual({});
  });

  it('name every problem of a stage at once, and the stage', () => {
    expect(() =>
      stageSettings('prod', {
        ...defaults,
        hbaseRestUrl: '',
        jwtSecretParameter: '',
        workerMaxConcurrency: 1,
        logLevel: 'LOUD',
      }),
    ).toThrow(
      /^Stage "prod" is not configured: hbaseRestUrl is not set.*; jwtSecretParameter is not set.*; workerMaxConcurrency must be an integer from 2 to 1000 \(got "1"\); logLevel must be one of DEBUG, INFO, WARN, ERROR.*params\.prod/,
    );
    expect(() => stageSettings('dev', { ...defaults, hbaseRestUrl: 'https://user:pw@gw.internal' })).toThrow(
      'must not carry credentials',
    );
    expect(() => stageSettings('dev', { ...defaults, vpcSecurityGroupIds: 'sg-0123456789abcdef0' })).toThrow(
      'go together',
    );
    expect(() =>
      stageSettings('dev', { ...defaults, vpcSubnetIds: 'subnet-1', vpcSecurityGroupIds: 'sg-0123456789abcdef0' }),
    ).toThrow('vpcSubnetIds must be subnet ids');
  });

  it('let only the local stage use plain http, the environment and a plain secret', () => {
    const local = stageSettings(
      'local',
      { ...defaults, hbaseRestUrl: 'http://127.0.0.1:18080', jwtSecretParameter: '' },
      { JWT_SECRET: 'k'.repeat(40) },
    );
    expect(local.environment).toMatchObject({ HBASE_REST_URL: 'http://127.0.0.1:18080', JWT_SECRET: 'k'.repeat(40) });
    expect(local.environment).not.toHaveProperty('JWT_SECRET_PARAMETER');
    // Cheaper password hashes only under serverless-offline; a deployed stage never sets it.
    expect(local.environment.PASSWORD_SCRYPT_LOG2N).toBe('15');
    expect(stageSettings('prod', defaults).environment).not.toHaveProperty('PASSWORD_SCRYPT_LOG2N');
    for (const name of ['test', 'dev', 'Local'])
      expect(() => stageSettings(name, { ...defaults, hbaseRestUrl: 'http://127.0.0.1:18080' }), name).toThrow(
        'must be https://',
      );
  });

  it('give the functions the media bucket, queue and public base URL: the stack’s when deployed, the local object store’s locally', () => {
    expect(stageSettings('prod', defaults).environment).toMatchObject({
      MEDIA_BUCKET: { Ref: 'MediaBucket' },
      MEDIA_QUEUE_URL: { Ref: 'MediaQueue' },
      MEDIA_BASE_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': ['WebDistribution', 'DomainName'] }]] },
    });
    expect(stageSettings('prod', defaults).environment).not.toHaveProperty('S3_ENDPOINT');
    const local = (env: Record<string, string>) =>
      stageSettings('local', { ...defaults, hbaseRestUrl: 'http://127.0.0.1:18080' }, env).environment;
    expect(local({})).toMatchObject({
      MEDIA_BUCKET: 'weibo-local-media',
      S3_ENDPOINT: 'http://127.0.0.1:19000',
      MEDIA_BASE_URL: 'http://127.0.0.1:19000/weibo-local-media',
      MEDIA_QUEUE_URL: 'http://127.0.0.1:19324/000000000000/weibo-local-media',
    });
    // A test run's own bucket, object store and queue win, as the fan-out queue's does.
    expect(
      local({ MEDIA_BUCKET: 'run-7', S3_ENDPOINT: 'http://127.0.0.1:19001', MEDIA_QUEUE_URL: 'http://q/run-7' }),
    ).toMatchObject({
      MEDIA_BUCKET: 'run-7',
      S3_ENDPOINT: 'http://127.0.0.1:19001',
      MEDIA_BASE_URL: 'http://127.0.0.1:19001/run-7',
      MEDIA_QUEUE_URL: 'http://q/run-7',
    });
    expect(local({ MEDIA_BASE_URL: 'http://127.0.0.1:13001/media-store' }).MEDIA_BASE_URL).toBe(
      'http://127.0.0.1:13001/media-store',
    );
  });

  it('grant the pictures by key prefix: presign-put on uploads/ for createUpload, read uploads/ + queue for completeUpload, discards queued by deletePost and the cleanup job, the rest to the worker', () => {
    const { roles } = stageSettings('prod', defaults);
    const objects = (prefix: string) => ({
      'Fn::Join': ['', [{ 'Fn::GetAtt': ['MediaBucket', 'Arn'] }, `/${prefix}*`]],
    });
    const extra = (role: unknown[]) => role.slice(roles.api.length);
    expect(extra(roles.createUpload)).toEqual([
      { Effect: 'Allow', Action: ['s3:PutObject'], Resource: [objects('uploads/')] },
    ]);
    expect(extra(roles.completeUpload)).toEqual([
      { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [objects('uploads/')] },
      { Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: [{ 'Fn::GetAtt': ['MediaQueue', 'Arn'] }] },
    ]);
    expect(roles.processMedia).toEqual([
      {
        Effect: 'Allow',
        Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
        Resource: [{ 'Fn::GetAtt': ['MediaQueue', 'Arn'] }],
      },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:DeleteObject'], Resource: [objects('uploads/')] },
      // A discard deletes variants too: under media/ and private/ (message pictures) only.
      {
        Effect: 'Allow',
        Action: ['s3:PutObject', 's3:DeleteObject'],
        Resource: [objects('media/'), objects('private/')],
      },
      // It tells the uploader's open connections that the picture is ready (the WebSocket API only).
      expect.objectContaining({ Action: ['execute-api:ManageConnections'] }),
    ]);
    // A deleted post's pictures, and abandoned ones, are discarded through the media queue.
    const sendMedia = {
      Effect: 'Allow',
      Action: ['sqs:SendMessage'],
      Resource: [{ 'Fn::GetAtt': ['MediaQueue', 'Arn'] }],
    };
    expect(extra(roles.deletePost)).toEqual([sendMedia]);
    expect(roles.mediaCleanup).toContainEqual(sendMedia);
    expect(roles.eraseAccounts).toContainEqual(sendMedia);
    // Data exports, under exports/ only: the worker builds them, exportData presigns the download.
    expect(extra(roles.exportData)).toEqual([
      { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [objects('exports/')] },
    ]);
    expect((roles.fanout as unknown[]).filter((s) => JSON.stringify(s).includes('s3:'))).toEqual([
      { Effect: 'Allow', Action: ['s3:PutObject'], Resource: [objects('exports/')] },
    ]);
    // The private messages' function signs a reader's GET of a message picture (private/ only)
    // and queues a recalled message's discards (beside pushing to both sides' connections).
    expect(extra(roles.messages)).toEqual([
      expect.objectContaining({ Action: ['execute-api:ManageConnections'] }),
      { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [objects('private/')] },
      sendMedia,
    ]);
    // Only these touch the bucket.
    for (const [name, role] of Object.entries(roles as Record<string, unknown[]>)) {
      if (!['createUpload', 'completeUpload', 'processMedia', 'exportData', 'fanout', 'messages'].includes(name))
        expect(JSON.stringify(role), name).not.toMatch(/s3:|MediaBucket/);
    }
  });

  it('name the media bucket after the stage and the stack (no account id in presigned URLs), so a deployed stage name must suit a bucket', () => {
    const { media } = stageSettings('prod', { ...defaults, mediaWorkerMaxConcurrency: 7 });
    expect(media.bucketName).toEqual({
      'Fn::Join': [
        '-',
        [
          'weibo-prod-media',
          {
            'Fn::Select': [
              4,
              { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] },
            ],
          },
        ],
      ],
    });
    expect(media).toMatchObject({
      uploadsPrefix: 'uploads/',
      exportsPrefix: 'exports/',
      variantsPathPattern: '/media/*',
      workerMaxConcurrency: 7,
    });
    expect(() => stageSettings('Prod', defaults)).toThrow('the stage name must be 1–40 lowercase letters, digits or -');
    expect(() => stageSettings('prod', { ...defaults, mediaWorkerMaxConcurrency: 1 })).toThrow(
      'mediaWorkerMaxConcurrency must be an integer from 2 to 1000',
    );
  });
});

describe('the deploy-time parameter check', () => {
  const ssm =
    (params: Record<string, string>) =>
    async ({ Name }: { Name: string }) => {
      if (!(Name in params))
        throw Object.assign(new Error(`ParameterNotFound: ${Name}`), { code: 'ParameterNotFound' });
      return { Parameter: { Name, Type: params[Name] } };
    };

  it('passes when every named parameter is a SecureString', async () => {
    await checkParameters('prod', ['/weibo/prod/jwt-secret'], ssm({ '/weibo/prod/jwt-secret': 'SecureString' }));
  });

  it('names each missing or plain-text parameter, the stage, and how to create it', async () => {
    await expect(
      checkParameters(
        'prod',
        ['/weibo/prod/jwt-secret', '/weibo/prod/hbase-auth'],
        ssm({ '/weibo/prod/hbase-auth': 'String' }),
      ),
    ).rejects.toThrow(
      'Stage "prod" cannot be deployed: /weibo/prod/jwt-secret does not exist (create it: aws ssm put-parameter --type SecureString --name /weibo/prod/jwt-secret --value "…"); /weibo/prod/hbase-auth is a String, not a SecureString',
    );
  });

  it('lets any other failure (no credentials, access denied) through as it is', async () => {
    const denied = async () => {
      throw Object.assign(new Error('AccessDenied'), { code: 'AccessDeniedException' });
    };
    await expect(checkParameters('prod', ['/weibo/prod/jwt-secret'], denied)).rejects.toThrow('AccessDenied');
  });
});
