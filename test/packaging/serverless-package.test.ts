// test/packaging/serverless-package.test.ts — what would be deployed: `serverless package`
// (osls, bundling with esbuild; no AWS account, no network) and assertions on the generated
// CloudFormation. Packages the `dev` stage (a deployed stage like any other: its gateway given as
// --param, as an operator would) and checks what an operator must be able to trust: no secret in
// the template, one least-privilege role per function, bounded pressure on the gateway, stage
// settings checked before anything is built, and cfn-lint + checkov over the template. Also the web client's hosting (infra/resources/web.yml) and
// its build into the package (infra/plugins/web-client.cjs), and pictures: the media bucket
// (infra/resources/media.yml), its /media/* behaviour, the media queue and worker, whose zip
// alone carries sharp's linux-x64 build (read from the zips themselves). And the live channel:
// the WebSocket API, its stage, routes and access log, who may push to its connections, and its
// /api/live behaviour on the web distribution (infra/resources/live.yml, web.yml).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queueSettings } from '../../infra/local/sqs-poller.js';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../shared/observability/metrics.js';
import { DEV_GATEWAY, devPackage, packageService } from './one-package-at-a-time.js';
import { zipEntries } from './zip.js';
import { HSTS_MAX_AGE_SECONDS, REFERRER_POLICY, contentSecurityPolicy } from '../../web/security-headers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SLS = join(ROOT, 'node_modules/serverless/bin/serverless.js');
const STAGE = 'dev';
/** What an operator passes for a stage that names no gateway in serverless.yml. */
const GATEWAY = DEV_GATEWAY;
const PARAMS = [`--param=hbaseRestUrl=${GATEWAY}`];
const settings = queueSettings(STAGE);
const media = queueSettings(STAGE, { queue: 'media' });
const run = promisify(execFile);

type Resource = {
  Type: string;
  // biome-ignore lint/suspicious/noExplicitAny: a packaged template's properties are arbitrary nested JSON, walked freely by the assertions
  Properties: Record<string, any>;
  DependsOn?: unknown;
};
type Template = { Resources: Record<string, Resource>; Outputs: Record<string, { Value: unknown }> };

/** A CloudFront origin, and a cache behaviour: the fields these tests read, and the rest. */
type Origin = { Id: string; DomainName: unknown; [field: string]: unknown };
type CacheBehavior = {
  PathPattern: string;
  TargetOriginId: string;
  AllowedMethods: string[];
  ViewerProtocolPolicy: string;
  [field: string]: unknown;
};

