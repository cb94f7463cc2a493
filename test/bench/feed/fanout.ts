// test/bench/feed/fanout.ts — fan-out throughput: inbox cells per second of the real
// handleFanoutMessage (continuations included, run in process) for a post by an author with many
// followers, against raw batch puts of the same cells (same rows, same cell shape, same batch
// size = FANOUT_CHUNK_SIZE, one request after another as the worker does). Runs alternate, so
// both see the same HBase state. The reps read the author's packed audience (invariant N) as a
// steady author's posts do; the first post, which builds it, is timed apart (`cold`).
import { performance } from 'node:perf_hooks';
import { compareBytes, concatBytes, type RowInput } from '../../../shared/hbase/index.js';
import { postKey, reversedTimestamp } from '../../../shared/schema/row-keys.js';
import { qualifiedTableName } from '../../../shared/schema/tables.js';
import { publishPost } from '../../../shared/use-cases/publish-post.js';
import { drainInProcess, type BenchContext } from './context.js';
import { cachedUserKey } from './graph.js';
import { breakdown, type RequestKind } from './requests.js';

export interface FanoutResult {
  author: string;
  followers: number;
  batchSize: number;
  reps: number;
  fanoutCellsPerSec: number;
  rawPutCellsPerSec: number;
  ratio: number;
  fanoutMs: number[];
  rawMs: number[];
  messagesPerPost: number;
  requestsPerPost: number;
  /** Where one post's fan-out spends its HBase time (summed over the reps). */
  requestKinds: RequestKind[];
  /**
   * The first post after the author's follower list changed (here: was loaded), timed on its
   * own: it reads the followers by scan and builds the packed audience (invariant N) that the
   * reps then read. Its cells/s against the reps' raw cells/s, and its HBase requests.
   */
  cold: { ms: number; ratio: number; requests: number };
}

/** Told of each timed post: `publishing` before its publish, `drained` once its fan-out is done (`since`: the publish's start). */
export interface FanoutWatch {
  publishing(): void;
  drained(since: number): void;
}

/**
 * `author`: one of the pool's big authors (default the lag author, s.lagFollowers followers); `reps`
 * default s.fanoutReps; `watch`: told of each timed post (the groups' phase times its notices).
 */
export async function runFanout(
  ctx: BenchContext,
  author = ctx.pool.authors[0]!,
  reps = ctx.s.fanoutReps,
  watch?: FanoutWatch,
): Promise<FanoutResult> {
  const { deps, hb, recorder, pool } = ctx;
  const s = { fanoutReps: reps };
  const batchSize = ctx.limits.fanoutChunkSize;
  const inboxTable = qualifiedTableName(ctx.ns, 'inbox');
  // The worker walks followers in 'R'-row order = the followers' salted key order.
  const followerKeys = pool.handles.slice(0, author.followers).map(cachedUserKey).sort(compareBytes);

  let fanoutCells = 0;
  let fanoutSec = 0;
  let rawCells = 0;
  let rawSec = 0;
  const fanoutMs: number[] = [];
  const rawMs: number[] = [];
  let messages = 0;
  let requests = 0;
  const spans: Parameters<typeof breakdown>[0] = [];
  const publishFirst = async (body: string) => {
    ctx.queued.length = 0;
    await publishPost(deps, author.handle, { body });
    const first = ctx.queued.find((m) => m.type === 'fanout');
    if (!first) throw new Error('publishPost queued no fanout message');
    ctx.queued.length = 0;
    return first;
  };
  const coldFirst = await publishFirst('fan-out throughput, packs cold');
  const c0 = performance.now();
  const coldRec = await recorder.record(() => drainInProcess(ctx, coldFirst));
  const coldMs = performance.now() - c0;
  for (let rep = 0; rep < s.fanoutReps; rep++) {
    watch?.publishing();
    const published = performance.now();
    const first = await publishFirst(`fan-out throughput ${rep}`);
    const t0 = performance.now();
    const rec = await recorder.record(() => drainInProcess(ctx, first));
    const ms = performance.now() - t0;
    watch?.drained(published);
    if (rec.result.readers === 0)
      throw new Error(`fan-out of ${author.handle}'s post reached no reader (celebrity or inactive followers?)`);
    fanoutCells += rec.result.readers;
    fanoutSec += ms / 1000;
    fanoutMs.push(Math.round(ms));
    messages += rec.result.messages;
    requests += rec.requests;
    spans.push(...rec.spans);
    ctx.progress.update((rep + 0.5) / s.fanoutReps, `fan-out ${rep + 1}/${s.fanoutReps}`);

    // Raw: the same number of one-cell rows, a fresh post's qualifier, same batch size.
    const millis = Date.now();
    const column = concatBytes('i:', reversedTimestamp(millis), postKey(author.handle, millis));
    const t1 = performance.now();
    for (let at = 0; at < followerKeys.length; at += batchSize) {
      const rows: RowInput[] = followerKeys
        .slice(at, at + batchSize)
        .map((key) => ({ key, cells: [{ column, value: new Uint8Array(0) }] }));
      await hb.put(inboxTable, rows);
    }
    const rms = performance.now() - t1;
    rawCells += followerKeys.length;
    rawSec += rms / 1000;
    rawMs.push(Math.round(rms));
    ctx.progress.update((rep + 1) / s.fanoutReps, `fan-out ${rep + 1}/${s.fanoutReps}`);
  }
  const fanoutCellsPerSec = Math.round(fanoutCells / fanoutSec);
  const rawPutCellsPerSec = Math.round(rawCells / rawSec);
  return {
    author: author.handle,
    followers: author.followers,
    batchSize,
    reps: s.fanoutReps,
    fanoutCellsPerSec,
    rawPutCellsPerSec,
    ratio: fanoutCellsPerSec / rawPutCellsPerSec,
    fanoutMs,
    rawMs,
    messagesPerPost: messages / s.fanoutReps,
    requestsPerPost: requests / s.fanoutReps,
    requestKinds: breakdown(spans),
    cold: {
      ms: Math.round(coldMs),
      ratio: coldRec.result.readers / (coldMs / 1000) / rawPutCellsPerSec,
      requests: coldRec.requests,
    },
  };
}
