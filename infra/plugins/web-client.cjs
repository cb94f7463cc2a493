// infra/plugins/web-client.cjs — ships the web client (web/) with the stack.
//   serverless package (and so deploy): builds it into .serverless/web/ with `--api-url /api`
//     (the /api/* behaviour of infra/resources/web.yml); a failed build (e.g. over the size
//     budget) fails the package. With `--package <dir>` the framework moves .serverless/ there,
//     web/ included, and `serverless deploy --package <dir>` brings it back.
//   serverless deploy: afterwards uploads .serverless/web/ to the stack's WebBucketName
//     (Content-Type and Cache-Control per file, see web-upload-plan.cjs), deletes objects the
//     build no longer has, and invalidates the non-hashed paths in WebDistributionId.
// Nothing happens for any other command (serverless offline, invoke local, print …): the client
// is only built by the package lifecycle, and only uploaded by the deploy lifecycle.
// AWS SDK v3 clients with the framework's own credentials and region (provider.getAwsSdkV3Config).
'use strict';

const { spawn } = require('node:child_process');
const { existsSync, readFileSync, readdirSync } = require('node:fs');
const path = require('node:path');
const { planUpload } = require('./web-upload-plan.cjs');

/** Where the client finds the API: the same origin, under web.yml's /api/* cache behaviour. */
const API_URL = '/api';
const UPLOAD_CONCURRENCY = 8;

/** Every file under `dir`, relative to it, with posix separators. */
function listFiles(dir, prefix = '') {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return listFiles(dir, rel);
      return entry.isFile() ? [rel] : [];
    })
    .sort();
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachLimited(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

class WebClientPlugin {
  constructor(serverless, options, utils = {}) {
    this.serverless = serverless;
    this.options = options || {};
    const fallback = (...args) => console.log('[web-client]', ...args);
    this.log =
      utils.log || Object.assign(fallback, { notice: fallback, info: fallback, verbose: () => {}, warning: fallback });
    this.hooks = {
      // After the functions are bundled, before the framework moves .serverless/ to --package.
      'after:package:createDeploymentArtifacts': () => this.build(),
      'after:deploy:deploy': () => this.upload(),
    };
  }

  get serviceDir() {
    return this.serverless.serviceDir || process.cwd();
  }

  /** .serverless/web — the framework's package folder while it packages (and deploys). */
  get webDir() {
    return path.join(this.serviceDir, '.serverless', 'web');
  }

  error(message, code) {
    const ServerlessError = this.serverless.classes?.Error;
    return ServerlessError ? new ServerlessError(message, code) : new Error(message);
  }

  /** Only for `serverless package` / `serverless deploy`; a guard in case another command
   * (serverless-offline, a future plugin) ever runs the package lifecycle. */
  isPackagingCommand() {
    const command = (this.serverless.processedInput?.commands || [])[0];
    return command === 'package' || command === 'deploy';
  }

  async build() {
    if (!this.isPackagingCommand()) return;
    const outDir = this.webDir;
    let tsxCli;
    try {
      tsxCli = require.resolve('tsx/cli', { paths: [this.serviceDir] });
    } catch {
      throw this.error('web-client: tsx is not installed (npm ci)', 'WEB_CLIENT_BUILD_FAILED');
    }
    const args = [tsxCli, path.join('web', 'build.ts'), '--api-url', API_URL, '--out', outDir];
    this.log.info(`Building the web client into ${path.relative(this.serviceDir, outDir)} (API ${API_URL})`);
    const { code, output } = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: this.serviceDir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code: code ?? signal, output }));
    });
    if (code !== 0) {
      throw this.error(
        `web-client: the web client build failed (exit ${code}):\n${output.trim()}`,
        'WEB_CLIENT_BUILD_FAILED',
      );
    }
    for (const line of output.trim().split('\n')) this.log.verbose(line);
    for (const required of ['index.html', 'config.js']) {
      if (!existsSync(path.join(outDir, required))) {
        throw this.error(`web-client: the build wrote no ${required} in ${outDir}`, 'WEB_CLIENT_BUILD_FAILED');
      }
    }
  }

  async upload() {
    // `deploy function` never reaches here; a deploy without changes still uploads (the client
    // is not part of the framework's change detection).
    if (this.options.function) return;
    const dir = this.webDir;
    if (!existsSync(path.join(dir, 'index.html'))) {
      throw this.error(
        `web-client: no built client in ${dir}; package or deploy the service again`,
        'WEB_CLIENT_NOT_BUILT',
      );
    }
    const { CloudFormationClient, DescribeStacksCommand } = require('@aws-sdk/client-cloudformation');
    const { S3Client, ListObjectsV2Command, PutObjectCommand, DeleteObjectsCommand } = require('@aws-sdk/client-s3');
    const { CloudFrontClient, CreateInvalidationCommand } = require('@aws-sdk/client-cloudfront');

    const provider = this.serverless.getProvider('aws');
    const config = await provider.getAwsSdkV3Config();
    const stackName = provider.naming.getStackName();

    const cfn = new CloudFormationClient(config);
    const described = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
    const outputs = Object.fromEntries((described.Stacks?.[0]?.Outputs || []).map((o) => [o.OutputKey, o.OutputValue]));
    const bucket = outputs.WebBucketName;
    const distributionId = outputs.WebDistributionId;
    if (!bucket || !distributionId) {
      throw this.error(
        `web-client: stack ${stackName} has no WebBucketName / WebDistributionId outputs (infra/resources/web.yml)`,
        'WEB_CLIENT_NO_OUTPUTS',
      );
    }

    const s3 = new S3Client(config);
    const existingKeys = [];
    let token;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
      for (const o of page.Contents || []) existingKeys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);

    const plan = planUpload({ files: listFiles(dir), existingKeys });

    // Tier by tier (hashed bundles … index.html last), in parallel within a tier.
    for (const tier of [0, 1, 2, 3]) {
      await eachLimited(
        plan.uploads.filter((u) => u.tier === tier),
        UPLOAD_CONCURRENCY,
        (u) =>
          s3.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: u.key,
              Body: readFileSync(path.join(dir, u.file)),
              ContentType: u.contentType,
              CacheControl: u.cacheControl,
            }),
          ),
      );
    }
    this.log.info(`Uploaded ${plan.uploads.length} web client files to s3://${bucket}`);

    for (let i = 0; i < plan.deletions.length; i += 1000) {
      const batch = plan.deletions.slice(i, i + 1000);
      const result = await s3.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      if (result.Errors && result.Errors.length > 0) {
        const first = result.Errors[0];
        throw this.error(
          `web-client: could not delete ${result.Errors.length} old objects (${first.Key}: ${first.Code} ${first.Message})`,
          'WEB_CLIENT_DELETE_FAILED',
        );
      }
    }
    if (plan.deletions.length > 0) this.log.info(`Deleted ${plan.deletions.length} objects the build no longer has`);

    if (plan.invalidationPaths.length > 0) {
      const cloudFront = new CloudFrontClient(config);
      const { Invalidation } = await cloudFront.send(
        new CreateInvalidationCommand({
          DistributionId: distributionId,
          InvalidationBatch: {
            CallerReference: `${stackName}-${Date.now()}`,
            Paths: { Quantity: plan.invalidationPaths.length, Items: plan.invalidationPaths },
          },
        }),
      );
      this.log.info(`CloudFront invalidation ${Invalidation?.Id} for ${plan.invalidationPaths.join(' ')}`);
    }
    this.log.notice(`Web client: ${outputs.WebUrl || `(distribution ${distributionId})`}`);
  }
}

module.exports = WebClientPlugin;
