// test/bench/feed/timeline.ts — home timeline page latency (the real homeTimeline use case on
// the real adapters, limit 20) against the raw two-request floor measured on the SAME reader in
// the same loop: a raw getRow of the reader's inbox row + a raw multiGet of the 20 content rows
// of that page. Which of the two runs first alternates per reader, so neither gets the warmer
// cache. Each page is also charged with its HBase requests and sequential round trips.
import { performance } from 'node:perf_hooks';
import { qualifiedTableName } from '../../../shared/schema/tables.js';
import { homeTimeline } from '../../../shared/use-cases/home-timeline.js';
import type { BenchContext } from './context.js';
import { cachedUserKey, inboxOf } from './graph.js';
import { prng, sampleDistinct } from './random.js';
import { summarize, type LatencySummary } from '../stats.js';

const LIMIT = 20;
const WARMUP = 20;

export interface TimelineResult {
  readers: number;
  limit: number;
  /** Raw floor: getRow(inbox row) then multiGet(20 content rows), sequential. */
  floor: LatencySummary;
  useCase: LatencySummary;
  p50Ratio: number;
  p99Ratio: number;
  requestsPerPage: { mean: number; max: number };
  sequentialRoundTrips: { mean: number; max: number };
  /** Cells in the sampled readers' inbox rows (the floor's row size). */
  inboxCells: { mean: number; min: number; max: number };
  /** Pages that came back with fewer posts than the inbox holds (should be 0). */
  shortPages: number;
}

export async function runTimeline(ctx: BenchContext): Promise<TimelineResult> {
  const { s, graph, deps, hb, recorder } = ctx;
  const rand = prng(s.seed + 1);
  const readers = sampleDistinct(rand, graph.handles.length, Math.min(s.timelineReaders, graph.handles.length));
  while (readers.length < s.timelineReaders) readers.push(readers[readers.length % graph.handles.length]!);
  const inboxTable = qualifiedTableName(ctx.ns, 'inbox');
  const contentTable = qualifiedTableName(ctx.ns, 'content');

  // Active readers, as in steady state: a reader who read within the hour has m:seen, and the
  // page makes no activity write. Written through the real adapter (its format is its own).
  const now = Date.now();
  for (let i = 0; i < readers.length; i += 16) {
    await Promise.all(readers.slice(i, i + 16).map((r) => deps.inbox.markSeen(graph.handles[r]!, now)));
  }

  const inboxes = new Map(readers.map((r) => [r, inboxOf(graph, r, ctx.limits.inboxCap)]));
  const floorOp = async (r: number) => {
    await hb.getRow(inboxTable, cachedUserKey(graph.handles[r]!));
    const keys = inboxes.get(r)!.slice(0, LIMIT).map((p) => p.key);
    if (keys.length) await hb.multiGet(contentTable, keys);
  };

  for (let i = 0; i < WARMUP; i++) {
    const r = readers[i % readers.length]!;
    await floorOp(r);
    await homeTimeline(deps, graph.handles[r]!, LIMIT);
  }

  const floorMs: number[] = [];
  const caseMs: number[] = [];
  const requests: number[] = [];
  const sequential: number[] = [];
  let shortPages = 0;
  for (let i = 0; i < readers.length; i++) {
    const r = readers[i]!;
    const timeFloor = async () => {
      const t0 = performance.now();
      await floorOp(r);
      floorMs.push(performance.now() - t0);
    };
    const timeCase = async () => {
      const t0 = performance.now();
      const rec = await recorder.record(() => homeTimeline(deps, graph.handles[r]!, LIMIT));
      caseMs.push(performance.now() - t0);
      requests.push(rec.requests);
      sequential.push(rec.sequential);
      if (rec.result.items.length < Math.min(LIMIT, inboxes.get(r)!.length)) shortPages++;
    };
    if (i % 2 === 0) {
      await timeFloor();
      await timeCase();
    } else {
      await timeCase();
      await timeFloor();
    }
    if (i % 10 === 0) ctx.progress.update(i / readers.length, `${i}/${readers.length} readers`);
  }

  const floor = summarize(floorMs);
  const useCase = summarize(caseMs);
  const sizes = readers.map((r) => inboxes.get(r)!.length);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    readers: readers.length,
    limit: LIMIT,
    floor,
    useCase,
    p50Ratio: useCase.medianMs / floor.medianMs,
    p99Ratio: useCase.p99Ms / floor.p99Ms,
    requestsPerPage: { mean: mean(requests), max: Math.max(...requests) },
    sequentialRoundTrips: { mean: mean(sequential), max: Math.max(...sequential) },
    inboxCells: { mean: Math.round(mean(sizes)), min: Math.min(...sizes), max: Math.max(...sizes) },
    shortPages,
  };
}