type Statement = {
  Sid?: string;
  Effect: string;
  Principal: unknown;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

// The dev package is shared with test/packaging/bundles.test.ts (made once per run: devPackage).
let packageDir: string;
// The VPC variant's own esbuild work folder: a serverless-offline running meanwhile (e2e, npm
// start) keeps its bundles; serverless-esbuild deletes its work folder after packaging.
const workFolder = `.esbuild/package-test-${process.pid}-${Date.now().toString(36)}`;
let template: Template;
let declaredRoutes: string[];

const env = {
  ...process.env,
  ESBUILD_WORK_FOLDER: workFolder,
  // Nothing here may reach AWS: no credentials, no metadata service.
  AWS_EC2_METADATA_DISABLED: 'true',
};

beforeAll(async () => {
  packageDir = (await devPackage(inject('packageCacheDir'), 240_000)).dir;
  template = JSON.parse(
    readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8'),
  ) as Template;

  // The routes the configuration declares (infra/functions/*.yml), as serverless resolves them.
  const { stdout } = await run(
    process.execPath,
    [SLS, 'print', '--stage', STAGE, '--format', 'json', '--path', 'functions', ...PARAMS],
    {
      cwd: ROOT,
      env,
      timeout: 60_000,
    },
  );
  const functions = JSON.parse(stdout) as Record<
    string,
    { events?: Array<{ httpApi?: string | { method: string; path: string } }> }
  >;
  declaredRoutes = Object.values(functions)
    .flatMap((f) => f.events ?? [])
    .flatMap((e) =>
      e.httpApi === undefined
        ? []
        : [
            e.httpApi === '*'
              ? '$default'
              : typeof e.httpApi === 'string'
                ? e.httpApi
                : `${e.httpApi.method.toUpperCase()} ${e.httpApi.path}`,
          ],
    );
}, 300_000);

afterAll(() => {
  rmSync(join(ROOT, workFolder), { recursive: true, force: true });
});

const resources = (type: string) => Object.entries(template.Resources).filter(([, r]) => r.Type === type);
const getAtt = (logicalId: string, attr: string) => ({ 'Fn::GetAtt': [logicalId, attr] });
/** The event source mapping that feeds `queueId` to its worker. */
const mappingOf = (queueId: string) => {
  const found = resources('AWS::Lambda::EventSourceMapping').filter(
    ([, m]) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify(getAtt(queueId, 'Arn')),
  );
  expect(found, queueId).toHaveLength(1);
  return found[0]![1];
};

describe(`serverless package --stage ${STAGE}`, () => {
  it('has the fan-out queue and its dead-letter queue with the numbers of queue-settings.cjs', () => {
    const queue = template.Resources.FanoutQueue!;
    const dlq = template.Resources.FanoutDeadLetterQueue!;
    expect(queue.Type).toBe('AWS::SQS::Queue');
    expect(dlq.Type).toBe('AWS::SQS::Queue');
    expect(queue.Properties.QueueName).toBe(`weibo-${STAGE}-fanout`);
    expect(dlq.Properties.QueueName).toBe(`weibo-${STAGE}-fanout-dlq`);

    expect(queue.Properties.RedrivePolicy.deadLetterTargetArn).toEqual(getAtt('FanoutDeadLetterQueue', 'Arn'));
    expect(queue.Properties.RedrivePolicy.maxReceiveCount).toBeGreaterThanOrEqual(5);
    expect(queue.Properties.RedrivePolicy.maxReceiveCount).toBe(settings.maxReceiveCount);
    expect(dlq.Properties.MessageRetentionPeriod).toBe(1_209_600);
    expect(queue.Properties.MessageRetentionPeriod).toBe(4 * 24 * 3600);
    expect(queue.Properties.VisibilityTimeout).toBe(settings.visibilityTimeoutSeconds);
  });

  it("gives each queue a visibility timeout of at least 6 × its worker's timeout plus the batching window", () => {
    for (const [queueId, workerId, timeout] of [
      ['FanoutQueue', 'FanoutLambdaFunction', settings.workerTimeoutSeconds],
      ['MediaQueue', 'ProcessMediaLambdaFunction', media.workerTimeoutSeconds],
    ] as const) {
      const worker = template.Resources[workerId]!;
      const mapping = mappingOf(queueId);
      expect(worker.Properties.Timeout, workerId).toBe(timeout);
      expect(template.Resources[queueId]!.Properties.VisibilityTimeout, queueId).toBeGreaterThanOrEqual(
        6 * worker.Properties.Timeout + (mapping.Properties.MaximumBatchingWindowInSeconds ?? 0),
      );
    }
  });

  it('maps each queue to its worker with partial batch responses: the fan-out queue and the media queue, nothing else', () => {
    const mappings = resources('AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(2);
    const mapping = mappingOf('FanoutQueue');
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: getAtt('FanoutQueue', 'Arn'),
      FunctionName: getAtt('FanoutLambdaFunction', 'Arn'),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: settings.batchSize,
      MaximumBatchingWindowInSeconds: settings.maximumBatchingWindowSeconds,
      Enabled: true,
    });
    expect(template.Resources.FanoutLambdaFunction!.Properties.Handler).toMatch(/functions\/queue\/fan-out\.handler$/);
  });

  it('alarms as soon as the dead-letter queue holds a message', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const onDlq = alarms.filter((a) =>
      (a.Dimensions as Array<{ Name: string; Value: unknown }>).some(
        (d) =>
          d.Name === 'QueueName' &&
          JSON.stringify(d.Value) === JSON.stringify(getAtt('FanoutDeadLetterQueue', 'QueueName')),
      ),
    );
    expect(onDlq).toHaveLength(1);
    expect(onDlq[0]).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      EvaluationPeriods: 1,
    });
    expect(onDlq[0]!.AlarmActions).not.toHaveLength(0);
  });

  it('alarms when an invocation runs out of time, on the total the functions print (InvocationTimeouts, service alone)', () => {
    const alarms = resources('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .filter((a) => a.MetricName === 'InvocationTimeouts');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }],
      Statistic: 'Sum',
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      AlarmActions: [{ Ref: 'OperatorAlarmTopic' }],
    });
  });

  it('outputs the queue URLs and gives every function the queue URLs, the media bucket and base URL, and no endpoint override', () => {
    expect(template.Outputs.FanoutQueueUrl!.Value).toEqual({ Ref: 'FanoutQueue' });
    expect(template.Outputs.FanoutDeadLetterQueueUrl!.Value).toEqual({ Ref: 'FanoutDeadLetterQueue' });
    expect(template.Outputs.MediaQueueUrl!.Value).toEqual({ Ref: 'MediaQueue' });
    expect(template.Outputs.MediaDeadLetterQueueUrl!.Value).toEqual({ Ref: 'MediaDeadLetterQueue' });
    expect(template.Outputs.MediaBucketName!.Value).toEqual({ Ref: 'MediaBucket' });
    const functions = resources('AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(5);
    for (const [id, fn] of functions) {
      expect(fn.Properties.Environment.Variables.FANOUT_QUEUE_URL, id).toEqual({ Ref: 'FanoutQueue' });
      expect(fn.Properties.Environment.Variables.SQS_ENDPOINT, id).toBe('');
      expect(fn.Properties.Environment.Variables, id).toMatchObject({
        MEDIA_QUEUE_URL: { Ref: 'MediaQueue' },
        MEDIA_BUCKET: { Ref: 'MediaBucket' },
        // Variants are served by the web distribution: `${MEDIA_BASE_URL}/media/<id>/<variant>.webp`.
        MEDIA_BASE_URL: { 'Fn::Join': ['', ['https://', getAtt('WebDistribution', 'DomainName')]] },
      });
      // The SDK's regional S3 endpoint: only the local stage names one.
      expect(fn.Properties.Environment.Variables, id).not.toHaveProperty('S3_ENDPOINT');
    }
  });

  it('routes every HTTP operation, the account routes and each one the configuration declares', () => {
    const routeKeys = resources('AWS::ApiGatewayV2::Route')
      .filter(([, r]) => JSON.stringify(r.Properties.ApiId) === JSON.stringify({ Ref: 'HttpApi' }))
      .map(([, r]) => r.Properties.RouteKey as string);
    for (const route of ['POST /users', 'POST /sessions', 'GET /users/{handle}', 'PATCH /users/{handle}']) {
      expect(routeKeys).toContain(route);
    }
    expect(declaredRoutes.length).toBeGreaterThanOrEqual(5);
    expect([...routeKeys].sort()).toEqual([...declaredRoutes].sort());
  });

  describe('scheduled jobs (infra/functions/schedule.yml)', () => {
    const JOBS = [
      {
        id: 'TrimInboxes',
        name: 'trimInboxes',
        handler: 'functions/schedule/trim-inboxes.handler',
        rate: 'rate(1 hour)',
      },
      {
        id: 'RepairRelations',
        name: 'repairRelations',
        handler: 'functions/schedule/repair-relations.handler',
        rate: 'rate(6 hours)',
      },
      {
        id: 'RepairPostCounts',
        name: 'repairPostCounts',
        handler: 'functions/schedule/repair-post-counts.handler',
        rate: 'rate(6 hours)',
      },
      {
        id: 'RegenerationSweep',
        name: 'regenerationSweep',
        handler: 'functions/schedule/regeneration-sweep.handler',
        rate: 'rate(10 minutes)',
      },
      { id: 'AwaySweep', name: 'awaySweep', handler: 'functions/schedule/away-sweep.handler', rate: 'rate(1 day)' },
      {
        id: 'MediaCleanup',
        name: 'mediaCleanup',
        handler: 'functions/schedule/media-cleanup.handler',
        rate: 'rate(6 hours)',
      },
      {
        id: 'EraseAccounts',
        name: 'eraseAccounts',
        handler: 'functions/schedule/erase-accounts.handler',
        rate: 'rate(1 day)',
      },
      {
        id: 'DeadLetterReport',
        name: 'deadLetterReport',
        handler: 'functions/schedule/dead-letter-report.handler',
        rate: 'rate(1 hour)',
      },
      { id: 'RankHot', name: 'rankHot', handler: 'functions/schedule/rank-hot.handler', rate: 'rate(5 minutes)' },
      {
        id: 'MigrateLayout',
        name: 'migrateLayout',
        handler: 'functions/schedule/migrate-layout.handler',
        rate: 'rate(1 hour)',
      },
    ];

    it('runs each job on its EventBridge schedule', () => {
      const rules = resources('AWS::Events::Rule').map(([, r]) => r.Properties);
      expect(rules).toHaveLength(JOBS.length);
      for (const job of JOBS) {
        const rule = rules.find((r) => JSON.stringify(r.Targets).includes(`"${job.id}LambdaFunction"`));
        expect(rule, job.name).toBeDefined();
        expect(rule).toMatchObject({ ScheduleExpression: job.rate, State: 'ENABLED' });
        expect(rule!.Targets).toEqual([expect.objectContaining({ Arn: getAtt(`${job.id}LambdaFunction`, 'Arn') })]);
        const permits = resources('AWS::Lambda::Permission').filter(
          ([, p]) =>
            JSON.stringify(p.Properties.FunctionName).includes(`${job.id}LambdaFunction`) &&
            p.Properties.Principal === 'events.amazonaws.com',
        );
        expect(permits, job.name).toHaveLength(1);
      }
    });

    it('sizes each job function for ONE step, without Lambda retries on top of the runner’s own', () => {
      for (const job of JOBS) {
        const fn = template.Resources[`${job.id}LambdaFunction`]!;
        expect(fn.Properties.Handler, job.name).toMatch(new RegExp(`${job.handler.replace(/[./]/g, '\\$&')}$`));
        expect(fn.Properties.FunctionName).toBe(`weibo-${STAGE}-${job.name}`);
        expect(fn.Properties.Timeout).toBeGreaterThanOrEqual(30);
        // One step; the repair jobs' confirm steps also wait out one settle window (SETTLE_SECONDS).
        const settle = Number(fn.Properties.Environment.Variables.SETTLE_SECONDS);
        expect(fn.Properties.Timeout).toBeLessThanOrEqual(job.name.startsWith('repair') ? 60 + settle + 30 : 60);
        const config = resources('AWS::Lambda::EventInvokeConfig').find(([, c]) =>
          JSON.stringify(c.Properties.FunctionName).includes(`${job.id}LambdaFunction`),
        );
        expect(config?.[1].Properties.MaximumRetryAttempts, job.name).toBe(0);
      }
      const env = (id: string) => template.Resources[`${id}LambdaFunction`]!.Properties.Environment.Variables;
      expect(env('TrimInboxes')).toMatchObject({
        JOB_ROWS_PER_STEP: '500',
        OUTBOX_CAP: '200',
        INBOX_CAP: '800',
        LAMBDA_ENDPOINT: '',
      });
      expect(env('RegenerationSweep')).toMatchObject({ REGEN_STUCK_SECONDS: '600', LAMBDA_ENDPOINT: '' });
      expect(env('DeadLetterReport').FANOUT_DLQ_URL).toEqual({ Ref: 'FanoutDeadLetterQueue' });
      // The other functions get none of the jobs' settings.
      expect(template.Resources.FanoutLambdaFunction!.Properties.Environment.Variables).not.toHaveProperty(
        'FANOUT_DLQ_URL',
      );
    });
  });
});

type Policy = {
  PolicyDocument: { Statement: Array<{ Effect: string; Action: string | string[]; Resource: unknown }> };
};
/** The role a function runs as, and its statements (the log statement first). */
function roleOf(fnId: string) {
  const role = template.Resources[fnId]!.Properties.Role as { 'Fn::GetAtt': [string, string] };
  const roleId = role['Fn::GetAtt'][0];
  const statements = (template.Resources[roleId]!.Properties.Policies as Policy[]).flatMap(
    (p) => p.PolicyDocument.Statement,
  );
  return { roleId, statements, managed: template.Resources[roleId]!.Properties.ManagedPolicyArns as unknown[] };
}
/** The statements past the log one, as `action → resources` lines: easy to compare whole. */
const grants = (fnId: string) =>
  roleOf(fnId)
    .statements.slice(1)
    .flatMap((s) => [s.Action].flat().map((a) => `${a} → ${JSON.stringify(s.Resource)}`))
    .sort();
