// shared/hbase/types.ts — the data shapes of the HBase REST client (rows, cells, schemas, options); protocol-level only.
import type { Bytes } from './codec.js';
import type { FilterString } from './filter-string.js';

export interface HBaseCell {
  /** The raw `family:qualifier` bytes, as the server sent them. */
  column: Uint8Array;
  family: string;
  qualifier: Uint8Array;
  timestamp: number;
  value: Uint8Array;
}

export interface HBaseRow {
  key: Uint8Array;
  cells: HBaseCell[];
}

export interface CellInput {
  /** `family:qualifier`; an empty qualifier (`cf:`) is legal, a bare `cf` is not. */
  column: Bytes;
  value: Bytes;
  /** Milliseconds; omitted means the region server stamps the cell. */
  timestamp?: number;
}

export interface RowInput {
  key: Bytes;
  cells: CellInput[];
}

export interface HBaseRequestEvent {
  method: string;
  path: string;
  /** 0 when no HTTP response arrived (network error or timeout). */
  status: number;
  durationMs: number;
  /** Sent as handed-off clean-up (HBaseClientOptions.handOff): nothing waited on its answer. */
  background?: boolean;
}

export interface HBaseClientOptions {
  /** e.g. http://127.0.0.1:18080 or https://gw.example.com/hbase (a path prefix is kept). */
  baseUrl: string;
  /** Per HTTP request, default 10_000; never past `deadline`. */
  timeoutMs?: number;
  /** Extra attempts for idempotent operations on network errors and 503; default 2. */
  retries?: number;
  /** e.g. Authorization for a fronted gateway. */
  headers?: Record<string, string>;
  /**
   * The Authorization header value, asked for on every request (a credential read at run time,
   * cached by its owner, may change under a warm client); undefined sends none.
   */
  authorization?: () => Promise<string | undefined>;
  /**
   * Epoch millis by which every call must have returned (the invocation's own deadline), or
   * undefined for none: no attempt starts, waits or is retried past it.
   */
  deadline?: () => number | undefined;
  onRequest?: (e: HBaseRequestEvent) => void;
  /**
   * Takes clean-up the caller need not wait for (a finished scanner's delete) to be awaited
   * later, beside the caller's next requests; returns false to have it awaited in place (the
   * default). The client itself never lets such work go unawaited.
   */
  handOff?: (work: Promise<void>) => boolean;
}

export interface GetOptions {
  /** `cf` (whole family) or `cf:q`. */
  columns?: Bytes[];
  /** Versions per column, newest first; default 1. */
  versions?: number;
  /**
   * A server-side filter applied to every row (./filter-string.ts), sent as `filter_b64`: only
   * the cells it lets through come back, in the same one request.
   */
  filter?: FilterString;
}

export interface MultiGetOptions extends GetOptions {
  /** Keys per request; default 100. Requests are also split to keep URLs short. */
  chunkSize?: number;
}

export interface ScanOptions {
  prefix?: Bytes;
  /** Inclusive. */
  startRow?: Bytes;
  /** Exclusive. */
  stopRow?: Bytes;
  /** Required: the most rows the iterator yields. */
  limit?: number;
  /** `cf` or `cf:q`. */
  columns?: Bytes[];
  /** Default 1 (the server's own default is every version). */
  maxVersions?: number;
  /** Rows per page GET; default 100. */
  pageSize?: number;
  /**
   * Cells per page GET (the ScannerModel `batch`). Unset means whole rows per page; when set,
   * a row can be split across pages and the iterator stitches it back together.
   */
  cellsPerPage?: number;
  /** Scanner filter JSON (A12 encoding rules: most byte fields are base64). */
  filter?: object;
}

export interface ColumnFamilySchema {
  name: string;
  /** VERSIONS, TTL, BLOOMFILTER, ... copied verbatim; the server stringifies them. */
  [attr: string]: string | number | boolean;
}

export interface TableSchema {
  columnFamilies: ColumnFamilySchema[];
  attributes?: Record<string, string>;
}
