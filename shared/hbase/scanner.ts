// shared/hbase/scanner.ts — bounded stateful-scanner iteration: create, page, stitch split rows, always DELETE the scanner.
import { compareBytes, prefixEnd, toBase64, toBytes } from './codec.js';
import { mergePage } from './cellset.js';
import { decodeCellSet } from './protobuf.js';
import { HBaseError } from './hbase-error.js';
import { errorFrom, type RestTransport } from './transport.js';
import type { HBaseRow, ScanOptions } from './types.js';
import { buildQuery, scannerPathFromLocation, tablePath } from './url.js';

const DEFAULT_PAGE_SIZE = 100;

/** The ScannerModel JSON a 2.x server accepts (no `limit`, no `reversed`: unknown fields are a 500). */
export interface ScannerModelJson {
  startRow: string;
  endRow: string;
  column?: string[];
  batch?: number;
  caching: number;
  maxVersions: number;
  filter?: string;
}

export interface ScanPlan {
  model: ScannerModelJson;
  limit: number;
  pageSize: number;
  cellsPerPage: number | undefined;
  /** startRow >= stopRow: nothing to read, so no scanner is opened at all. */
  empty: boolean;
}

/**
 * Validates the options and builds the scanner body. Throws on an unbounded scan: every scan
 * needs a key range (a prefix, or both startRow and stopRow) and a row limit.
 */
export function planScan(opts: ScanOptions): ScanPlan {
  const limit = requirePositiveInt('limit', opts.limit);
  const pageSize = opts.pageSize === undefined ? DEFAULT_PAGE_SIZE : requirePositiveInt('pageSize', opts.pageSize);
  const cellsPerPage =
    opts.cellsPerPage === undefined ? undefined : requirePositiveInt('cellsPerPage', opts.cellsPerPage);
  const maxVersions = opts.maxVersions === undefined ? 1 : requirePositiveInt('maxVersions', opts.maxVersions);

  const prefix = opts.prefix === undefined ? undefined : toBytes(opts.prefix);
  if (prefix !== undefined && prefix.byteLength === 0) throw new TypeError('scan prefix must not be empty');
  if (prefix === undefined && (opts.startRow === undefined || opts.stopRow === undefined)) {
    throw new TypeError('scan must be bounded: give a prefix, or both startRow and stopRow');
  }
  const start = opts.startRow === undefined ? (prefix as Uint8Array) : toBytes(opts.startRow);
  let stop: Uint8Array | null = opts.stopRow === undefined ? null : toBytes(opts.stopRow);
  let filter: object | undefined = opts.filter;
  if (prefix !== undefined) {
    const end = prefixEnd(prefix);
    if (end !== null && (stop === null || compareBytes(end, stop) < 0)) stop = end;
    // An all-0xff prefix has no upper key; only a filter can keep the scan inside it.
    if (end === null) {
      const prefixFilter = { type: 'PrefixFilter', value: toBase64(prefix) };
      filter =
        filter === undefined
          ? prefixFilter
          : { type: 'FilterList', op: 'MUST_PASS_ALL', filters: [prefixFilter, filter] };
    }
  }
  if (stop !== null && stop.byteLength === 0) throw new TypeError('scan stopRow must not be empty');
  const empty = stop !== null && compareBytes(start, stop) >= 0;

  const model: ScannerModelJson = {
    startRow: toBase64(start),
    endRow: stop === null ? '' : toBase64(stop),
    // Region-server fetch size: never fetch more rows per RPC than we can use.
    caching: Math.min(pageSize, limit),
    maxVersions,
  };
  if (opts.columns && opts.columns.length > 0) model.column = opts.columns.map((c) => toBase64(c));
  if (cellsPerPage !== undefined) model.batch = cellsPerPage;
  if (filter !== undefined) model.filter = JSON.stringify(filter);
  return { model, limit, pageSize, cellsPerPage, empty };
}

function requirePositiveInt(name: string, v: number | undefined): number {
  if (v === undefined) throw new TypeError(`scan needs a ${name}`);
  if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`scan ${name} must be a positive integer, got ${v}`);
  return v;
}