const functionIds = () => resources('AWS::Lambda::Function').map(([id]) => id);
const JOB_IDS = [
  'TrimInboxes',
  'RepairRelations',
  'RepairPostCounts',
  'RegenerationSweep',
  'AwaySweep',
  'MediaCleanup',
  'EraseAccounts',
  'DeadLetterReport',
  'RankHot',
  'MigrateLayout',
];
const ssmArn = (name: string) => ({
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
const lambdaArn = (fn: string) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':lambda:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      `:function:weibo-${STAGE}-${fn}`,
    ],
  ],
});
const queue = JSON.stringify([getAtt('FanoutQueue', 'Arn')]);
const dlq = JSON.stringify([getAtt('FanoutDeadLetterQueue', 'Arn')]);
const WORKER_IDS = ['FanoutLambdaFunction', 'ProcessMediaLambdaFunction'];
const LIVE_IDS = ['LiveConnectLambdaFunction', 'LiveDisconnectLambdaFunction', 'LiveMessageLambdaFunction'];
/** The functions that push frames to live connections (and end expired ones). */
const PUSHER_IDS = [
  'FanoutLambdaFunction',
  'LiveMessageLambdaFunction',
  'MessagesLambdaFunction',
  'ProcessMediaLambdaFunction',
];
const tokenKeys = JSON.stringify([ssmArn(`/weibo/${STAGE}/jwt-secret`), ssmArn(`/weibo/${STAGE}/jwt-secret-previous`)]);
/** execute-api:ManageConnections' resource: `method` on the connections of the WebSocket API's stage. */
const connectionsArn = (method: string) => ({
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
      { Ref: 'WebsocketsApi' },
      `/${STAGE}/${method}/@connections/*`,
    ],
  ],
});
const manageConnections = JSON.stringify([connectionsArn('POST'), connectionsArn('DELETE')]);
const mediaQueue = JSON.stringify([getAtt('MediaQueue', 'Arn')]);
/** The media bucket's objects under one key prefix (infra/stage-settings.cjs). */
const mediaObjects = (prefix: string) => ({ 'Fn::Join': ['', [getAtt('MediaBucket', 'Arn'), `/${prefix}*`]] });
const uploads = JSON.stringify([mediaObjects('uploads/')]);
const variants = JSON.stringify([mediaObjects('media/'), mediaObjects('private/')]);
const privateObjects = JSON.stringify([mediaObjects('private/')]);
const exportsPrefix = JSON.stringify([mediaObjects('exports/')]);

