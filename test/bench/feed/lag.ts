// test/bench/feed/lag.ts — publish → visible lag through the REAL queue: the post is published
// with the real composition (feedDependencies(): the SQS adapter, here on a throwaway ElasticMQ
// queue), and the worker is the real Lambda handler of functions/queue/fan-out.ts, fed by an
// in-process stand-in for the SQS event source mapping (../queue-consumer.ts: receive ≤ 10,
// invoke, delete what did not fail — infra/local/sqs-poller.ts minus the HTTP hop).
// The worker runs `workerConcurrency` invocations at once (N consumer loops, as the event source
// runs up to maximumConcurrency copies), so a big post's segment messages run side by side.
// The clock stops when the last follower of EVERY segment holds the post (within a segment the
// worker writes in key order, so that is when all followers hold it); each is observed by getRow.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { localSqsClient } from '../../../infra/local/sqs-poller.js';
import { feedDependencies } from '../../../shared/wiring/feed.js';
import { keyFromPostId } from '../../../shared/schema/row-keys.js';
import { compareBytes, concatBytes } from '../../../shared/hbase/index.js';
import { inboxQualifier, segmentOf } from '../../../shared/schema/row-keys.js';
import { MAX_SEGMENTS } from '../../../shared/use-cases/background/delivery.js';
import { qualifiedTableName } from '../../../shared/schema/tables.js';
import { publishPost } from '../../../shared/use-cases/publish-post.js';
import type { BenchContext } from './context.js';
import { cachedUserKey } from './graph.js';
import { Consumer, type QueueHandler } from '../queue-consumer.js';

export interface LagRun {
  /** publish call start → the post is in the last follower's inbox. */
  lastMs: number;
  /** … → in the first follower's inbox. */
  firstMs: number;
  /** The publish request itself (what the API caller waits for). */
  publishMs: number;
}

export interface LagResult {
  author: string;
  followers: number;
  sampledFollowers: number;
  runs: LagRun[];
  lastMsMedian: number;
  lastMsMax: number;
  /** p99 of lastMs over the runs (nearest rank: with few runs, the maximum). */
  lastMsP99: number;
  workerConcurrency: number;
  firstMsMedian: number;
  publishMsMedian: number;
  messagesHandled: number;
  failedRecords: number;
}

export async function runLag(ctx: BenchContext, queueUrl: string, big = ctx.pool.authors[2]!): Promise<LagResult> {
  const { pool, hb, s } = ctx;
  // Imported only now: the worker's logger and composition read the environment the bench set.
  const { handler } = (await import('../../../functions/queue/fan-out.js')) as { handler: QueueHandler };
  const sqs = localSqsClient(ctx.sqsEndpoint);
  const consumers = Array.from({ length: s.workerConcurrency }, () => new Consumer(sqs, queueUrl, handler));
  for (const c of consumers) c.start();
  const consumer = {
    get handled() {
      return consumers.reduce((n, c) => n + c.handled, 0);
    },
    get failed() {
      return consumers.reduce((n, c) => n + c.failed, 0);
    },
    get errors() {
      return consumers.flatMap((c) => c.errors);
    },
    stop: () => Promise.all(consumers.map((c) => c.stop())),
  };
  const feed = feedDependencies();
  const inboxTable = qualifiedTableName(ctx.ns, 'inbox');

  let sampled = 0;
  const measure = async (author: { handle: string; followers: number }, label: string): Promise<LagRun> => {
    const ordered = pool.handles
      .slice(0, author.followers)
      .sort((a, b) => compareBytes(cachedUserKey(a), cachedUserKey(b)));
    // The last follower of each segment, split as the worker splits (shared/use-cases/background/delivery.ts),
    // and the first follower.
    const perMessage = ctx.limits.fanoutChunkSize * ctx.limits.fanoutChunksPerMessage;
    const of = author.followers > perMessage ? Math.min(MAX_SEGMENTS, Math.ceil(author.followers / perMessage)) : 1;
    const lastOf = new Map<number, string>();
    for (const h of ordered) lastOf.set(segmentOf(h, of), h);
    const first = ordered[0]!;
    const samples = [first, ...[...lastOf.values()].filter((h) => h !== first)];
    sampled = samples.length;

    const t0 = performance.now();
    const { post } = await publishPost(feed, author.handle, { body: label });
    const publishMs = performance.now() - t0;
    const column = concatBytes('i:', inboxQualifier(keyFromPostId(post.id)!));
    const visibleAt = new Map<string, number>();
    while (visibleAt.size < samples.length) {
      if (performance.now() - t0 > s.lagTimeoutMs) {
        throw new Error(
          `${label}: post not visible to ${samples.length - visibleAt.size} of ${samples.length} sampled followers after ${s.lagTimeoutMs} ms ` +
            `(worker handled ${consumer.handled}, failed ${consumer.failed}; ${consumer.errors.slice(-1).join('') || 'no consumer errors'})`,
        );
      }
      await Promise.all(
        samples
          .filter((h) => !visibleAt.has(h))
          .map(async (h) => {
            if (await hb.getRow(inboxTable, cachedUserKey(h), { columns: [column] }))
              visibleAt.set(h, performance.now() - t0);
          }),
      );
      if (visibleAt.size < samples.length) await sleep(10);
    }
    return {
      lastMs: Math.round(Math.max(...visibleAt.values())),
      firstMs: Math.round(visibleAt.get(first)!),
      publishMs: Math.round(publishMs),
    };
  };

  try {
    // Warm-up (not counted): the first invocation builds the worker's composition and connections.
    await measure(pool.authors[1]!, 'lag warm-up');
    ctx.progress.update(1 / (s.lagReps + 1), 'warm-up done');
    const author = big;
    const runs: LagRun[] = [];
    for (let rep = 0; rep < s.lagReps; rep++) {
      runs.push(await measure(author, `lag ${rep}`));
      ctx.progress.update((rep + 2) / (s.lagReps + 1), `${rep + 1}/${s.lagReps} posts visible`);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
    return {
      author: author.handle,
      followers: author.followers,
      sampledFollowers: sampled,
      runs,
      lastMsMedian: median(runs.map((r) => r.lastMs)),
      lastMsMax: Math.max(...runs.map((r) => r.lastMs)),
      lastMsP99: [...runs.map((r) => r.lastMs)].sort((a, b) => a - b)[
        Math.min(runs.length - 1, Math.ceil(0.99 * runs.length) - 1)
      ]!,
      workerConcurrency: s.workerConcurrency,
      firstMsMedian: median(runs.map((r) => r.firstMs)),
      publishMsMedian: median(runs.map((r) => r.publishMs)),
      messagesHandled: consumer.handled,
      failedRecords: consumer.failed,
    };
  } finally {
    await consumer.stop();
    sqs.destroy();
  }
}
