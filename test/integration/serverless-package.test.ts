// test/integration/serverless-package.test.ts — what would be deployed: `serverless package`
// (osls, bundling with esbuild; no AWS account, no network) and assertions on the generated
// CloudFormation. Packages the `dev` stage: it has the deployed queue numbers and, unlike
// `prod`, reads no SSM parameters. Also the web client's hosting (infra/resources/web.yml) and
// its build into the package (infra/plugins/web-client.cjs).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueSettings } from '../../infra/local/sqs-poller.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SLS = join(ROOT, 'node_modules/serverless/bin/serverless.js');
const STAGE = 'dev';
const settings = queueSettings(STAGE);
const run = promisify(execFile);

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: unknown };
type Template = { Resources: Record<string, Resource>; Outputs: Record<string, { Value: unknown }> };
type Statement = { Sid?: string; Effect: string; Principal: unknown; Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };

const packageDir = mkdtempSync(join(tmpdir(), 'weibo-package-'));
// Its own esbuild work folder: a serverless-offline running meanwhile (e2e, npm start) keeps
// its bundles; serverless-esbuild deletes its work folder after packaging.
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
  try {
    await run(process.execPath, [SLS, 'package', '--stage', STAGE, '--package', packageDir], {
      cwd: ROOT,
      env,
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`serverless package failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
  template = JSON.parse(readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8')) as Template;

  // The routes the configuration declares (infra/functions/*.yml), as serverless resolves them.
  const { stdout } = await run(process.execPath, [SLS, 'print', '--stage', STAGE, '--format', 'json', '--path', 'functions'], {
    cwd: ROOT,
    env,
    timeout: 60_000,
  });
  const functions = JSON.parse(stdout) as Record<string, { events?: Array<{ httpApi?: string | { method: string; path: string } }> }>;
  declaredRoutes = Object.values(functions)
    .flatMap((f) => f.events ?? [])
    .flatMap((e) => (e.httpApi === undefined ? [] : [e.httpApi === '*' ? '$default' : typeof e.httpApi === 'string' ? e.httpApi : `${e.httpApi.method.toUpperCase()} ${e.httpApi.path}`]));
}, 300_000);

afterAll(() => {
  rmSync(packageDir, { recursive: true, force: true });
  rmSync(join(ROOT, workFolder), { recursive: true, force: true });
});

const resources = (type: string) => Object.entries(template.Resources).filter(([, r]) => r.Type === type);
const getAtt = (logicalId: string, attr: string) => ({ 'Fn::GetAtt': [logicalId, attr] });

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

  it("gives the queue a visibility timeout of at least 6 × the worker's timeout plus the batching window", () => {
    const worker = template.Resources.FanoutLambdaFunction!;
    const [, mapping] = resources('AWS::Lambda::EventSourceMapping')[0]!;
    expect(worker.Properties.Timeout).toBe(settings.workerTimeoutSeconds);
    expect(template.Resources.FanoutQueue!.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(
      6 * worker.Properties.Timeout + (mapping.Properties.MaximumBatchingWindowInSeconds ?? 0),
    );
  });

  it('maps the queue to the worker with partial batch responses', () => {
    const mappings = resources('AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0]!;
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
        (d) => d.Name === 'QueueName' && JSON.stringify(d.Value) === JSON.stringify(getAtt('FanoutDeadLetterQueue', 'QueueName')),
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

  it('outputs the queue URLs and gives every function the queue URL and no endpoint override', () => {
    expect(template.Outputs.FanoutQueueUrl!.Value).toEqual({ Ref: 'FanoutQueue' });
    expect(template.Outputs.FanoutDeadLetterQueueUrl!.Value).toEqual({ Ref: 'FanoutDeadLetterQueue' });
    const functions = resources('AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(5);
    for (const [id, fn] of functions) {
      expect(fn.Properties.Environment.Variables.FANOUT_QUEUE_URL, id).toEqual({ Ref: 'FanoutQueue' });
      expect(fn.Properties.Environment.Variables.SQS_ENDPOINT, id).toBe('');
    }
  });

  it('routes every HTTP operation, the account routes and each one the configuration declares', () => {
    const routeKeys = resources('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
    for (const route of ['POST /users', 'POST /sessions', 'GET /users/{handle}', 'PATCH /users/{handle}']) {
      expect(routeKeys).toContain(route);
    }
    expect(declaredRoutes.length).toBeGreaterThanOrEqual(5);
    expect([...routeKeys].sort()).toEqual([...declaredRoutes].sort());
  });

  it('grants SQS rights on the fan-out queue only: send for all, receive/delete via the mapping, no "*"', () => {
    const statements = resources('AWS::IAM::Role').flatMap(([, role]) =>
      (role.Properties.Policies ?? []).flatMap(
        (p: { PolicyDocument: { Statement: Array<{ Effect: string; Action: string | string[]; Resource: unknown }> } }) =>
          p.PolicyDocument.Statement,
      ),
    );
    const sqsAll = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('sqs:')));
    // The dead-letter report's read-only statement on the DLQ is checked in the jobs test below.
    const onDlq = (s: { Resource: unknown }) => JSON.stringify(s.Resource) === JSON.stringify(getAtt('FanoutDeadLetterQueue', 'Arn'));
    const sqs = sqsAll.filter((s) => !onDlq(s));
    expect(sqs.length).toBeGreaterThan(0);
    for (const s of sqsAll) {
      expect([s.Action].flat()).not.toContain('sqs:*');
      expect(JSON.stringify(s.Resource)).not.toContain('*');
    }
    for (const s of sqs) {
      const targets = [s.Resource].flat();
      expect(targets).toEqual(targets.map(() => getAtt('FanoutQueue', 'Arn')));
    }
    const actions = sqs.flatMap((s) => [s.Action].flat()).sort();
    expect(actions).toEqual(['sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ReceiveMessage', 'sqs:SendMessage']);
    // Nothing anywhere in the roles grants "Resource": "*".
    for (const s of statements) expect(s.Resource).not.toBe('*');
  });

  describe('scheduled jobs (infra/functions/schedule.yml)', () => {
    const JOBS = [
      { id: 'TrimInboxes', name: 'trimInboxes', handler: 'functions/schedule/trim-inboxes.handler', rate: 'rate(1 hour)' },
      { id: 'RepairRelations', name: 'repairRelations', handler: 'functions/schedule/repair-relations.handler', rate: 'rate(6 hours)' },
      { id: 'RepairPostCounts', name: 'repairPostCounts', handler: 'functions/schedule/repair-post-counts.handler', rate: 'rate(6 hours)' },
      { id: 'RegenerationSweep', name: 'regenerationSweep', handler: 'functions/schedule/regeneration-sweep.handler', rate: 'rate(10 minutes)' },
      { id: 'DeadLetterReport', name: 'deadLetterReport', handler: 'functions/schedule/dead-letter-report.handler', rate: 'rate(1 hour)' },
    ];
    const statements = () =>
      resources('AWS::IAM::Role').flatMap(([, role]) =>
        (role.Properties.Policies ?? []).flatMap(
          (p: { PolicyDocument: { Statement: Array<{ Effect: string; Action: string | string[]; Resource: unknown }> } }) =>
            p.PolicyDocument.Statement,
        ),
      );
    /** The ARN CloudFormation builds for `weibo-<stage>-<fn>` from its pseudo parameters. */
    const functionArn = (fn: string) => ({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':lambda:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:function:weibo-${STAGE}-${fn}`]],
    });

    it('runs each job on its EventBridge schedule', () => {
      const rules = resources('AWS::Events::Rule').map(([, r]) => r.Properties);
      expect(rules).toHaveLength(JOBS.length);
      for (const job of JOBS) {
        const rule = rules.find((r) => JSON.stringify(r.Targets) .includes(`"${job.id}LambdaFunction"`));
        expect(rule, job.name).toBeDefined();
        expect(rule).toMatchObject({ ScheduleExpression: job.rate, State: 'ENABLED' });
        expect(rule!.Targets).toEqual([expect.objectContaining({ Arn: getAtt(`${job.id}LambdaFunction`, 'Arn') })]);
        const permits = resources('AWS::Lambda::Permission').filter(
          ([, p]) => JSON.stringify(p.Properties.FunctionName).includes(`${job.id}LambdaFunction`) && p.Properties.Principal === 'events.amazonaws.com',
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
        const config = resources('AWS::Lambda::EventInvokeConfig').find(([, c]) => JSON.stringify(c.Properties.FunctionName).includes(`${job.id}LambdaFunction`));
        expect(config?.[1].Properties.MaximumRetryAttempts, job.name).toBe(0);
      }
      const env = (id: string) => template.Resources[`${id}LambdaFunction`]!.Properties.Environment.Variables;
      expect(env('TrimInboxes')).toMatchObject({ JOB_ROWS_PER_STEP: '500', OUTBOX_CAP: '200', INBOX_CAP: '800', LAMBDA_ENDPOINT: '' });
      expect(env('RegenerationSweep')).toMatchObject({ REGEN_STUCK_SECONDS: '600', LAMBDA_ENDPOINT: '' });
      expect(env('DeadLetterReport').FANOUT_DLQ_URL).toEqual({ Ref: 'FanoutDeadLetterQueue' });
      // The other functions get none of the jobs' settings.
      expect(template.Resources.FanoutLambdaFunction!.Properties.Environment.Variables).not.toHaveProperty('FANOUT_DLQ_URL');
    });

    it('lets the roles invoke exactly the four job functions and read (never delete from) the DLQ; no "*" resources', () => {
      const all = statements();
      const invoke = all.filter((s) => [s.Action].flat().some((a) => a.startsWith('lambda:')));
      expect(invoke).toHaveLength(1);
      expect([invoke[0]!.Action].flat()).toEqual(['lambda:InvokeFunction']);
      expect(invoke[0]!.Resource).toEqual(JOBS.map((j) => functionArn(j.name)));

      const dlq = all.filter((s) => JSON.stringify(s.Resource).includes('FanoutDeadLetterQueue'));
      expect(dlq).toHaveLength(1);
      expect([dlq[0]!.Action].flat().sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:ReceiveMessage']);
      expect(dlq[0]!.Resource).toEqual(getAtt('FanoutDeadLetterQueue', 'Arn'));

      for (const s of all) {
        expect(s.Effect).toBe('Allow');
        for (const action of [s.Action].flat()) expect(action, JSON.stringify(s)).not.toMatch(/\*/);
        for (const r of [s.Resource].flat()) {
          expect(r).not.toBe('*');
          // Only CloudFormation references and the ARNs built above; never a wildcard inside one.
          if (typeof r === 'string') expect(r, JSON.stringify(s)).not.toContain('*');
        }
      }
    });
  });
});

