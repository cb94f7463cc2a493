// test/bench/feed/fanout.ts — fan-out throughput: inbox cells per second of the real
// handleFanoutMessage (continuations included, run in process) for a post by an author with many
// followers, against raw batch puts of the same cells (same rows, same cell shape, same batch
// size = FANOUT_CHUNK_SIZE, one request after another as the worker does). Runs alternate, so
// both see the same HBase state.
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
}

/** `author`: one of the pool's big authors (default the lag author, s.lagFollowers followers); `reps` default s.fanoutReps. */
export async function runFanout(ctx: BenchContext, author = ctx.pool.authors[0]!, reps = ctx.s.fanoutReps): Promise<FanoutResult> {
  const { deps, hb, recorder, pool } = ctx;
  const s = { fanoutReps: reps };
  const batchSize = ctx.limits.fanoutChunkSize;
  const inboxTable = qualifiedTableName(ctx.ns, 'inbox');
  // The worker walks followers in 'R'-row order = the followers' salted key order.
  const followerKeys = pool.handles
    .slice(0, author.followers)
    .map(cachedUserKey)
    .sort(compareBytes);

  let fanoutCells = 0;
  let fanoutSec = 0;
  let rawCells = 0;
  let rawSec = 0;
  const fanoutMs: number[] = [];
  const rawMs: number[] = [];
  let messages = 0;
  let requests = 0;
  const spans: Parameters<typeof breakdown>[0] = [];
  for (let rep = 0; rep < s.fanoutReps; rep++) {
    ctx.queued.length = 0;
    await publishPost(deps, author.handle, { body: `fan-out throughput ${rep}` });
    const first = ctx.queued.find((m) => m.type === 'fanout');
    if (!first) throw new Error('publishPost queued no fanout message');
    ctx.queued.length = 0;
    const t0 = performance.now();
    const rec = await recorder.record(() => drainInProcess(ctx, first));
    const ms = performance.now() - t0;
    if (rec.result.readers === 0) throw new Error(`fan-out of ${author.handle}'s post reached no reader (celebrity or inactive followers?)`);
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
      const rows: RowInput[] = followerKeys.slice(at, at + batchSize).map((key) => ({ key, cells: [{ column, value: new Uint8Array(0) }] }));
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
  };
}