/**
 * An AsyncIterable over one bounded scan. Each iteration opens its own server-side scanner and
 * deletes it when the loop ends, breaks or throws. A consumer that takes an iterator by hand and
 * abandons it without calling return() leaks the scanner until the server expires it (1 h).
 */
export class HBaseScanner implements AsyncIterable<HBaseRow> {
  constructor(
    private readonly transport: Pick<RestTransport, 'expect'>,
    private readonly table: string,
    private readonly plan: ScanPlan,
    /** Takes the scanner's delete off the caller's path (HBaseClientOptions.handOff). */
    private readonly handOff: (work: Promise<void>) => boolean = () => false,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<HBaseRow, void, undefined> {
    if (this.plan.empty) return;
    const created = await this.transport.expect(
      // Creating is safe to repeat: a scanner orphaned by a lost reply expires on its own.
      { method: 'POST', path: `${tablePath(this.table)}/scanner`, json: this.plan.model, idempotent: true },
      [201],
    );
    const location = created.headers.location;
    const scannerPath = scannerPathFromLocation(this.table, Array.isArray(location) ? location[0] : location);
    if (scannerPath === null) {
      throw errorFrom(created, `HBase REST scanner created without a usable Location header: ${String(location)}`);
    }
    try {
      yield* this.pages(scannerPath);
    } finally {
      // The rows are the caller's already: the delete can run beside whatever it does next.
      let handedOff = false;
      const released = this.release(scannerPath, () => handedOff);
      handedOff = this.handOff(released);
      if (!handedOff) await released;
    }
  }

  private async *pages(scannerPath: string): AsyncGenerator<HBaseRow, void, undefined> {
    const { limit, pageSize, cellsPerPage } = this.plan;
    let yielded = 0;
    // At most one row is held back: the last row of a page that may continue on the next page.
    let held: HBaseRow[] = [];
    while (yielded < limit) {
      // A held row still counts as one of the rows this page may return (its continuation).
      const n = Math.min(pageSize, limit - yielded);
      // Page reads are never retried: a repeated GET silently skips the page the lost reply held.
      // Pages come as protobuf: raw key bytes instead of base64 in JSON, which the gateway
      // encodes and we decode for every row (the fan-out reads 1,000 followers a page).
      const res = await this.transport.expect(
        { method: 'GET', path: `${scannerPath}${buildQuery([['n', n]])}`, idempotent: false, accept: 'protobuf' },
        [200, 204],
      );
      if (res.status === 204) break;
      if (res.bytes === undefined) throw errorFrom(res, 'HBase REST scanner page arrived without its protobuf body');
      const page = decodeCellSet(res.bytes);
      const cells = page.reduce((sum, r) => sum + r.cells.length, 0);
      mergePage(held, page);
      // Only a page cut by the cell budget can end mid-row; row-count cuts fall on row boundaries.
      const mayContinue = cellsPerPage !== undefined && cells >= cellsPerPage;
      const ready = mayContinue ? held.length - 1 : held.length;
      for (let i = 0; i < ready; i++) {
        yield held[i] as HBaseRow;
        if (++yielded >= limit) return;
      }
      held = held.slice(ready);
      // A page cut by rows alone that holds fewer than asked is the scanner's last: its generator
      // ran dry mid-page (as the 204 would say, one round trip later).
      if (page.length === 0 || (page.length < n && !mayContinue)) break;
    }
    for (const row of held) {
      if (yielded++ >= limit) return;
      yield row;
    }
  }

  private async release(scannerPath: string, handedOff: () => boolean): Promise<void> {
    try {
      // 404 = already gone (expired, or dropped by the server after a 410). The request goes
      // out on the next tick, by when the hand-off is decided.
      await Promise.resolve();
      await this.transport.expect(
        { method: 'DELETE', path: scannerPath, idempotent: true, background: handedOff() },
        [200, 404],
      );
    } catch (err) {
      // Best effort: a failed cleanup must not mask the scan's own result or error; the server
      // expires the scanner anyway.
      if (!(err instanceof HBaseError)) throw err;
    }
  }
}
