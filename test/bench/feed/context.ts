// test/bench/feed/context.ts — what every phase of the feed benchmark shares.
import type { FeedLimits } from '../../../shared/domain/limits.js';
import type { HBaseRestClient } from '../../../shared/hbase/index.js';
import type { FanoutMessage } from '../../../shared/ports/fanout-queue.js';
import { runInvocation } from '../../../shared/runtime/invocation-scope.js';
import { handleFanoutMessage } from '../../../shared/use-cases/background/handlers.js';
import type { FeedDeps } from '../../../shared/use-cases/feed-deps.js';
import type { GraphModel, PoolModel } from './graph.js';
import type { Progress } from './progress.js';
import type { RequestRecorder } from './requests.js';
import type { BenchSettings } from './settings.js';

export interface BenchContext {
  s: BenchSettings;
  /** Throwaway namespace of this run. */
  ns: string;
  restUrl: string;
  sqsEndpoint: string;
  headers: Record<string, string>;
  /** The client behind `deps`, with every request recorded by `recorder`. */
  hb: HBaseRestClient;
  recorder: RequestRecorder;
  /** The real HBase adapters (hbaseFeedStores) with an in-process queue that records messages. */
  deps: FeedDeps;
  queued: FanoutMessage[];
  limits: FeedLimits;
  progress: Progress;
  graph: GraphModel;
  pool: PoolModel;
}

/**
 * Runs `first` and every message it queues (continuations) through the real worker logic, in
 * process, until nothing is left. Returns the readers reached and the messages handled.
 */
export async function drainInProcess(
  ctx: BenchContext,
  first: FanoutMessage,
): Promise<{ readers: number; messages: number }> {
  const todo: FanoutMessage[] = [first];
  let readers = 0;
  let messages = 0;
  while (todo.length > 0) {
    const msg = todo.shift()!;
    // As the worker runs it: one invocation per message, so what the client hands off (a
    // finished scanner's delete) runs beside the message's last steps and ends with it.
    const out = await runInvocation(`bench-${msg.type}-${messages}`, () => handleFanoutMessage(ctx.deps, msg));
    readers += out.readers;
    messages++;
    todo.push(...ctx.queued.splice(0));
  }
  return { readers, messages };
}
