// test/integration/stack-local-dir.test.ts — infra/local/stack.sh with a RELATIVE WEIBO_LOCAL_DIR
// (docs/local-stack.md's `WEIBO_LOCAL_DIR=.local-rs …` recipe): the state lands under the caller's working
// directory, also for the steps that run elsewhere — Maven resolves -DoutputDirectory against the
// pom's folder (infra/local/<component>/), and s3rver is launched from the repository root. It
// runs private instances (a temporary cwd, free ports), so it never touches the shared stack.
// ElasticMQ stands for HBase here: the same ensure_classpath step, a third of the jars, seconds
// to start.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localS3Client, objectStoreHealthy } from '../../infra/local/object-store.js';
import { queueHealthy } from '../../infra/local/stack-control.js';
import { freePort } from '../support/ports.js';

const STACK = fileURLToPath(new URL('../../infra/local/stack.sh', import.meta.url));
const INFRA = fileURLToPath(new URL('../../infra/local/', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const REL = `rel-state-${process.pid}`;
const BUCKET = 'weibo-local-media';

describe('stack.sh with a relative WEIBO_LOCAL_DIR', () => {
  let cwd: string;
  let env: NodeJS.ProcessEnv;
  const stack = (cmd: 'start' | 'stop', component: 'queue' | 's3') =>
    execFileSync('bash', [STACK, cmd, component], { cwd, env, stdio: 'pipe', timeout: 120_000 });

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'weibo-stack-reldir-'));
    env = {
      ...process.env,
      WEIBO_LOCAL_DIR: REL,
      ELASTICMQ_PORT: String(await freePort()),
      S3_PORT: String(await freePort()),
      MEDIA_BUCKET: BUCKET,
      STACK_START_TIMEOUT: '90',
    };
    delete env.SQS_ENDPOINT;
    delete env.S3_ENDPOINT;
  });

  afterAll(() => {
    try {
      for (const c of ['s3', 'queue'] as const) stack('stop', c);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      // Where the jars went before the path was made absolute: leave no such folder behind.
      for (const d of ['elasticmq', 'hbase']) rmSync(join(INFRA, d, REL), { recursive: true, force: true });
      rmSync(join(REPO, REL), { recursive: true, force: true });
    }
  });

  it('puts the queue jars in <cwd>/<dir>/elasticmq/lib and the queue starts', async () => {
    stack('start', 'queue');
    const lib = join(cwd, REL, 'elasticmq', 'lib');
    expect(existsSync(lib) ? readdirSync(lib).filter((f) => f.endsWith('.jar')).length : 0).toBeGreaterThan(10);
    expect(existsSync(join(INFRA, 'elasticmq', REL))).toBe(false);
    expect(await queueHealthy(`http://127.0.0.1:${env.ELASTICMQ_PORT}`)).toBe(true);
  }, 180_000);

  it('resolves the jars again when only the stamp is left (the state the bug left behind)', async () => {
    stack('stop', 'queue');
    const lib = join(cwd, REL, 'elasticmq', 'lib');
    for (const f of readdirSync(lib)) if (f.endsWith('.jar')) rmSync(join(lib, f));
    expect(existsSync(join(lib, '.pom.sha256'))).toBe(true);
    stack('start', 'queue');
    expect(readdirSync(lib).filter((f) => f.endsWith('.jar')).length).toBeGreaterThan(10);
    expect(await queueHealthy(`http://127.0.0.1:${env.ELASTICMQ_PORT}`)).toBe(true);
  }, 180_000);

  it('keeps the object store data under <cwd>/<dir>/s3/data, not under the repository', async () => {
    stack('start', 's3');
    const endpoint = `http://127.0.0.1:${env.S3_PORT}`;
    expect(await objectStoreHealthy(endpoint, BUCKET)).toBe(true);
    const client = localS3Client(endpoint);
    try {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'probe.txt', Body: 'x' }));
    } finally {
      client.destroy();
    }
    expect(existsSync(join(cwd, REL, 's3', 'data', BUCKET))).toBe(true);
    expect(existsSync(join(REPO, REL))).toBe(false);
  }, 120_000);
});
