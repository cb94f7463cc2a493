// shared/hbase/hbase-client.ts — typed client for the HBase REST gateway (2.6.x): rows, check-and-mutate, counters, scans, DDL.
import { columnSeparatorIndex, toBase64, toBytes, type Bytes } from './codec.js';
import { cellJson, parseCellSet, requireQualifiedColumn, rowJson } from './cellset.js';
import { encodeCellSet } from './protobuf.js';
import { mapLimit } from '../runtime/concurrency.js';
import { HBaseScanner, planScan } from './scanner.js';
import { RestTransport, errorFrom } from './transport.js';
import type { FilterString } from './filter-string.js';
import type {
  CellInput,
  ColumnFamilySchema,
  GetOptions,
  HBaseClientOptions,
  HBaseRow,
  MultiGetOptions,
  RowInput,
  ScanOptions,
  TableSchema,
} from './types.js';
import {
  buildQuery,
  chunkByBudget,
  chunkRowSpecs,
  encodedSegment,
  multigetRowSpec,
  rowPath,
  tablePath,
  timestampSegment,
  validateNamespace,
  type QueryParams,
} from './url.js';

const B64: QueryParams = [['e', 'b64']];
// The URL budget below is what bounds a multi-get request; this row cap only keeps one
// response body modest when keys are tiny.
const DEFAULT_MULTIGET_CHUNK = 1000;
// Jetty allows 64 KiB of request line + headers; API gateways in front often allow far less.
const MAX_MULTIGET_QUERY_CHARS = 8_000;
const MULTIGET_CONCURRENCY = 4;
// Column segments per multi-column DELETE, as characters of base64url (same budget as multiget).
const MAX_DELETE_COLUMNS_CHARS = 8_000;
const DELETE_COLUMNS_CONCURRENCY = 4;
// Batch puts name their rows in the body; the URL row is only there to reach RowResource.
const BATCH_PLACEHOLDER_ROW = '_batch_';

export class HBaseRestClient {
  private readonly transport: RestTransport;
  private readonly handOff: (work: Promise<void>) => boolean;

  constructor(opts: HBaseClientOptions) {
    this.transport = new RestTransport(opts);
    this.handOff = opts.handOff ?? (() => false);
  }

  /** Every HTTP request sent so far, retries and scanner create/page/delete included. */
  get requestCount(): number {
    return this.transport.requestCount;
  }

  // ---------------------------------------------------------------- data

  /**
   * One row, or null when it does not exist (or has none of the requested columns). Sent as a
   * one-row multiget: unlike the row GET, whose 404 body is the same for a missing row and a
   * missing table, multiget answers "No rows found." only for missing rows.
   */
  async getRow(table: string, key: Bytes, opts: GetOptions = {}): Promise<HBaseRow | null> {
    const [row] = await this.multiGet(table, [key], opts);
    return row ?? null;
  }

  /** The rows that exist, in request order; [] when none does. */
  async multiGet(table: string, keys: Bytes[], opts: MultiGetOptions = {}): Promise<HBaseRow[]> {
    if (keys.length === 0) return [];
    const columns = (opts.columns ?? []).map((c) => toBytes(c));
    const specs = keys.map((k) => multigetRowSpec(toBytes(k), columns));
    const chunkSize = opts.chunkSize === undefined ? DEFAULT_MULTIGET_CHUNK : positiveInt('chunkSize', opts.chunkSize);
    const params: (readonly [string, string | number])[] = [...B64];
    if (opts.versions !== undefined) params.push(['v', positiveInt('versions', opts.versions)]);
    // Unpadded: the gateway base64-decodes this parameter without URL-decoding it first, so a
    // percent-encoded '=' would be an illegal character (a 500).
    if (opts.filter !== undefined) params.push(['filter_b64', Buffer.from(opts.filter.bytes).toString('base64url')]);
    const base = `${tablePath(table)}/multiget`;
    // The filter rides in every chunk's URL: the rows get what budget it leaves.
    const chunks = chunkRowSpecs(specs, chunkSize, MAX_MULTIGET_QUERY_CHARS - buildQuery(params).length);
    const results = await mapLimit(chunks, MULTIGET_CONCURRENCY, (chunk) =>
      this.multigetChunk(table, `${base}${buildQuery([...params, ...chunk.map((s) => ['row', s] as const)])}`),
    );
    return results.flat();
  }