describe('least privilege: every function its own role (infra/plugins/function-roles-and-network.cjs)', () => {
  it('gives each function a role of its own and leaves no shared role behind', () => {
    const roles = functionIds().map((id) => roleOf(id).roleId);
    expect(roles.length).toBeGreaterThan(30);
    expect(new Set(roles).size).toBe(roles.length);
    expect(template.Resources).not.toHaveProperty('IamRoleLambdaExecution');
    // The one other role is API Gateway's own, for the WebSocket API's access log (infra/resources/live.yml).
    expect(resources('AWS::IAM::Role').map(([id]) => id)).toEqual(
      expect.arrayContaining([...roles, 'ApiGatewayCloudWatchRole']),
    );
    expect(resources('AWS::IAM::Role')).toHaveLength(roles.length + 1);
  });

  it('lets each write only to its own log group', () => {
    for (const id of functionIds()) {
      const [logs] = roleOf(id).statements;
      const name = template.Resources[id]!.Properties.FunctionName as string;
      expect([logs!.Action].flat().sort(), id).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      expect(JSON.stringify(logs!.Resource), id).toContain(`:log-group:/aws/lambda/${name}:*`);
    }
  });

  it('API functions: send to the fan-out queue and read the signing keys; nothing else, but the media grants', () => {
    const api = functionIds().filter(
      (id) => !WORKER_IDS.includes(id) && !LIVE_IDS.includes(id) && !JOB_IDS.some((j) => id === `${j}LambdaFunction`),
    );
    expect(api.length).toBeGreaterThan(25);
    const expected = [
      `sqs:SendMessage → ${queue}`,
      `ssm:GetParameter → ${JSON.stringify([ssmArn(`/weibo/${STAGE}/jwt-secret`), ssmArn(`/weibo/${STAGE}/jwt-secret-previous`)])}`,
    ];
    // createUpload presigns the browser's PUT, so it may put under uploads/ (a presigned URL
    // carries exactly its signer's rights); completeUpload HEADs the upload and queues it;
    // deletePost queues the discard of the post's pictures.
    const own: Record<string, string[]> = {
      CreateUploadLambdaFunction: [`s3:PutObject → ${uploads}`],
      CompleteUploadLambdaFunction: [`s3:GetObject → ${uploads}`, `sqs:SendMessage → ${mediaQueue}`],
      DeletePostLambdaFunction: [`sqs:SendMessage → ${mediaQueue}`],
      // It presigns the export's download: a GET under exports/, nothing else of the bucket.
      ExportDataLambdaFunction: [`s3:GetObject → ${exportsPrefix}`],
      // Private messages tell both sides' connections, sign a reader's GET of a message picture
      // (private/ only), and a recall queues its pictures' discard.
      MessagesLambdaFunction: [
        `execute-api:ManageConnections → ${manageConnections}`,
        `s3:GetObject → ${privateObjects}`,
        `sqs:SendMessage → ${mediaQueue}`,
      ],
    };
    expect(api).toEqual(
      expect.arrayContaining(['CreateUploadLambdaFunction', 'CompleteUploadLambdaFunction', 'GetMediaLambdaFunction']),
    );
    for (const id of api) expect(grants(id), id).toEqual([...expected, ...(own[id] ?? [])].sort());
  });

  it('pictures: the media worker alone consumes the media queue, reads and deletes originals, writes and deletes variants; no one else touches the bucket', () => {
    expect(grants('ProcessMediaLambdaFunction')).toEqual(
      [
        // It tells the uploader's open connections that a picture is ready or failed.
        `execute-api:ManageConnections → ${manageConnections}`,
        `s3:DeleteObject → ${uploads}`,
        `s3:DeleteObject → ${variants}`,
        `s3:GetObject → ${uploads}`,
        `s3:PutObject → ${variants}`,
        `sqs:DeleteMessage → ${mediaQueue}`,
        `sqs:GetQueueAttributes → ${mediaQueue}`,
        `sqs:ReceiveMessage → ${mediaQueue}`,
      ].sort(),
    );
    // The data export: the worker puts it, exportData presigns its download (both under exports/).
    const media = [
      'CreateUploadLambdaFunction',
      'CompleteUploadLambdaFunction',
      'ProcessMediaLambdaFunction',
      'ExportDataLambdaFunction',
      'FanoutLambdaFunction',
    ];
    // Discards are queued by a post's delete and the cleanup job: they send, and touch no object.
    const discarders = [
      'DeletePostLambdaFunction',
      'MediaCleanupLambdaFunction',
      'EraseAccountsLambdaFunction',
      'MessagesLambdaFunction',
    ];
    for (const id of discarders)
      expect(
        grants(id).filter((g) => g.includes('"MediaQueue"')),
        id,
      ).toEqual([`sqs:SendMessage → ${mediaQueue}`]);
    for (const id of functionIds()) {
      const all = grants(id);
      // Never a wildcard action or the whole bucket, even for the three.
      expect(
        all.filter((g) => g.startsWith('s3:*') || g.endsWith(`→ ${JSON.stringify([getAtt('MediaBucket', 'Arn')])}`)),
        id,
      ).toEqual([]);
      // A private message's pictures: only the worker writes or deletes them; a function that may
      // read them (it presigns a reader's GET) has the messages' role: GetObject there, nothing else.
      const onPrivate = all.filter((g) => g.includes('/private/'));
      if (id !== 'ProcessMediaLambdaFunction')
        expect(onPrivate, id).toEqual(id === 'MessagesLambdaFunction' ? [`s3:GetObject → ${privateObjects}`] : []);
      if (media.includes(id) || onPrivate.length > 0) continue;
      expect(
        all.filter((g) => g.startsWith('s3:') || g.includes('MediaBucket')),
        id,
      ).toEqual([]);
      if (discarders.includes(id)) continue;
      expect(
        all.filter((g) => g.includes('"MediaQueue"') || g.includes('MediaDeadLetterQueue')),
        id,
      ).toEqual([]);
    }
  });

  it('only the worker consumes the queue; it never reads a signing key; it pushes to live connections', () => {
    // And it writes data exports, under exports/ only.
    expect(grants('FanoutLambdaFunction')).toEqual(
      [
        `s3:PutObject → ${exportsPrefix}`,
        `sqs:DeleteMessage → ${queue}`,
        `sqs:GetQueueAttributes → ${queue}`,
        `sqs:ReceiveMessage → ${queue}`,
        `sqs:SendMessage → ${queue}`,
        `execute-api:ManageConnections → ${manageConnections}`,
      ].sort(),
    );
    for (const id of functionIds().filter((i) => i !== 'FanoutLambdaFunction')) {
      expect(
        grants(id).filter((g) => /sqs:(ReceiveMessage|DeleteMessage)/.test(g) && g.includes(queue)),
        id,
      ).toEqual([]);
    }
  });

  it('each job invokes only itself; only the dead-letter report reads the DLQ (never deletes); the sweep may re-send', () => {
    const jobs = [
      'trimInboxes',
      'repairRelations',
      'repairPostCounts',
      'regenerationSweep',
      'awaySweep',
      'mediaCleanup',
      'eraseAccounts',
      'deadLetterReport',
      'rankHot',
      'migrateLayout',
    ];
    for (const [i, id] of JOB_IDS.entries()) {
      const invoke = `lambda:InvokeFunction → ${JSON.stringify([lambdaArn(jobs[i]!)])}`;
      const own =
        {
          RegenerationSweep: [`sqs:SendMessage → ${queue}`],
          AwaySweep: [`sqs:SendMessage → ${queue}`],
          MediaCleanup: [`sqs:SendMessage → ${mediaQueue}`],
          EraseAccounts: [`sqs:SendMessage → ${mediaQueue}`],
          DeadLetterReport: [`sqs:GetQueueAttributes → ${dlq}`, `sqs:ReceiveMessage → ${dlq}`],
        }[id] ?? [];
      expect(grants(`${id}LambdaFunction`), id).toEqual([invoke, ...own].sort());
    }
    for (const id of functionIds().filter((i) => !JOB_IDS.some((j) => i === `${j}LambdaFunction`))) {
      expect(
        grants(id).filter((g) => g.startsWith('lambda:')),
        id,
      ).toEqual([]);
    }
    for (const id of functionIds().filter((i) => i !== 'DeadLetterReportLambdaFunction')) {
      expect(
        grants(id).filter((g) => g.includes('FanoutDeadLetterQueue')),
        id,
      ).toEqual([]);
    }
  });

  it('no action or resource wildcard anywhere, and no VPC policy when the stage has no VPC', () => {
    for (const id of functionIds()) {
      const { statements, managed } = roleOf(id);
      expect(managed, id).toEqual([]);
      for (const st of statements) {
        expect(st.Effect).toBe('Allow');
        for (const action of [st.Action].flat()) expect(action, id).not.toContain('*');
        // The allowed stars: the log streams of the function's own log group, the media
        // bucket's objects under one of its key prefixes (ids are random: no narrower ARN),
        // and the connections of the WebSocket API's stage (ids are API Gateway's).
        const resource = JSON.stringify(st.Resource)
          .replace(/:log-group:[^"]+:\*/, '')
          .replace(new RegExp(`\\{"Ref":"WebsocketsApi"\\},"/${STAGE}/(POST|DELETE)/@connections/\\*"`, 'g'), '')
          .replace(
            /\{"Fn::Join":\["",\[\{"Fn::GetAtt":\["MediaBucket","Arn"\]\},"\/(uploads|media|private|exports)\/\*"\]\]\}/g,
            '',
          );
        expect(resource, id).not.toContain('*');
      }
    }
  });
});

describe('the live channel: the WebSocket API (infra/functions/live.yml, infra/resources/live.yml)', () => {
  const onLiveApi = (type: string) =>
    resources(type).filter(([, r]) => JSON.stringify(r.Properties.ApiId) === JSON.stringify({ Ref: 'WebsocketsApi' }));
  const ROUTES: Record<string, string> = {
    $connect: 'LiveConnectLambdaFunction',
    $disconnect: 'LiveDisconnectLambdaFunction',
    $default: 'LiveMessageLambdaFunction',
  };

  it('has the WebSocket API, its stage and the three routes, each to its own function', () => {
    expect(template.Resources.WebsocketsApi).toMatchObject({
      Type: 'AWS::ApiGatewayV2::Api',
      Properties: { ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' },
    });
    const stages = onLiveApi('AWS::ApiGatewayV2::Stage');
    expect(stages.map(([id]) => id)).toEqual(['WebsocketsDeploymentStage']);
    const stage = stages[0]![1];
    expect(stage.Properties.StageName).toBe(STAGE);
    const deploymentId = (stage.Properties.DeploymentId as { Ref: string }).Ref;
    expect(template.Resources[deploymentId]!.Type).toBe('AWS::ApiGatewayV2::Deployment');

    const routes = onLiveApi('AWS::ApiGatewayV2::Route');
    expect(routes.map(([, r]) => r.Properties.RouteKey as string).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [routeId, route] of routes) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      const integration = template.Resources[integrationId]!;
      expect(integration.Properties.IntegrationType, routeId).toBe('AWS_PROXY');
      expect(JSON.stringify(integration.Properties.IntegrationUri), routeId).toContain(
        JSON.stringify(getAtt(ROUTES[route.Properties.RouteKey as string]!, 'Arn')),
      );
      // The stage's deployment waits for every route.
      expect([template.Resources[deploymentId]!.DependsOn].flat(), routeId).toContain(routeId);
    }
    // $default answers the client (a pong, an error frame) through its route response.
    expect(onLiveApi('AWS::ApiGatewayV2::RouteResponse').map(([, r]) => r.Properties.RouteResponseKey)).toEqual([
      '$default',
    ]);
  });

  it('lets API Gateway invoke each live function for its own route of this API and stage alone', () => {
    for (const [route, fnId] of Object.entries(ROUTES)) {
      const permissions = resources('AWS::Lambda::Permission').filter(
        ([, p]) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify(getAtt(fnId, 'Arn')),
      );
      expect(permissions, fnId).toHaveLength(1);
      expect(permissions[0]![1].Properties, fnId).toMatchObject({
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        SourceArn: {
          'Fn::Sub': `arn:\${AWS::Partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${WebsocketsApi}/${STAGE}/${route}`,
        },
      });
    }
  });

  it('logs every connect, message and disconnect (no header, no frame), throttled at the HTTP API’s rate, no execution log', () => {
    const stage = template.Resources.WebsocketsDeploymentStage!;
    const log = template.Resources.WebsocketsAccessLogGroup!;
    expect(log.Type).toBe('AWS::Logs::LogGroup');
    expect(log.Properties).toEqual({ LogGroupName: `/aws/websocket/weibo-${STAGE}`, RetentionInDays: 14 });
    const access = stage.Properties.AccessLogSettings;
    expect(access.DestinationArn).toEqual({
      'Fn::Sub': 'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:${WebsocketsAccessLogGroup}',
    });
    const fields = JSON.parse(access.Format as string) as Record<string, string>;
    expect(fields).toMatchObject({
      requestId: '$context.requestId',
      eventType: '$context.eventType',
      routeKey: '$context.routeKey',
      status: '$context.status',
      connectionId: '$context.connectionId',
    });
    // The token rides in Sec-WebSocket-Protocol: no header and no message body is logged.
    expect(access.Format).not.toMatch(/header|body|protocol/i);
    expect(stage.Properties.DefaultRouteSettings).toEqual({
      ThrottlingBurstLimit: 200,
      ThrottlingRateLimit: 100,
      DataTraceEnabled: false,
      LoggingLevel: 'OFF',
    });
    // A WebSocket stage logs through the account's API Gateway CloudWatch role: this stack sets it
    // (and keeps it on deletion: the setting is account-wide).
    expect([stage.DependsOn].flat()).toContain('ApiGatewayAccount');
    const account = template.Resources.ApiGatewayAccount as Resource & { DeletionPolicy?: string };
    expect(account.Type).toBe('AWS::ApiGateway::Account');
    expect(account.Properties.CloudWatchRoleArn).toEqual(getAtt('ApiGatewayCloudWatchRole', 'Arn'));
    expect(account.DeletionPolicy).toBe('Retain');
    const role = template.Resources.ApiGatewayCloudWatchRole as Resource & { DeletionPolicy?: string };
    expect(role.DeletionPolicy).toBe('Retain');
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Effect: 'Allow', Principal: { Service: 'apigateway.amazonaws.com' }, Action: 'sts:AssumeRole' },
    ]);
    expect(role.Properties.ManagedPolicyArns).toEqual([
      { 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs' },
    ]);
    expect(role.Properties).not.toHaveProperty('Policies');
  });

  it('only the functions that push (the two workers, liveMessage, messages) may manage connections, of this API’s stage alone; only the token-checking routes read the signing keys', () => {
    const managers = functionIds().filter((id) =>
      roleOf(id).statements.some((st) => [st.Action].flat().some((a) => a.startsWith('execute-api:'))),
    );
    expect(managers.sort()).toEqual(PUSHER_IDS);
    for (const id of managers)
      expect(
        grants(id).filter((g) => g.startsWith('execute-api:')),
        id,
      ).toEqual([`execute-api:ManageConnections → ${manageConnections}`]);
    // Nothing else in the template grants it (no other role or policy).
    const holders = Object.entries(template.Resources)
      .filter(([, r]) => JSON.stringify(r).includes('execute-api:ManageConnections'))
      .map(([id]) => id);
    expect(holders.sort()).toEqual(managers.map((id) => roleOf(id).roleId).sort());

    // $connect checks the access token, and so does a renew frame ($default); $disconnect none.
    const signingKeys = `ssm:GetParameter → ${tokenKeys}`;
    expect(grants('LiveConnectLambdaFunction')).toEqual([signingKeys]);
    expect(grants('LiveDisconnectLambdaFunction')).toEqual([]);
    expect(grants('LiveMessageLambdaFunction')).toEqual(
      [signingKeys, `execute-api:ManageConnections → ${manageConnections}`].sort(),
    );
  });

  it('points the pushing functions at the stage’s management API (LIVE_ENDPOINT), as deployed (no LIVE_LOCAL)', () => {
    const endpoint = {
      'Fn::Join': [
        '',
        ['https://', { Ref: 'WebsocketsApi' }, '.execute-api.', { Ref: 'AWS::Region' }, `.amazonaws.com/${STAGE}`],
      ],
    };
    for (const id of PUSHER_IDS) {
      const variables = template.Resources[id]!.Properties.Environment.Variables;
      expect(variables.LIVE_ENDPOINT, id).toEqual(endpoint);
      expect(variables, id).not.toHaveProperty('LIVE_LOCAL');
    }
  });
});

