// shared/hbase/filter-string.ts — server-side filters in HBase's Filter Language (ParseFilter: the
// text the shell and the REST gateway's `filter` / `filter_b64` parameters take), for the reads
// that want part of a row in the same single request: a multi-get sends the filter beside its
// rows (MultiRowResource, `filter_b64`), so a window of a wide row costs no scanner.
// Built as BYTES: string literals carry binary qualifiers as they are (sent base64url-encoded,
// the server parses the decoded bytes, never a UTF-8 string), with a quote doubled.
import { concatBytes, toBytes, type Bytes } from './codec.js';

/** A filter expression (opaque to callers; combine with `and` / `or`). */
export interface FilterString {
  readonly bytes: Uint8Array;
}

const QUOTE = 0x27;
const text = (s: string): FilterString => ({ bytes: toBytes(s) });

/** A string literal: the bytes between single quotes, each quote doubled (the language's one escape). */
export function literal(value: Bytes): Uint8Array {
  const raw = toBytes(value);
  const out: number[] = [QUOTE];
  for (const b of raw) {
    out.push(b);
    if (b === QUOTE) out.push(QUOTE);
  }
  out.push(QUOTE);
  return Uint8Array.from(out);
}

const call = (name: string, ...args: (Uint8Array | string)[]): FilterString => {
  const parts: Uint8Array[] = [toBytes(`${name}(`)];
  for (const [i, a] of args.entries()) parts.push(toBytes(i === 0 ? '' : ', '), toBytes(a));
  parts.push(toBytes(')'));
  return { bytes: concatBytes(...parts) };
};

/** Keeps cells whose qualifier is in [min, max] (each end inclusive or not); seeks past the rest. */
export const columnRange = (min: Bytes, minInclusive: boolean, max: Bytes, maxInclusive: boolean): FilterString =>
  call('ColumnRangeFilter', literal(min), String(minInclusive), literal(max), String(maxInclusive));

/** The first `limit` cells a row has left after the others of the same list passed, from `offset`. */
export function columnPagination(limit: number, offset = 0): FilterString {
  if (!Number.isSafeInteger(limit) || limit <= 0 || !Number.isSafeInteger(offset) || offset < 0) {
    throw new RangeError(`ColumnPaginationFilter needs limit > 0 and offset >= 0, got ${limit}, ${offset}`);
  }
  return call('ColumnPaginationFilter', String(limit), String(offset));
}

/** Cells of one column family. */
export const family = (name: string): FilterString => call('FamilyFilter', '=', literal(`binary:${name}`));

/**
 * Rows whose key has a match of `pattern` (a Java regular expression, found anywhere: anchor it
 * with ^). A scan with it still reads only its own key range; the server skips the rows that do
 * not match, so a limit counts matching rows.
 */
export const rowMatching = (pattern: string): FilterString => call('RowFilter', '=', literal(`regexstring:${pattern}`));

/**
 * Cells whose qualifier has a match of `pattern` (a Java regular expression over the qualifier's
 * bytes read as ISO-8859-1, found anywhere: anchor it with ^).
 */
export const qualifierMatching = (pattern: string): FilterString =>
  call('QualifierFilter', '=', literal(`regexstring:${pattern}`));

/**
 * Rows that have the column `family:qualifier` (any value); rows without it are left out whole,
 * whatever other columns they hold.
 */
export const hasColumn = (familyName: string, qualifier: string): FilterString =>
  call('SingleColumnValueFilter', literal(familyName), literal(qualifier), '>=', literal('binary:'), 'true', 'true');

/** Cells without their values (a count or a list of keys needs none). */
export const keyOnly = (): FilterString => text('KeyOnlyFilter()');

const join = (op: ' AND ' | ' OR ', filters: FilterString[]): FilterString => {
  if (filters.length === 0) throw new TypeError('a filter list needs at least one filter');
  const parts: Uint8Array[] = [];
  for (const [i, f] of filters.entries()) parts.push(toBytes(i === 0 ? '(' : op), f.bytes);
  parts.push(toBytes(')'));
  return { bytes: concatBytes(...parts) };
};

/**
 * Every filter must pass. The server evaluates them in order and stops at the first that does
 * not include a cell, so a filter that counts (columnPagination) counts only what the ones
 * before it let through.
 */
export const and = (...filters: FilterString[]): FilterString => join(' AND ', filters);

/**
 * Any filter may pass. Each family can so be read its own way in one request:
 * `or(family('c'), and(family('i'), columnRange(…), columnPagination(n)))` returns family c whole
 * and at most n cells of family i's range (test/integration/hbase-client.test.ts holds the
 * gateway to it).
 */
export const or = (...filters: FilterString[]): FilterString => join(' OR ', filters);