  private async multigetChunk(table: string, path: string): Promise<HBaseRow[]> {
    const res = await this.transport.send({ method: 'GET', path, idempotent: true });
    if (res.status === 200) return parseCellSet(res.body);
    if (res.status === 404 && res.body.startsWith('No rows found')) return [];
    // 2.6.1 answers a multiget on a missing table (or family) with a bare 500; tell them apart.
    if (res.status === 500) await this.throwIfTableMissing(table);
    throw errorFrom(res);
  }

  private async throwIfTableMissing(table: string): Promise<void> {
    const res = await this.transport.send({ method: 'GET', path: `${tablePath(table)}/exists`, idempotent: true });
    if (res.status === 404) throw errorFrom(res, `HBase table not found: ${table}`);
  }

  /**
   * Writes every row in one request (not atomic across rows; each row is atomic). The body is
   * protobuf: raw bytes instead of base64 in JSON, less to build here and to parse at the
   * gateway (a fan-out put carries 1,000 rows).
   */
  async put(table: string, rows: RowInput[]): Promise<void> {
    if (rows.length === 0) return;
    await this.transport.expect(
      {
        method: 'PUT',
        path: `${tablePath(table)}/${BATCH_PLACEHOLDER_ROW}`,
        protobuf: encodeCellSet(rows),
        // Same cells again = same result (at worst one more version when timestamps are unset).
        idempotent: true,
      },
      [200],
    );
  }

  async deleteRow(table: string, key: Bytes): Promise<void> {
    await this.delete(rowPath(table, toBytes(key)));
  }

  async deleteFamily(table: string, key: Bytes, family: string): Promise<void> {
    if (family.length === 0 || family.includes(':'))
      throw new TypeError(`invalid column family: ${JSON.stringify(family)}`);
    await this.delete(rowPath(table, toBytes(key), [toBytes(family)]));
  }

  /** Deletes every version of the column, or (upToTimestamp) every version with timestamp <= it. */
  async deleteColumn(table: string, key: Bytes, column: Bytes, opts: { upToTimestamp?: number } = {}): Promise<void> {
    const col = requireQualifiedColumn(toBytes(column));
    await this.delete(rowPath(table, toBytes(key), [col], opts.upToTimestamp));
  }

  /**
   * Deletes several columns of one row: every version of each, or (upToTimestamp) every version
   * with timestamp <= it. One DELETE `/t/<row>/<col>,<col>…[/TS]` per chunk: RowSpec takes a
   * column list, and with a timestamp the server calls addColumns(cf, q, TS) for each column.
   * Chunked so the URL stays far below Jetty's 64 KiB header limit (and a fronting gateway's).
   */
  async deleteColumns(
    table: string,
    key: Bytes,
    columns: Bytes[],
    opts: { upToTimestamp?: number } = {},
  ): Promise<void> {
    if (columns.length === 0) return;
    const k = toBytes(key);
    const cols = columns.map((c) => requireQualifiedColumn(toBytes(c)));
    // Validate before the first request, so a bad timestamp never leaves a half-done delete.
    if (opts.upToTimestamp !== undefined) timestampSegment(opts.upToTimestamp);
    const chunks = chunkByBudget(cols, (c) => encodedSegment(c).length + 1 /* "," */, MAX_DELETE_COLUMNS_CHARS);
    await mapLimit(chunks, DELETE_COLUMNS_CONCURRENCY, (chunk) =>
      this.delete(rowPath(table, k, chunk, opts.upToTimestamp)),
    );
  }

  private async delete(path: string): Promise<void> {
    await this.transport.expect({ method: 'DELETE', path: `${path}${buildQuery(B64)}`, idempotent: true }, [200]);
  }

