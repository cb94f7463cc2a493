// test/bench/feed/bulk.ts — fast loading for the benchmark's data: raw batched puts, a few in
// flight at once. The product never writes like this; the benchmark does, so that building a
// large graph takes seconds, not the hours the use cases would take one request at a time.
import type { HBaseRestClient, RowInput } from '../../../shared/hbase/index.js';

export interface BulkOptions {
  /** Rows per request (default 1000). */
  maxRows?: number;
  /** Cells per request (default 4000); a single wider row goes alone. */
  maxCells?: number;
  concurrency: number;
  /** Called after each request with the rows and cells it wrote. */
  onBatch?: (rows: number, cells: number) => void;
}

/** Writes every row; returns the number of PUT requests. Rejects on the first failed put. */
export async function bulkPut(
  client: HBaseRestClient,
  table: string,
  rows: Iterable<RowInput>,
  opts: BulkOptions,
): Promise<number> {
  const maxRows = opts.maxRows ?? 1000;
  const maxCells = opts.maxCells ?? 4000;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let requests = 0;
  const send = async (batch: RowInput[], cells: number) => {
    while (inFlight.size >= opts.concurrency) await Promise.race(inFlight);
    if (failure) throw failure;
    requests++;
    const p: Promise<void> = client
      .put(table, batch)
      .then(() => opts.onBatch?.(batch.length, cells))
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  let batch: RowInput[] = [];
  let cells = 0;
  for (const row of rows) {
    if (batch.length > 0 && (batch.length >= maxRows || cells + row.cells.length > maxCells)) {
      await send(batch, cells);
      batch = [];
      cells = 0;
    }
    batch.push(row);
    cells += row.cells.length;
  }
  if (batch.length > 0) await send(batch, cells);
  await Promise.all(inFlight);
  if (failure) throw failure;
  return requests;
}

/**
 * Runs `op` on every item with at most `concurrency` in flight (a worker per slot pulling the
 * next item). Resolves once all are done; the first rejection rejects (the others still finish).
 */
export async function inPool<T>(
  items: readonly T[],
  concurrency: number,
  op: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await op(items[i]!, i);
    }
  };
  const results = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
