// shared/wiring/jobs.ts — the scheduled jobs (functions/schedule): the maintenance ports on HBase,
// the job continuation on Lambda, and the queues (each built on first use). The erasure job adds
// the feed (./erasure.ts).
import { HBaseMaintenanceStore } from '../adapters/hbase/hbase-maintenance-store.js';
import { HBaseMediaStore } from '../adapters/hbase/hbase-media-store.js';
import { HBasePostCountStore } from '../adapters/hbase/hbase-post-count-store.js';
import { HBasePostStore } from '../adapters/hbase/hbase-post-store.js';
import { HBaseUserStore } from '../adapters/hbase/hbase-user-store.js';
import { HBaseHotStore } from '../adapters/hbase/hbase-hot-store.js';
import { HBaseLayoutStore } from '../adapters/hbase/hbase-layout-store.js';
import { LambdaJobContinuation } from '../adapters/lambda/lambda-job-continuation.js';
import { config, type Config } from '../config/config.js';
import type { JobDependencies } from '../use-cases/jobs/job-deps.js';
import { hbaseClient } from './hbase.js';
import { deadLetterQueue, fanoutQueue, mediaQueue } from './queues.js';

let jobs: JobDependencies | undefined;
export function jobDependencies(cfg: Config = config()): JobDependencies {
  if (jobs) return jobs;
  const hbase = hbaseClient();
  const ns = cfg.HBASE_NAMESPACE;
  jobs = {
    store: new HBaseMaintenanceStore(hbase, ns),
    postCounts: new HBasePostCountStore(hbase, ns),
    media: new HBaseMediaStore(hbase, ns),
    posts: new HBasePostStore(hbase, ns),
    users: new HBaseUserStore(hbase, ns),
    hot: new HBaseHotStore(hbase, ns),
    layout: new HBaseLayoutStore(hbase, ns),
    continuation: new LambdaJobContinuation(cfg.LAMBDA_ENDPOINT ? { endpoint: cfg.LAMBDA_ENDPOINT } : {}),
    queue: () => fanoutQueue('the worker and the jobs that queue messages (sweeps, repair-relations)'),
    mediaQueue,
    deadLetters: deadLetterQueue,
    limits: {
      rowsPerStep: cfg.JOB_ROWS_PER_STEP,
      maxSteps: cfg.JOB_MAX_STEPS,
      inboxCap: cfg.INBOX_CAP,
      outboxCap: cfg.OUTBOX_CAP,
      regenStuckMs: cfg.REGEN_STUCK_SECONDS * 1000,
      settleMs: cfg.SETTLE_SECONDS * 1000,
      inactiveAfterMs: cfg.INACTIVE_AFTER_SECONDS * 1000,
    },
  };
  return jobs;
}