  /**
   * Puts the cells only if `check.column` currently holds `check.value`; `value: null` means the
   * cell must be absent (an existing empty value also counts as absent). The server demands that
   * `put` writes the checked column too. true = written, false = check failed (304).
   */
  async checkAndPut(
    table: string,
    key: Bytes,
    put: CellInput[],
    check: { column: Bytes; value: Bytes | null },
  ): Promise<boolean> {
    const k = toBytes(key);
    const checkColumn = requireQualifiedColumn(toBytes(check.column));
    if (columnSeparatorIndex(checkColumn) === checkColumn.byteLength - 1) {
      throw new TypeError('checkAndPut needs a check column with a non-empty qualifier');
    }
    const checkB64 = toBase64(checkColumn);
    const cells = put.map(cellJson);
    if (!cells.some((c) => c.column === checkB64)) {
      throw new TypeError('checkAndPut: the put must include a cell for the checked column (server rule)');
    }
    // The last cell is the check: its value is what the column must currently hold.
    cells.push({ column: checkB64, $: toBase64(check.value ?? '') });
    return this.checkAndMutate(table, k, 'put', rowJson(k, cells));
  }

  /**
   * Deletes if `check.column` holds `check.value`. With no deleteColumns the checked column is
   * deleted (all versions). Otherwise exactly the listed ones: a bare `cf` deletes that family
   * (all versions), a `cf:q` deletes that column's newest version only (the server adds each as
   * Delete.addColumn at LATEST_TIMESTAMP); the checked column survives unless listed.
   * Sent as PUT ?check=delete: an HTTP DELETE would ignore the check and delete unconditionally.
   */
  async checkAndDelete(
    table: string,
    key: Bytes,
    check: { column: Bytes; value: Bytes },
    opts: { deleteColumns?: Bytes[] } = {},
  ): Promise<boolean> {
    const k = toBytes(key);
    const cells = (opts.deleteColumns ?? []).map((c) => {
      const col = toBytes(c);
      if (col.byteLength === 0 || col[0] === 0x3a) throw new TypeError('deleteColumns entries must be `cf` or `cf:q`');
      return { column: toBase64(col), $: '' };
    });
    cells.push({ column: toBase64(requireQualifiedColumn(toBytes(check.column))), $: toBase64(check.value) });
    return this.checkAndMutate(table, k, 'delete', rowJson(k, cells));
  }

  private async checkAndMutate(table: string, key: Uint8Array, check: 'put' | 'delete', row: object): Promise<boolean> {
    const res = await this.transport.expect(
      {
        method: 'PUT',
        path: `${rowPath(table, key)}${buildQuery([['check', check], ...B64])}`,
        json: { Row: [row] },
        idempotent: false,
      },
      [200, 304],
    );
    return res.status === 200;
  }

  /** Adds `amount` (may be negative) to an 8-byte counter cell; read it back with decodeLong. */
  async increment(table: string, key: Bytes, column: Bytes, amount: number | bigint = 1): Promise<void> {
    await this.incrementCells(table, key, [{ column, amount }]);
  }

  /**
   * Adds each amount to its 8-byte counter cell of ONE row, in one request. The server applies
   * them as one Increment, atomic for the row: all of them land, or none.
   */
  async incrementCells(table: string, key: Bytes, cells: { column: Bytes; amount: number | bigint }[]): Promise<void> {
    if (cells.length === 0) throw new RangeError('incrementCells needs at least one cell');
    const deltas = cells.map(({ column, amount }) => {
      if (typeof amount === 'number' && !Number.isSafeInteger(amount)) {
        throw new RangeError(`increment amount must be an integer, got ${amount}`);
      }
      const delta = BigInt(amount);
      if (BigInt.asIntN(64, delta) !== delta) throw new RangeError('increment amount must fit in a signed 64-bit long');
      // The server parses the value as decimal text (Long.parseLong), not as a binary long.
      return { column, value: delta.toString() };
    });
    await this.mutateRow(table, key, deltas, 'increment');
  }

  async append(table: string, key: Bytes, column: Bytes, value: Bytes): Promise<void> {
    await this.mutateRow(table, key, [{ column, value }], 'append');
  }

