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
export async function bulkPut(client: HBaseRestClient, table: string, rows: Iterable<RowInput>, opts: BulkOptions): Promise<number> {
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
