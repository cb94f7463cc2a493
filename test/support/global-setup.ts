// test/support/global-setup.ts — integration tests run on the real stack. If HBASE_REST_URL
// already answers (a developer's running stack, or a real cluster) it is used as it is;
// otherwise the local stack is started here and stopped again in teardown, so the test
// command never leaves behind a process it started. The same for the queue (SQS_ENDPOINT) and
// the object store (S3_ENDPOINT, bucket MEDIA_BUCKET).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { localMediaBucket, localObjectStoreEndpoint, objectStoreHealthy } from '../../infra/local/object-store.js';

const STACK = fileURLToPath(new URL('../../infra/local/stack.sh', import.meta.url));

async function clusterVersion(url: string): Promise<string | null> {
  try {
    const res = await fetch(`${url}/version/cluster`, {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    if (res.status !== 200) return null;
    return ((await res.json()) as { Version: string }).Version;
  } catch {
    return null;
  }
}

async function queueHealthy(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(3_000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

type Component = 'hbase' | 'queue' | 's3';

function stack(cmd: 'start' | 'stop', component: Component): void {
  // stdio inherited: stack.sh prints its progress, and the tail of the logs when startup fails.
  // Its own session (setsid -w waits for it): if this test process is torn down meanwhile, the
  // stop still runs to the end, including its SIGKILL fallback for a JVM slow to shut down.
  execFileSync('setsid', ['-w', 'bash', STACK, cmd, component], { stdio: 'inherit', timeout: 600_000 });
}

export default async function setup(project: TestProject) {
  const url = process.env.HBASE_REST_URL ?? `http://127.0.0.1:${process.env.HBASE_REST_PORT ?? '18080'}`;
  const sqs = process.env.SQS_ENDPOINT ?? `http://127.0.0.1:${process.env.ELASTICMQ_PORT ?? '19324'}`;
  const s3 = localObjectStoreEndpoint();
  const mediaBucket = localMediaBucket();
  const startedHere: Component[] = [];

  let version = await clusterVersion(url);
  if (!version) {
    if (process.env.HBASE_REST_URL) {
      throw new Error(`HBASE_REST_URL=${url} does not answer /version/cluster; not starting a local stack in its place`);
    }
    stack('start', 'hbase');
    startedHere.push('hbase');
    version = await clusterVersion(url);
    if (!version) throw new Error(`local stack started but ${url}/version/cluster still does not answer`);
  }
  if (!(await queueHealthy(sqs))) {
    if (process.env.SQS_ENDPOINT) throw new Error(`SQS_ENDPOINT=${sqs} is not healthy; not starting a local queue in its place`);
    stack('start', 'queue');
    startedHere.push('queue');
  }
  if (!(await objectStoreHealthy(s3, mediaBucket))) {
    if (process.env.S3_ENDPOINT) {
      throw new Error(`S3_ENDPOINT=${s3} does not answer or has no bucket ${mediaBucket}; not starting a local object store in its place`);
    }
    stack('start', 's3');
    startedHere.push('s3');
  }

  process.env.HBASE_REST_URL = url;
  process.env.SQS_ENDPOINT = sqs;
  process.env.S3_ENDPOINT = s3;
  process.env.MEDIA_BUCKET = mediaBucket;
  project.provide('hbaseRestUrl', url);
  project.provide('sqsEndpoint', sqs);
  project.provide('s3Endpoint', s3);
  project.provide('mediaBucket', mediaBucket);
  console.log(
    `[integration] HBase ${version} via REST gateway ${url}; SQS ${sqs}; S3 ${s3} (bucket ${mediaBucket})` +
      (startedHere.length ? ` (started for this run: ${startedHere.join(', ')})` : ' (already running)'),
  );

  // Stops exactly what this run started, once, also when the run is interrupted.
  const teardown = () => {
    while (startedHere.length) stack('stop', startedHere.pop()!);
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      teardown();
      process.exit(130);
    });
  }
  return teardown;
}

declare module 'vitest' {
  export interface ProvidedContext {
    hbaseRestUrl: string;
    sqsEndpoint: string;
    s3Endpoint: string;
    mediaBucket: string;
  }
}
