// shared/hbase/url.ts — the one URL builder of the HBase REST client: table names, binary-safe row/column segments, queries.
import { toBase64Url } from './codec.js';

// HBase's own rule (TableName.isLegalTableQualifierName / isLegalNamespaceName), ASCII subset.
const NAMESPACE_RE = /^[A-Za-z0-9_]+$/;
const QUALIFIER_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

// RootResource serves these literal paths before it tries `{table}`, so a default-namespace
// table with one of these names is only reachable as `default:<name>`.
const ROOT_RESOURCES = new Set(['version', 'status', 'namespaces']);

// Sub-resources of `/{table}/…` that a row segment must never spell (A1). Jersey matches routes
// against the still-encoded path, so escaping the first character is enough to dodge them.
const RESERVED_SEGMENTS = new Set(['exists', 'regions', 'schema', 'scanner']);

export function validateNamespace(ns: string): void {
  if (!NAMESPACE_RE.test(ns)) throw new TypeError(`invalid HBase namespace name: ${JSON.stringify(ns)}`);
}

/** Throws unless `table` is `qualifier` or `namespace:qualifier` in HBase's allowed charset. */
export function validateTableName(table: string): void {
  const colon = table.indexOf(':');
  const ns = colon === -1 ? null : table.slice(0, colon);
  const qualifier = colon === -1 ? table : table.slice(colon + 1);
  const ok = (ns === null || NAMESPACE_RE.test(ns)) && QUALIFIER_RE.test(qualifier) && qualifier.length <= 255;
  if (!ok) throw new TypeError(`invalid HBase table name: ${JSON.stringify(table)}`);
}

/** `/table` (validated; `:` is legal in a path segment and the server splits the namespace off). */
export function tablePath(table: string): string {
  validateTableName(table);
  return ROOT_RESOURCES.has(table) ? `/default:${table}` : `/${table}`;
}

/**
 * A row key (or column) as an `?e=b64` path segment: padded base64url, so no byte of the key can
 * read as `/ , + * %` or a glob, and non-UTF-8 keys survive. A segment that would start with
 * `multiget` (or spell a sub-resource) gets its first character percent-escaped: the server
 * URL-decodes before it base64-decodes, but routes before it decodes.
 */
export function encodedSegment(bytes: Uint8Array): string {
  if (bytes.byteLength === 0) throw new TypeError('HBase row keys and columns cannot be empty');
  const s = toBase64Url(bytes);
  return needsEscape(s) ? escapeFirstChar(s) : s;
}

function needsEscape(segment: string): boolean {
  return RESERVED_SEGMENTS.has(segment.toLowerCase()) || segment.toLowerCase().startsWith('multiget');
}

function escapeFirstChar(segment: string): string {
  const code = segment.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
  return `%${code}${segment.slice(1)}`;
}

/**
 * `/table/<key>[/<col>,<col>][/<ts>]` with every key and column base64url-encoded; pair it with
 * `e=b64` in the query. A timestamp needs at least one column (an empty column segment would
 * mean "every column").
 */
export function rowPath(table: string, key: Uint8Array, columns: Uint8Array[] = [], timestamp?: number): string {
  let path = `${tablePath(table)}/${encodedSegment(key)}`;
  if (columns.length > 0) path += `/${columns.map(encodedSegment).join(',')}`;
  if (timestamp !== undefined) {
    if (columns.length === 0) throw new TypeError('a timestamp segment needs a column segment');
    path += `/${timestampSegment(timestamp)}`;
  }
  return path;
}

export function timestampSegment(ts: number): string {
  if (!Number.isSafeInteger(ts) || ts < 0) throw new RangeError(`invalid HBase timestamp: ${ts}`);
  return String(ts);
}

/**
 * One multiget `row` value: a full rowspec `key[/col,col]`. Multiget values are URL-decoded twice
 * on the server; base64url with `e=b64` contains nothing that the second decoding changes.
 */
export function multigetRowSpec(key: Uint8Array, columns: Uint8Array[] = []): string {
  const k = toBase64Url(requireNonEmpty(key));
  return columns.length > 0 ? `${k}/${columns.map((c) => toBase64Url(requireNonEmpty(c))).join(',')}` : k;
}

function requireNonEmpty(b: Uint8Array): Uint8Array {
  if (b.byteLength === 0) throw new TypeError('HBase row keys and columns cannot be empty');
  return b;
}

export type QueryParams = ReadonlyArray<readonly [string, string | number]>;

/** `?a=1&b=2`, values percent-encoded; `''` for no params. */
export function buildQuery(params: QueryParams): string {
  if (params.length === 0) return '';
  return `?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&')}`;
}

/** Chunks multiget row specs so each URL stays well below Jetty's 64 KiB header limit. */
export function chunkRowSpecs(specs: string[], maxPerChunk: number, maxQueryChars: number): string[][] {
  return chunkByBudget(specs, (spec) => encodeURIComponent(spec).length + 5 /* "&row=" */, maxQueryChars, maxPerChunk);
}

/**
 * Groups items in order so each group's summed cost stays within maxChars and holds at most
 * maxPerChunk items (a lone item may exceed maxChars: it still has to be sent).
 */
export function chunkByBudget<T>(
  items: T[],
  cost: (item: T) => number,
  maxChars: number,
  maxPerChunk = Infinity,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    const c = cost(item);
    if (current.length > 0 && (current.length >= maxPerChunk || chars + c > maxChars)) {
      chunks.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += c;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The scanner's own path under our base URL, from the server's Location header. The header is
 * built from the request URI as the server saw it (host, port, scheme may be internal behind a
 * proxy), so only the id after `/scanner/` is trusted.
 */
export function scannerPathFromLocation(table: string, location: string | undefined): string | null {
  if (!location) return null;
  let pathname: string;
  try {
    pathname = new URL(location, 'http://location.invalid').pathname;
  } catch {
    return null;
  }
  const marker = '/scanner/';
  const at = pathname.lastIndexOf(marker);
  if (at === -1) return null;
  const id = pathname.slice(at + marker.length).replace(/\/+$/, '');
  if (!/^[A-Za-z0-9]+$/.test(id)) return null;
  return `${tablePath(table)}/scanner/${id}`;
}
