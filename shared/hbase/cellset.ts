// shared/hbase/cellset.ts — CellSet JSON (the REST gateway's row model) to and from HBaseRow; pure, no I/O.
import { columnSeparatorIndex, bytesEqual, bytesToString, fromBase64, toBase64, toBytes } from './codec.js';
import type { CellInput, HBaseCell, HBaseRow } from './types.js';

interface CellJson {
  column?: string;
  timestamp?: number;
  $?: string;
}

interface RowJson {
  key?: string;
  Cell?: CellJson[];
}

export interface CellSetJson {
  Row?: RowJson[];
}

export function parseCellSet(text: string): HBaseRow[] {
  const json = JSON.parse(text) as CellSetJson;
  return (json.Row ?? []).map(parseRow);
}

function parseRow(row: RowJson): HBaseRow {
  if (typeof row.key !== 'string') throw new TypeError('CellSet row without key');
  return { key: fromBase64(row.key), cells: (row.Cell ?? []).map(parseCell) };
}

function parseCell(cell: CellJson): HBaseCell {
  if (typeof cell.column !== 'string') throw new TypeError('CellSet cell without column');
  const column = fromBase64(cell.column);
  const sep = columnSeparatorIndex(column);
  return {
    column,
    family: bytesToString(sep === -1 ? column : column.subarray(0, sep)),
    qualifier: sep === -1 ? new Uint8Array(0) : column.subarray(sep + 1),
    timestamp: cell.timestamp ?? 0,
    value: cell.$ === undefined ? new Uint8Array(0) : fromBase64(cell.$),
  };
}

/** Throws unless `column` is `family:qualifier` with a non-empty family (the server 400s otherwise). */
export function requireQualifiedColumn(column: Uint8Array): Uint8Array {
  const sep = columnSeparatorIndex(column);
  if (sep <= 0) throw new TypeError(`column must be 'family:qualifier', got ${JSON.stringify(bytesToString(column))}`);
  return column;
}

export function cellJson(cell: CellInput): CellJson {
  const out: CellJson = { column: toBase64(requireQualifiedColumn(toBytes(cell.column))), $: toBase64(cell.value) };
  if (cell.timestamp !== undefined) {
    if (!Number.isSafeInteger(cell.timestamp) || cell.timestamp < 0) {
      throw new RangeError(`invalid HBase timestamp: ${cell.timestamp}`);
    }
    out.timestamp = cell.timestamp;
  }
  return out;
}

export function rowJson(key: Uint8Array, cells: CellJson[]): RowJson {
  if (key.byteLength === 0) throw new TypeError('HBase row keys cannot be empty');
  return { key: toBase64(key), Cell: cells };
}

/**
 * Appends a scanner page to rows already assembled: when the page opens with the key that the
 * previous page ended on, the server split that row at its cells-per-page limit, so the cells
 * belong to the same row. Mutates and returns `into`.
 */
export function mergePage(into: HBaseRow[], page: HBaseRow[]): HBaseRow[] {
  for (const row of page) {
    const last = into[into.length - 1];
    if (last && bytesEqual(last.key, row.key)) last.cells.push(...row.cells);
    else into.push({ key: row.key, cells: [...row.cells] });
  }
  return into;
}