  private async mutateRow(
    table: string,
    key: Bytes,
    cells: { column: Bytes; value: Bytes }[],
    check: 'increment' | 'append',
  ): Promise<void> {
    const k = toBytes(key);
    const json = cells.map(({ column, value }) => ({
      column: toBase64(requireQualifiedColumn(toBytes(column))),
      $: toBase64(value),
    }));
    await this.transport.expect(
      {
        method: 'PUT',
        path: `${rowPath(table, k)}${buildQuery([['check', check], ...B64])}`,
        json: { Row: [rowJson(k, json)] },
        idempotent: false,
      },
      [200],
    );
  }

  /**
   * A bounded scan over a stateful scanner. Throws right away unless the options give a key range
   * (prefix, or startRow + stopRow) and a limit. The scanner is deleted when iteration ends.
   */
  scan(table: string, opts: ScanOptions): AsyncIterable<HBaseRow> {
    tablePath(table); // a bad name should fail here, at the call, not at the first next()
    return new HBaseScanner(this.transport, table, planScan(opts), this.handOff);
  }

  /**
   * The stateless scan (GET /table/<prefix>*): ONE request, no scanner to create or delete, and
   * the only REST scan that runs in reverse. The server reads the prefix and start row as UTF-8
   * text, so this is for tables whose row keys are text. `startRow` is inclusive; a reversed
   * scan starts at it and walks down (give a start at or above the prefix's last row). Only
   * rows with the prefix are returned, at most `limit`.
   */
  async scanText(
    table: string,
    opts: {
      prefix: string;
      startRow?: string;
      reversed?: boolean;
      limit: number;
      columns?: string[];
      /** Only rows it lets through come back (and count toward the limit), in the same one request. */
      filter?: FilterString;
    },
  ): Promise<HBaseRow[]> {
    if (opts.prefix.length === 0) throw new TypeError('scanText needs a non-empty prefix (no whole-table walks)');
    const limit = positiveInt('limit', opts.limit);
    const params: (readonly [string, string | number])[] = [['limit', limit]];
    if (opts.startRow !== undefined) params.push(['startrow', opts.startRow]);
    if (opts.reversed) params.push(['reversed', 'true']);
    for (const c of opts.columns ?? []) params.push(['column', c]);
    // Unpadded base64url, as for the multi-get (the gateway does not URL-decode it).
    if (opts.filter !== undefined) params.push(['filter_b64', Buffer.from(opts.filter.bytes).toString('base64url')]);
    // The first character is always percent-escaped: routing sees the encoded path, so no prefix
    // can ever spell a sub-resource (schema, scanner, multiget…); the server decodes it after.
    const encoded = encodeURIComponent(opts.prefix);
    const first = encoded.startsWith('%')
      ? encoded
      : `%${opts.prefix.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}${encoded.slice(1)}`;
    const res = await this.transport.expect(
      { method: 'GET', path: `${tablePath(table)}/${first}*${buildQuery(params)}`, idempotent: true },
      [200],
    );
    return parseCellSet(res.body);
  }

  // ---------------------------------------------------------------- admin

  async listNamespaces(): Promise<string[]> {
    const res = await this.transport.expect({ method: 'GET', path: '/namespaces', idempotent: true }, [200]);
    return (JSON.parse(res.body) as { Namespace?: string[] }).Namespace ?? [];
  }

  /** Uses the list: a GET of a missing namespace is a 500 on the server, not a 404. */
  async namespaceExists(ns: string): Promise<boolean> {
    validateNamespace(ns);
    return (await this.listNamespaces()).includes(ns);
  }

  /** true = created, false = it already existed (403). */
  async createNamespace(ns: string): Promise<boolean> {
    validateNamespace(ns);
    const res = await this.transport.expect(
      { method: 'POST', path: `/namespaces/${ns}`, idempotent: false },
      [201, 403],
    );
    return res.status === 201;
  }

  /** true = dropped, false = did not exist. The namespace must hold no tables (else 503). */
  async deleteNamespace(ns: string): Promise<boolean> {
    validateNamespace(ns);
    const res = await this.transport.expect(
      { method: 'DELETE', path: `/namespaces/${ns}`, idempotent: true },
      [200, 404],
    );
    return res.status === 200;
  }