describe('the web client: S3 + CloudFront (infra/resources/web.yml) and its build (infra/plugins/web-client.cjs)', () => {
  const distribution = () => template.Resources.WebDistribution!.Properties.DistributionConfig;
  const origin = (id: string) => (distribution().Origins as Array<Record<string, any>>).find((o) => o.Id === id);
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
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toMatch(/^(AES256|aws:kms)$/);
    expect(bucket.Properties).not.toHaveProperty('WebsiteConfiguration');
    expect(bucket.Properties).not.toHaveProperty('AccessControl');
  });

  it('reads the bucket through an Origin Access Control bound to it (no legacy OAI), HTTPS, HTTP/2+3, index.html at /', () => {
    expect(resources('AWS::CloudFront::CloudFrontOriginAccessIdentity')).toHaveLength(0);
    const [[oacId, oac]] = resources('AWS::CloudFront::OriginAccessControl') as [[string, Resource]];
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' });

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
      StringEquals: { 'AWS:SourceArn': { 'Fn::Sub': 'arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${WebDistribution}' } },
    });

    const denies = statements.filter((s) => s.Effect === 'Deny');
    expect(denies).toHaveLength(1);
    expect(denies[0]).toMatchObject({ Principal: '*', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
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

    const behaviours = distribution().CacheBehaviors as Array<Record<string, any>>;
    const onApi = behaviours.filter((b) => b.PathPattern === '/api/*');
    expect(onApi).toHaveLength(1);
    expect(onApi[0]).toMatchObject({
      TargetOriginId: 'http-api',
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // managed CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // managed AllViewerExceptHostHeader
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: getAtt('WebApiPrefixFunction', 'FunctionARN') }],
    });
    expect([...onApi[0]!.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(onApi[0]!.ViewerProtocolPolicy).not.toBe('allow-all');

    // The function itself, run as CloudFront would (viewer request in, request out).
    const fn = template.Resources.WebApiPrefixFunction!;
    expect(fn.Type).toBe('AWS::CloudFront::Function');
    expect(fn.Properties).toMatchObject({ AutoPublish: true, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
    const handler = runInNewContext(`${fn.Properties.FunctionCode as string}\n;handler`) as (e: unknown) => { uri: string; querystring: unknown };
    const viewer = (uri: string) => handler({ request: { method: 'GET', uri, querystring: { limit: { value: '5' } }, headers: {} } });
    expect(viewer('/api/users/ann/timeline')).toMatchObject({ uri: '/users/ann/timeline', querystring: { limit: { value: '5' } } });
    expect(viewer('/api/openapi.json').uri).toBe('/openapi.json');
    expect(viewer('/api/').uri).toBe('/');
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
