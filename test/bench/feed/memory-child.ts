// test/bench/feed/memory-child.ts — runs in its own Node process (spawned by memory.ts with
// --expose-gc) so its memory figures belong to one fan-out alone: the real handleFanoutMessage
// for one post, continuations included, on the real HBase adapters. Prints one JSON line.
//   BENCH_CHILD = {"restUrl","ns","postId","headers"}
import { performance } from 'node:perf_hooks';
import { feedLimits, loadConfig } from '../../../shared/config/config.js';
import { hbaseFeedStores } from '../../../shared/wiring/feed.js';
import { HBaseRestClient } from '../../../shared/hbase/index.js';
import type { FanoutMessage } from '../../../shared/ports/fanout-queue.js';
import { handleFanoutMessage } from '../../../shared/use-cases/background/handlers.js';
import type { FeedDeps } from '../../../shared/use-cases/feed-deps.js';

const input = JSON.parse(process.env.BENCH_CHILD ?? '{}') as {
  restUrl: string;
  ns: string;
  postId: string;
  headers: Record<string, string>;
};
const client = new HBaseRestClient({ baseUrl: input.restUrl, timeoutMs: 120_000, headers: input.headers });
const queue: FanoutMessage[] = [];
const deps: FeedDeps = {
  ...hbaseFeedStores(client, input.ns),
  queue: { send: async (m) => void queue.push(m) },
  limits: feedLimits(loadConfig(process.env)),
};
const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

// Warm: the connection pool and the code paths exist before the baseline is taken.
if (!(await deps.posts.get(input.postId))) throw new Error(`post ${input.postId} not found`);
gc?.();
const baseline = process.memoryUsage();
let peakRss = baseline.rss;
let peakHeap = baseline.heapUsed;
const sample = () => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) peakRss = m.rss;
  if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
};
const timer = setInterval(sample, 5);

const t0 = performance.now();
queue.push({ v: 1, type: 'fanout', postId: input.postId });
let readers = 0;
let messages = 0;
while (queue.length > 0) {
  const out = await handleFanoutMessage(deps, queue.shift()!);
  readers += out.readers;
  messages++;
  sample();
}
const ms = performance.now() - t0;
clearInterval(timer);
sample();
// What the fan-out left behind once the garbage is collected: flat = nothing retained per follower.
gc?.();
const afterGc = process.memoryUsage();
await client.close();

const round = (x: number) => Math.round(x * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    readers,
    messages,
    ms: Math.round(ms),
    gcExposed: Boolean(gc),
    baselineRssMB: round(baseline.rss / MB),
    peakRssMB: round(peakRss / MB),
    baselineHeapUsedMB: round(baseline.heapUsed / MB),
    peakHeapUsedMB: round(peakHeap / MB),
    heapAfterGcMB: round(afterGc.heapUsed / MB),
    // Whole-process high-water mark (includes loading the code), from the kernel.
    maxRssMB: round((process.resourceUsage().maxRSS * 1024) / MB),
  })}\n`,
);