  async tableExists(table: string): Promise<boolean> {
    const res = await this.transport.expect(
      { method: 'GET', path: `${tablePath(table)}/exists`, idempotent: true },
      [200, 404],
    );
    return res.status === 200;
  }

  async getTableSchema(table: string): Promise<TableSchema | null> {
    const res = await this.transport.expect(
      { method: 'GET', path: `${tablePath(table)}/schema`, idempotent: true },
      [200, 404],
    );
    return res.status === 404 ? null : parseTableSchema(res.body);
  }

  /**
   * Creates the table if it does not exist; true = created, false = it already existed (and was
   * left alone). Sent as POST, never PUT: PUT on an existing table replaces the schema and drops
   * every unlisted family, so if another creator wins the race between our existence check and
   * this call, POST at worst re-applies the listed families.
   */
  async createTable(table: string, schema: TableSchema): Promise<boolean> {
    const body = schemaJson(table, schema);
    if (await this.tableExists(table)) return false;
    // 201 created; 200 someone else created it first (families merged); 304 creation race.
    const res = await this.transport.expect(
      { method: 'POST', path: `${tablePath(table)}/schema`, json: body, idempotent: false },
      [201, 200, 304],
    );
    return res.status === 201;
  }

  /** Adds or modifies the listed families, never drops one (creates the table if it is missing). */
  async addOrAlterFamilies(table: string, families: ColumnFamilySchema[]): Promise<void> {
    const json = schemaJson(table, { columnFamilies: families });
    await this.transport.expect(
      { method: 'POST', path: `${tablePath(table)}/schema`, json, idempotent: false },
      [200, 201],
    );
  }

  /** Disables and drops the table: true = dropped, false = did not exist. For tests and cleanup. */
  async deleteTable(table: string): Promise<boolean> {
    const res = await this.transport.expect(
      { method: 'DELETE', path: `${tablePath(table)}/schema`, idempotent: true },
      [200, 404],
    );
    return res.status === 200;
  }

  /** e.g. "2.6.1" (the HBase cluster behind the gateway, not the gateway's REST version). */
  async clusterVersion(): Promise<string> {
    const res = await this.transport.expect({ method: 'GET', path: '/version/cluster', idempotent: true }, [200]);
    const version = (JSON.parse(res.body) as { Version?: unknown }).Version;
    if (typeof version !== 'string')
      throw errorFrom(res, `unexpected /version/cluster body: ${res.body.slice(0, 200)}`);
    return version;
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await this.transport.close();
  }
}

function positiveInt(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${name} must be a positive integer, got ${v}`);
  return v;
}

const SCHEMA_KEYS = new Set(['name', 'ColumnSchema']);

export function schemaJson(table: string, schema: TableSchema): Record<string, unknown> {
  tablePath(table);
  if (schema.columnFamilies.length === 0) throw new TypeError('a table needs at least one column family');
  for (const f of schema.columnFamilies) {
    if (!/^[^:.][^:]*$/.test(f.name)) throw new TypeError(`invalid column family name: ${JSON.stringify(f.name)}`);
  }
  const attributes = schema.attributes ?? {};
  for (const k of Object.keys(attributes)) {
    if (SCHEMA_KEYS.has(k)) throw new TypeError(`table attribute ${k} is reserved by the schema format`);
  }
  // The server takes the name from the URL; `name` in the body is only informational.
  return { name: table, ColumnSchema: schema.columnFamilies.map((f) => ({ ...f })), ...attributes };
}

export function parseTableSchema(text: string): TableSchema {
  const json = JSON.parse(text) as Record<string, unknown>;
  const families = Array.isArray(json.ColumnSchema) ? (json.ColumnSchema as ColumnFamilySchema[]) : [];
  const attributes: Record<string, string> = {};
  for (const [k, v] of Object.entries(json)) {
    if (!SCHEMA_KEYS.has(k)) attributes[k] = String(v);
  }
  return { columnFamilies: families, attributes };
}
