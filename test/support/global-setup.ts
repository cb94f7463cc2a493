// test/support/global-setup.ts — integration tests run on the real stack. If HBASE_REST_URL
// already answers (a developer's running stack, or a real cluster) it is used as it is;
// otherwise the local stack is started here and stopped again in teardown, so the test
// command never leaves behind a process it started. The same for the queue (SQS_ENDPOINT) and
// the object store (S3_ENDPOINT, bucket MEDIA_BUCKET).
import type { TestProject } from 'vitest/node';
import { localMediaBucket, localObjectStoreEndpoint, objectStoreHealthy } from '../../infra/local/object-store.js';
import { StackSession, clusterVersion, queueHealthy } from '../../infra/local/stack-control.js';

export default async function setup(project: TestProject) {
  const url = process.env.HBASE_REST_URL ?? `http://127.0.0.1:${process.env.HBASE_REST_PORT ?? '18080'}`;
  const sqs = process.env.SQS_ENDPOINT ?? `http://127.0.0.1:${process.env.ELASTICMQ_PORT ?? '19324'}`;
  const s3 = localObjectStoreEndpoint();
  const mediaBucket = localMediaBucket();
  // The environment's state dir and ports (default: the main stack's).
  const stack = new StackSession(process.env);

  // Stops exactly what this run started, once, also when the run is interrupted, or when a
  // later component fails to start (vitest runs no teardown for a setup that threw).
  stack.stopOnSignals();
  let version: string | null;
  try {
    version = await clusterVersion(url);
    if (!version) {
      if (process.env.HBASE_REST_URL) {
        throw new Error(
          `HBASE_REST_URL=${url} does not answer /version/cluster; not starting a local stack in its place`,
        );
      }
      stack.start('hbase');
      version = await clusterVersion(url);
      if (!version) throw new Error(`local stack started but ${url}/version/cluster still does not answer`);
    }
    if (!(await queueHealthy(sqs))) {
      if (process.env.SQS_ENDPOINT)
        throw new Error(`SQS_ENDPOINT=${sqs} is not healthy; not starting a local queue in its place`);
      stack.start('queue');
    }
    if (!(await objectStoreHealthy(s3, mediaBucket))) {
      if (process.env.S3_ENDPOINT) {
        throw new Error(
          `S3_ENDPOINT=${s3} does not answer or has no bucket ${mediaBucket}; not starting a local object store in its place`,
        );
      }
      stack.start('s3');
    }
  } catch (err) {
    stack.stop();
    throw err;
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
      (stack.startedHere.length ? ` (started for this run: ${stack.startedHere.join(', ')})` : ' (already running)'),
  );

  return () => stack.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    hbaseRestUrl: string;
    sqsEndpoint: string;
    s3Endpoint: string;
    mediaBucket: string;
  }
}