describe('secrets at run time, network and pressure on the gateway', () => {
  const variables = () =>
    functionIds().map(
      (id) => [id, template.Resources[id]!.Properties.Environment.Variables as Record<string, unknown>] as const,
    );

  it('puts no secret in the template: the functions get SSM parameter names, never a key or a credential', () => {
    const text = JSON.stringify(template);
    for (const [id, env] of variables()) {
      expect(env, id).not.toHaveProperty('JWT_SECRET');
      expect(env, id).not.toHaveProperty('HBASE_AUTHORIZATION');
      // Password hashes at OWASP's cost: only the local stage (serverless-offline) lowers it.
      expect(env, id).not.toHaveProperty('PASSWORD_SCRYPT_LOG2N');
      expect(env, id).toMatchObject({
        JWT_SECRET_PARAMETER: `/weibo/${STAGE}/jwt-secret`,
        JWT_PREVIOUS_SECRET_PARAMETER: `/weibo/${STAGE}/jwt-secret-previous`,
        SECRETS_MAX_AGE_SECONDS: '300',
      });
    }
    // Not resolved at deploy time anywhere (the ${ssm:…} of old put the key in the template).
    expect(text).not.toMatch(/JWT_SECRET"\s*:/);
    expect(readFileSync(join(ROOT, 'serverless.yml'), 'utf8')).not.toContain('${ssm:');
  });

  it('reaches the gateway over https with the stage settings as parameters; the scale knobs per stage, none from the shell', () => {
    for (const [id, env] of variables()) {
      expect(env, id).toMatchObject({
        HBASE_REST_URL: GATEWAY,
        HBASE_NAMESPACE: 'weibo',
        CELEBRITY_FOLLOWERS: '10000',
        INBOX_CAP: '800',
        SETTLE_SECONDS: '60',
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
      expect(template.Resources[id]!.Properties, id).not.toHaveProperty('VpcConfig');
    }
    // Deployed stages take nothing from the deployer's environment: only the local stage does.
    const yml = readFileSync(join(ROOT, 'serverless.yml'), 'utf8');
    const deployed = yml.slice(yml.indexOf('params:'), yml.indexOf('provider:')).split(/\n {2}local:\n/);
    expect(deployed[0]).not.toContain('${env:');
    expect(deployed[1]!.split(/\n {2}dev:\n/)[1]).not.toContain('${env:');
  });

  it('bounds the pressure: at most workerMaxConcurrency workers (mediaWorkerMaxConcurrency media workers), one step per job, API throttled at the edge', () => {
    expect(mappingOf('FanoutQueue').Properties.ScalingConfig).toEqual({ MaximumConcurrency: 5 });
    expect(mappingOf('MediaQueue').Properties.ScalingConfig).toEqual({ MaximumConcurrency: 5 });
    for (const id of JOB_IDS)
      expect(template.Resources[`${id}LambdaFunction`]!.Properties.ReservedConcurrentExecutions, id).toBe(1);
    expect(template.Resources.HttpApiStage!.Properties.DefaultRouteSettings).toEqual({
      ThrottlingBurstLimit: 200,
      ThrottlingRateLimit: 100,
    });
  });

  it('fits the HBase client inside each function: per-attempt timeout below the shortest function timeout', () => {
    const timeouts = functionIds().map((id) => template.Resources[id]!.Properties.Timeout as number);
    // shared/runtime/deadline.ts: calls end RESERVE_MS (1 s) before the function's timeout; one
    // attempt (HBASE_TIMEOUT_MS, 3 s by default) must fit in what is left of the shortest.
    expect(Math.min(...timeouts)).toBe(10);
    expect(3_000).toBeLessThanOrEqual(Math.min(...timeouts) * 1000 - 1_000);
  });
});

describe('stage settings are checked before anything is built (infra/stage-settings.cjs)', () => {
  const print = (stage: string, ...params: string[]) =>
    run(
      process.execPath,
      [
        SLS,
        'print',
        '--stage',
        stage,
        '--format',
        'json',
        '--path',
        'provider.environment',
        ...params.map((p) => `--param=${p}`),
      ],
      { cwd: ROOT, env, timeout: 60_000 },
    );
  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return `${e.stdout ?? ''}${e.stderr ?? ''}`;
    }
    throw new Error('expected serverless to refuse the stage');
  };

  it('refuses a deployed stage with no gateway, naming the stage and the setting', async () => {
    const out = await failure(print('staging'));
    expect(out).toContain('Stage "staging" is not configured: hbaseRestUrl is not set');
    expect(out).toContain('params.staging');
  }, 90_000);

  it('refuses plain http to the gateway, a key parameter that is no SSM name and half a VPC; "test" is deployed like any other name', async () => {
    const out = await failure(
      print(
        'test',
        'hbaseRestUrl=http://10.0.0.5:8080',
        'jwtSecretParameter=weibo-key',
        'vpcSubnetIds=subnet-0123456789abcdef0',
      ),
    );
    expect(out).toContain('Stage "test" is not configured');
    expect(out).toContain('hbaseRestUrl must be https://');
    expect(out).toContain('jwtSecretParameter must be an SSM parameter name starting with /');
    expect(out).toContain('vpcSubnetIds and vpcSecurityGroupIds go together');
  }, 90_000);

  it('puts every function in the VPC the stage names, with the network-interface policy on its role', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weibo-package-vpc-'));
    const folder = `${workFolder}-vpc`;
    try {
      const subnets = ['subnet-0123456789abcdef0', 'subnet-0fedcba9876543210'];
      await packageService(
        [
          '--stage',
          'prod',
          '--package',
          dir,
          ...PARAMS,
          `--param=vpcSubnetIds=${subnets.join(',')}`,
          '--param=vpcSecurityGroupIds=sg-0123456789abcdef0',
        ],
        { ...env, ESBUILD_WORK_FOLDER: folder },
        240_000,
      );
      const vpcTemplate = JSON.parse(
        readFileSync(join(dir, 'cloudformation-template-update-stack.json'), 'utf8'),
      ) as Template;
      const fns = Object.entries(vpcTemplate.Resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
      expect(fns.length).toBeGreaterThan(30);
      for (const [id, fn] of fns) {
        expect(fn.Properties.VpcConfig, id).toEqual({ SubnetIds: subnets, SecurityGroupIds: ['sg-0123456789abcdef0'] });
        const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
        expect(JSON.stringify(vpcTemplate.Resources[roleId]!.Properties.ManagedPolicyArns), id).toContain(
          'service-role/AWSLambdaVPCAccessExecutionRole',
        );
      }
      // prod's own params: more workers at once than dev.
      const mapping = Object.values(vpcTemplate.Resources).find(
        (r) =>
          r.Type === 'AWS::Lambda::EventSourceMapping' &&
          JSON.stringify(r.Properties.EventSourceArn) === JSON.stringify(getAtt('FanoutQueue', 'Arn')),
      )!;
      expect(mapping.Properties.ScalingConfig).toEqual({ MaximumConcurrency: 10 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(join(ROOT, folder), { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the web client: S3 + CloudFront (infra/resources/web.yml) and its build (infra/plugins/web-client.cjs)', () => {
  const distribution = () => template.Resources.WebDistribution!.Properties.DistributionConfig;
  const origin = (id: string) => (distribution().Origins as Origin[]).find((o) => o.Id === id);
  const bucketStatements = () => template.Resources.WebBucketPolicy!.Properties.PolicyDocument.Statement as Statement[];

  it('keeps the bucket private: every public access blocked, ACLs off (owner enforced), encrypted at rest', () => {
    const bucket = template.Resources.WebBucket!;
    expect(bucket.Type).toBe('AWS::S3::Bucket');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    expect(
      bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault
        .SSEAlgorithm,
    ).toMatch(/^(AES256|aws:kms)$/);
    expect(bucket.Properties).not.toHaveProperty('WebsiteConfiguration');
    expect(bucket.Properties).not.toHaveProperty('AccessControl');
  });

  it('reads the bucket through an Origin Access Control bound to it (no legacy OAI), HTTPS, HTTP/2+3, index.html at /', () => {
    expect(resources('AWS::CloudFront::CloudFrontOriginAccessIdentity')).toHaveLength(0);
    const oacId = 'WebOriginAccessControl';
    const oac = template.Resources[oacId]!;
    expect(oac.Type).toBe('AWS::CloudFront::OriginAccessControl');
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });

    expect(template.Resources.WebDistribution!.Type).toBe('AWS::CloudFront::Distribution');
    expect(distribution()).toMatchObject({ Enabled: true, DefaultRootObject: 'index.html', HttpVersion: 'http2and3' });
    const s3 = origin('web-bucket')!;
    expect(s3.DomainName).toEqual(getAtt('WebBucket', 'RegionalDomainName'));
    expect(s3.OriginAccessControlId).toEqual(getAtt(oacId, 'Id'));
    expect(s3.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });

    expect(distribution().DefaultCacheBehavior).toMatchObject({
      TargetOriginId: 'web-bucket',
      ViewerProtocolPolicy: 'redirect-to-https',
      Compress: true,
      CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6', // managed CachingOptimized
    });
    // Distribution-wide error pages would also rewrite the API's own 403/404 answers.
    expect(distribution()).not.toHaveProperty('CustomErrorResponses');
  });

  it('lets only this distribution read the bucket (aws:SourceArn), and nobody use it without TLS', () => {
    const statements = bucketStatements();
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    const [allow] = allows as [Statement];
    expect(allow.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect([allow.Action].flat()).toEqual(['s3:GetObject']);
    expect(allow.Resource).toEqual({ 'Fn::Sub': '${WebBucket.Arn}/*' });
    expect(allow.Condition).toEqual({
      StringEquals: {
        'AWS:SourceArn': {
          'Fn::Sub': 'arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${WebDistribution}',
        },
      },
    });

    const denies = statements.filter((s) => s.Effect === 'Deny');
    expect(denies).toHaveLength(1);
    expect(denies[0]).toMatchObject({
      Principal: '*',
      Action: 's3:*',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });
    expect(JSON.stringify(denies[0]!.Resource)).toContain('"WebBucket","Arn"');
    expect(JSON.stringify(denies[0]!.Resource)).toContain('${WebBucket.Arn}/*');
    expect(template.Resources.WebBucketPolicy!.Properties.Bucket).toEqual({ Ref: 'WebBucket' });
  });

  it('sends /api/* to the HTTP API, uncached, every method, through the function that strips /api', () => {
    expect(template.Resources.HttpApi!.Type).toBe('AWS::ApiGatewayV2::Api');
    expect(template.Resources.HttpApiStage!.Properties.StageName).toBe('$default');
    const api = origin('http-api')!;
    expect(api.DomainName).toEqual({ 'Fn::Sub': '${HttpApi}.execute-api.${AWS::Region}.amazonaws.com' });
    expect(api.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });

    const behaviours = distribution().CacheBehaviors as CacheBehavior[];
    const onApi = behaviours.filter((b) => b.PathPattern === '/api/*');
    expect(onApi).toHaveLength(1);
    expect(onApi[0]).toMatchObject({
      TargetOriginId: 'http-api',
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // managed CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // managed AllViewerExceptHostHeader
      FunctionAssociations: [
        { EventType: 'viewer-request', FunctionARN: getAtt('WebApiPrefixFunction', 'FunctionARN') },
      ],
    });
    expect([...onApi[0]!.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(onApi[0]!.ViewerProtocolPolicy).not.toBe('allow-all');

    // The function itself, run as CloudFront would (viewer request in, request out).
    const fn = template.Resources.WebApiPrefixFunction!;
    expect(fn.Type).toBe('AWS::CloudFront::Function');
    expect(fn.Properties).toMatchObject({ AutoPublish: true, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
    const handler = runInNewContext(`${fn.Properties.FunctionCode as string}\n;handler`) as (e: unknown) => {
      uri: string;
      querystring: unknown;
    };
    const viewer = (uri: string) =>
      handler({ request: { method: 'GET', uri, querystring: { limit: { value: '5' } }, headers: {} } });
    expect(viewer('/api/users/ann/timeline')).toMatchObject({
      uri: '/users/ann/timeline',
      querystring: { limit: { value: '5' } },
    });
    expect(viewer('/api/openapi.json').uri).toBe('/openapi.json');
    expect(viewer('/api/').uri).toBe('/');
  });

  it('sends /api/live to the WebSocket API’s stage: before /api/*, uncached, the Sec-WebSocket-* headers forwarded, https only', () => {
    const live = origin('live-api')!;
    expect(live.DomainName).toEqual({ 'Fn::Sub': '${WebsocketsApi}.execute-api.${AWS::Region}.amazonaws.com' });
    expect(live.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    // The stage is the path the function writes (a WebSocket API serves its stage's root alone).
    expect(live).not.toHaveProperty('OriginPath');

    const behaviours = distribution().CacheBehaviors as CacheBehavior[];
    const onLive = behaviours.findIndex((b) => b.PathPattern === '/api/live');
    // CloudFront takes the first pattern that matches: /api/* would send the upgrade to the HTTP API.
    expect(onLive).toBeGreaterThanOrEqual(0);
    expect(onLive).toBeLessThan(behaviours.findIndex((b) => b.PathPattern === '/api/*'));
    expect(behaviours[onLive]).toMatchObject({
      TargetOriginId: 'live-api',
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // managed CachingDisabled
      // Every viewer header but Host: Sec-WebSocket-Key/-Version/-Protocol (the token) reach the API.
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // managed AllViewerExceptHostHeader
      FunctionAssociations: [
        { EventType: 'viewer-request', FunctionARN: getAtt('WebLivePathFunction', 'FunctionARN') },
      ],
    });
    expect(behaviours[onLive]!.AllowedMethods).toContain('GET');
    expect(behaviours[onLive]).not.toHaveProperty('ResponseHeadersPolicyId');

    const fn = template.Resources.WebLivePathFunction!;
    expect(fn.Type).toBe('AWS::CloudFront::Function');
    expect(fn.Properties).toMatchObject({ AutoPublish: true, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
    const handler = runInNewContext(`${fn.Properties.FunctionCode as string}\n;handler`) as (e: unknown) => {
      uri: string;
      headers: unknown;
    };
    const headers = { 'sec-websocket-protocol': { value: 'weibo-live.v1, bearer.token' } };
    expect(handler({ request: { method: 'GET', uri: '/api/live', querystring: {}, headers } })).toMatchObject({
      uri: `/${STAGE}`,
      headers,
    });
    expect(template.Outputs.LiveUrl!.Value).toEqual({ 'Fn::Sub': 'wss://${WebDistribution.DomainName}/api/live' });
  });

  it("sends the pages' security headers (web/security-headers.ts) on the client's behaviour: strict CSP, Referrer-Policy, HSTS", () => {
    expect(distribution().DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: 'WebResponseHeadersPolicy' });
    const policy = template.Resources.WebResponseHeadersPolicy!;
    expect(policy.Type).toBe('AWS::CloudFront::ResponseHeadersPolicy');
    const security = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    // The CSP, with the media bucket's regional domain (the presigned upload PUT) spelled as the
    // template does, must be the text web/serve.ts sends locally for those origins.
    const csp = security.ContentSecurityPolicy;
    expect(csp.Override).toBe(true);
    const [sep, parts] = csp.ContentSecurityPolicy['Fn::Join'] as [string, unknown[]];
    const BUCKET = 'media-bucket.s3.region.amazonaws.com';
    const bucketDomain = origin('media-bucket')!.DomainName;
    const text = parts
      .map((p) => {
        if (typeof p === 'string') return p;
        expect(p).toEqual(bucketDomain);
        return BUCKET;
      })
      .join(sep);
    // Pictures from the bucket's regional domain too: a private message's, through presigned GETs.
    expect(text).toBe(contentSecurityPolicy({ images: [`https://${BUCKET}`], connect: [`https://${BUCKET}`] }));
    expect(text).toContain(`img-src 'self' data: blob: https://${BUCKET};`);
    expect(text).toContain("script-src 'self';");
    expect(text).toContain("frame-ancestors 'none'");
    expect(text).not.toContain('unsafe-inline');
    expect(security.ReferrerPolicy).toEqual({ ReferrerPolicy: REFERRER_POLICY, Override: true });
    expect(security.StrictTransportSecurity).toMatchObject({
      AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS,
      Override: true,
    });
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    // The API's answers are the API's own (JSON, never framed as a page).
    const onApi = (distribution().CacheBehaviors as CacheBehavior[]).find((b) => b.PathPattern === '/api/*')!;
    expect(onApi).not.toHaveProperty('ResponseHeadersPolicyId');
  });

  it('outputs the web URL, the bucket name and the distribution id', () => {
    expect(template.Outputs.WebUrl!.Value).toEqual({ 'Fn::Sub': 'https://${WebDistribution.DomainName}' });
    expect(template.Outputs.WebBucketName!.Value).toEqual({ Ref: 'WebBucket' });
    expect(template.Outputs.WebDistributionId!.Value).toEqual({ Ref: 'WebDistribution' });
  });

  it('builds the client into the package for the same-origin API (.serverless/web, moved with --package)', () => {
    const web = join(packageDir, 'web');
    expect(existsSync(join(web, 'index.html'))).toBe(true);
    expect(readFileSync(join(web, 'config.js'), 'utf8')).toContain('"apiUrl":"/api"');
    const bundles = readdirSync(web).filter((f) => /^app-[A-Za-z0-9_-]+\.js$/.test(f));
    expect(bundles).toHaveLength(1);
    expect(readFileSync(join(web, 'index.html'), 'utf8')).toContain(`src="${bundles[0]}"`);
    expect(readFileSync(join(web, 'api-docs/index.html'), 'utf8')).toContain('/api/openapi.json');
  });
});

describe('pictures: the media bucket (infra/resources/media.yml), /media/* on the web distribution, the media queue and worker', () => {
  const bucket = () => template.Resources.MediaBucket!;
  const distribution = () => template.Resources.WebDistribution!.Properties.DistributionConfig;
  const webDomain = { 'Fn::Sub': 'https://${WebDistribution.DomainName}' };
  const thisDistribution = {
    'Fn::Sub': 'arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${WebDistribution}',
  };
  /** The bucket's name: the stage and the tail of the stack id (no account id in presigned URLs). */
  const bucketName = {
    'Fn::Join': [
      '-',
      [
        `weibo-${STAGE}-media`,
        {
          'Fn::Select': [
            4,
            { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] },
          ],
        },
      ],
    ],
  };

  it('keeps the bucket private, encrypted and unversioned, named from the stage and the stack', () => {
    expect(bucket().Type).toBe('AWS::S3::Bucket');
    expect(bucket().Properties.BucketName).toEqual(bucketName);
    expect(bucket().Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket().Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    // SSE-S3: OAC, presigned PUTs and the worker need no KMS grants.
    expect(bucket().Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
    // A deleted picture (or an original with its EXIF) must not live on as a noncurrent version.
    expect(bucket().Properties).not.toHaveProperty('VersioningConfiguration');
    expect(bucket().Properties).not.toHaveProperty('AccessControl');
    expect(bucket().Properties).not.toHaveProperty('WebsiteConfiguration');
  });

  it('expires uploads nobody attached and data exports after a day, and abandoned multipart uploads; never the variants', () => {
    expect(bucket().Properties.LifecycleConfiguration).toEqual({
      Rules: [
        { Id: 'expire-unattached-uploads', Status: 'Enabled', Prefix: 'uploads/', ExpirationInDays: 1 },
        { Id: 'expire-data-exports', Status: 'Enabled', Prefix: 'exports/', ExpirationInDays: 1 },
        {
          Id: 'abort-incomplete-multipart-uploads',
          Status: 'Enabled',
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        },
      ],
    });
  });

  it("lets the web client's origin, and it alone, PUT an upload straight to the bucket (CORS)", () => {
    expect(bucket().Properties.CorsConfiguration).toEqual({
      CorsRules: [
        {
          AllowedMethods: ['PUT', 'GET', 'HEAD'],
          AllowedOrigins: [webDomain],
          AllowedHeaders: ['content-type', 'content-length'],
          ExposedHeaders: ['ETag'],
          MaxAge: 600,
        },
      ],
    });
  });

  it('lets only the web distribution read, and only media/ (never uploads/); nobody without TLS', () => {
    const policy = template.Resources.MediaBucketPolicy!;
    expect(policy.Properties.Bucket).toEqual({ Ref: 'MediaBucket' });
    const statements = policy.Properties.PolicyDocument.Statement as Statement[];
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toEqual([
      {
        Sid: 'AllowWebDistributionToReadVariants',
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Resource: mediaObjects('media/'),
        Condition: { StringEquals: { 'AWS:SourceArn': thisDistribution } },
      },
    ]);
    expect(JSON.stringify(allows)).not.toContain('uploads/');
    // A private message's pictures: nobody but a presigned GET (the signer's own rights) reads them.
    expect(JSON.stringify(statements)).not.toContain('private/');
    const denies = statements.filter((s) => s.Effect === 'Deny');
    expect(denies).toEqual([
      {
        Sid: 'DenyInsecureTransport',
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:*',
        Resource: [getAtt('MediaBucket', 'Arn'), { 'Fn::Sub': '${MediaBucket.Arn}/*' }],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ]);
  });

  it('serves media/ through the web distribution under /media/*: its own OAC, GET/HEAD only, cached, nosniff', () => {
    const oac = template.Resources.MediaOriginAccessControl!;
    expect(oac.Type).toBe('AWS::CloudFront::OriginAccessControl');
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    const origin = (distribution().Origins as Origin[]).find((o) => o.Id === 'media-bucket')!;
    // The bucket's regional domain, built from the same name as the bucket's (a GetAtt would be a cycle with its CORS rule).
    expect(origin).toEqual({
      Id: 'media-bucket',
      DomainName: { 'Fn::Join': ['', [bucketName, '.s3.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] },
      OriginAccessControlId: getAtt('MediaOriginAccessControl', 'Id'),
      S3OriginConfig: { OriginAccessIdentity: '' },
    });

    const behaviours = distribution().CacheBehaviors as CacheBehavior[];
    const onMedia = behaviours.filter((b) => b.TargetOriginId === 'media-bucket');
    expect(onMedia).toHaveLength(1);
    expect(onMedia[0]).toEqual({
      PathPattern: '/media/*',
      TargetOriginId: 'media-bucket',
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      CachedMethods: ['GET', 'HEAD'],
      Compress: false,
      CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6', // managed CachingOptimized
      ResponseHeadersPolicyId: { Ref: 'MediaResponseHeadersPolicy' },
    });
    expect(distribution().DefaultCacheBehavior.TargetOriginId).toBe('web-bucket');
    // Nothing of the distribution reaches private/ (message pictures): the one media behaviour is
    // /media/*, and no path pattern names private.
    expect(JSON.stringify(distribution())).not.toMatch(/private/i);
    const headers = template.Resources.MediaResponseHeadersPolicy!;
    expect(headers.Type).toBe('AWS::CloudFront::ResponseHeadersPolicy');
    expect(headers.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentTypeOptions).toEqual({
      Override: true,
    });
  });

  it('has the media queue and its dead-letter queue with the numbers of queue-settings.cjs, and an alarm on the DLQ', () => {
    const q = template.Resources.MediaQueue!;
    const dlq = template.Resources.MediaDeadLetterQueue!;
    expect(q.Properties).toEqual({
      QueueName: `weibo-${STAGE}-media`,
      VisibilityTimeout: 6 * 60,
      MessageRetentionPeriod: 4 * 24 * 3600,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: getAtt('MediaDeadLetterQueue', 'Arn'), maxReceiveCount: 3 },
    });
    expect(q.Properties.VisibilityTimeout).toBe(media.visibilityTimeoutSeconds);
    expect(q.Properties.RedrivePolicy.maxReceiveCount).toBe(media.maxReceiveCount);
    expect(dlq.Properties).toEqual({
      QueueName: `weibo-${STAGE}-media-dlq`,
      MessageRetentionPeriod: 1_209_600,
      SqsManagedSseEnabled: true,
    });
    const alarms = resources('AWS::CloudWatch::Alarm').filter(([, a]) =>
      JSON.stringify(a.Properties.Dimensions).includes('"MediaDeadLetterQueue","QueueName"'),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]![1].Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [{ Ref: 'OperatorAlarmTopic' }],
    });
  });

  it('feeds the media worker one image per invocation, partial batch responses, on x86_64 with 2048 MB', () => {
    expect(mappingOf('MediaQueue').Properties).toMatchObject({
      FunctionName: getAtt('ProcessMediaLambdaFunction', 'Arn'),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 1,
      MaximumBatchingWindowInSeconds: 0,
      Enabled: true,
      ScalingConfig: { MaximumConcurrency: 5 },
    });
    const worker = template.Resources.ProcessMediaLambdaFunction!.Properties;
    expect(worker).toMatchObject({
      Handler: 'functions/queue/process-media.handler',
      Architectures: ['x86_64'],
      MemorySize: 2048,
      Timeout: 60,
    });
    // The one x86_64 function (sharp's linux-x64 build); the rest stay on arm64.
    for (const id of functionIds().filter((i) => i !== 'ProcessMediaLambdaFunction'))
      expect(template.Resources[id]!.Properties.Architectures, id).toEqual(['arm64']);
  });

  it('routes the three media operations, each to its own function', () => {
    const route = (key: string) =>
      resources('AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === key)?.[1];
    for (const [key, fn] of [
      ['POST /media', 'CreateUpload'],
      ['POST /media/{id}/complete', 'CompleteUpload'],
      ['GET /media/{id}', 'GetMedia'],
    ] as const) {
      expect(JSON.stringify(route(key)?.Properties.Target), key).toContain(`HttpApiIntegration${fn}`);
    }
  });

  describe('the packages: one zip per function, sharp in the media worker’s alone', () => {
    const zip = (fn: string) => zipEntries(join(packageDir, `${fn}.zip`));
    const SHARP = [
      'node_modules/sharp/',
      'node_modules/@img/sharp-linux-x64/',
      'node_modules/@img/sharp-libvips-linux-x64/',
      'node_modules/@img/colour/',
      'node_modules/detect-libc/',
      'node_modules/semver/',
    ];

    it('gives each function its own artifact', () => {
      const keys = functionIds().map((id) => template.Resources[id]!.Properties.Code.S3Key as string);
      expect(new Set(keys).size).toBe(keys.length);
      expect(template.Resources.ProcessMediaLambdaFunction!.Properties.Code.S3Key).toMatch(/\/processMedia\.zip$/);
    });

    it('bundles the worker with sharp left external, and packs sharp, its run-time dependencies and the linux-x64 binary and libvips next to it', () => {
      const names = [...zip('processMedia').keys()];
      for (const dir of SHARP)
        expect(
          names.some((n) => n.startsWith(dir)),
          dir,
        ).toBe(true);
      expect(names).toContain('node_modules/@img/sharp-linux-x64/lib/sharp-linux-x64.node');
      expect(names.some((n) => /^node_modules\/@img\/sharp-libvips-linux-x64\/lib\/libvips-cpp\.so\./.test(n))).toBe(
        true,
      );
      // Nothing else from node_modules, and no other platform's build.
      expect(names.filter((n) => n.startsWith('node_modules/') && !SHARP.some((d) => n.startsWith(d)))).toEqual([]);
      const bundle = zip('processMedia').get('functions/queue/process-media.cjs')!().toString('utf8');
      expect(bundle).toMatch(/require\("sharp"\)/);
      // sharp's own code is not inlined (its loader names the native module it looks for).
      expect(bundle).not.toContain('sharp-linux-x64.node');
    });

    it('the worker package loads sharp on its own and writes a WebP (nothing resolved outside it)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'weibo-process-media-'));
      try {
        for (const [name, read] of zip('processMedia')) {
          if (name.endsWith('/')) continue;
          mkdirSync(dirname(join(dir, name)), { recursive: true });
          writeFileSync(join(dir, name), read());
        }
        const script = `
          const sharp = require(${JSON.stringify(join(dir, 'node_modules/sharp'))});
          sharp({ create: { width: 4, height: 3, channels: 3, background: '#c00' } }).webp().toBuffer().then((b) => {
            const outside = Object.keys(require.cache).filter((f) => !f.startsWith(${JSON.stringify(dir)}));
            console.log(JSON.stringify({ riff: b.subarray(0, 4).toString(), webp: b.subarray(8, 12).toString(), outside }));
          });`;
        const { stdout } = await run(process.execPath, ['-e', script], {
          cwd: dir,
          env: { PATH: process.env.PATH ?? '' },
          timeout: 60_000,
        });
        expect(JSON.parse(stdout)).toEqual({ riff: 'RIFF', webp: 'WEBP', outside: [] });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 90_000);

    it('leaves sharp and every node_modules file out of the other packages', () => {
      const others = functionIds()
        .filter((id) => id !== 'ProcessMediaLambdaFunction')
        .map((id) =>
          (template.Resources[id]!.Properties.Code.S3Key as string)
            .split('/')
            .pop()!
            .replace(/\.zip$/, ''),
        );
      expect(others.length).toBeGreaterThan(40);
      for (const fn of others) {
        const names = [...zip(fn).keys()];
        expect(
          names.filter((n) => n.startsWith('node_modules/') || n.includes('sharp')),
          fn,
        ).toEqual([]);
        expect(
          names.filter((n) => n.endsWith('.cjs')),
          fn,
        ).toHaveLength(1);
      }
    });
  });
});

describe('template checks from PyPI (infra/ci/python-tools.sh): cfn-lint and checkov', () => {
  let bin: string;
  const templateFile = () => join(packageDir, 'cloudformation-template-update-stack.json');
  beforeAll(async () => {
    // Installs the pinned checkers into the user cache the first time on a machine (about a
    // minute), then every clone reuses them (infra/ci/python-tools.sh).
    const { stdout } = await run('bash', [join(ROOT, 'infra/ci/python-tools.sh')], { cwd: ROOT, timeout: 600_000 });
    bin = stdout.trim().split('\n').pop()!;
  }, 660_000);

  it('cfn-lint: no errors; the only warning is W3005 on the API resources serverless generates', async () => {
    let out = '';
    try {
      ({ stdout: out } = await run(join(bin, 'cfn-lint'), ['--format', 'json', templateFile()], {
        cwd: ROOT,
        timeout: 300_000,
        maxBuffer: 64 * 1024 * 1024,
      }));
    } catch (err) {
      // Exit codes 4 (warnings) and 8 (informational) carry the same JSON; 2 (errors) fails below.
      out = (err as { stdout?: string }).stdout ?? '';
      if (!out) throw err;
    }
    const findings = JSON.parse(out) as Array<{
      Level: string;
      Rule: { Id: string };
      Message: string;
      Location: { Path: unknown[] };
    }>;
    expect(findings.filter((f) => f.Level === 'Error')).toEqual([]);
    // W3005 "dependency already enforced": serverless's own HttpApi* resources (a route's
    // DependsOn on its integration, the stage's on its access log group) and its WebSocket
    // routes' Lambda permissions (DependsOn on the API and the function they name) — redundant, harmless.
    const generated = (id: string) => id.startsWith('HttpApi') || /^\w+LambdaPermissionWebsockets$/.test(id);
    const others = findings.filter((f) => !(f.Rule.Id === 'W3005' && generated(String(f.Location.Path[1]))));
    expect(findings.length - others.length).toBeGreaterThan(0);
    expect(others.map((f) => `${f.Rule.Id} ${f.Message}`)).toEqual([]);
  }, 300_000);

  it('checkov: every finding is fixed or justified in infra/ci/checkov-baseline.json, and every entry still applies', async () => {
    let out = '';
    try {
      ({ stdout: out } = await run(
        join(bin, 'checkov'),
        ['-f', templateFile(), '--framework', 'cloudformation', '--quiet', '--compact', '-o', 'json'],
        { cwd: ROOT, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      ));
    } catch (err) {
      out = (err as { stdout?: string }).stdout ?? '';
      if (!out) throw err;
    }
    const report = JSON.parse(out) as {
      results: { failed_checks: Array<{ check_id: string; resource: string }> };
      summary: { passed: number; failed: number };
    };
    const baseline = JSON.parse(readFileSync(join(ROOT, 'infra/ci/checkov-baseline.json'), 'utf8')) as {
      accepted: Array<{ check: string; resources: string[]; why: string }>;
    };
    const used = new Set<number>();
    const unjustified = report.results.failed_checks
      .filter((f) => {
        const i = baseline.accepted.findIndex(
          (a) => a.check === f.check_id && a.resources.some((r) => new RegExp(r).test(f.resource)),
        );
        if (i >= 0) used.add(i);
        return i < 0;
      })
      .map((f) => `${f.check_id} ${f.resource}`);
    expect(unjustified).toEqual([]);
    expect(baseline.accepted.filter((_, i) => !used.has(i)).map((a) => a.check)).toEqual([]);
    for (const a of baseline.accepted) expect(a.why.length, a.check).toBeGreaterThan(40);
    expect(report.summary.passed).toBeGreaterThan(500);
  }, 300_000);
});
