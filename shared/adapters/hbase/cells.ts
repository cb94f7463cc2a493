// shared/adapters/hbase/cells.ts — reading cells out of a fetched row: the few helpers every
// HBase adapter needs (a column's value, as text, as a counter).
import { bytesToString, decodeLong, type HBaseRow } from '../../hbase/index.js';

/** Value of `family:qualifier` in a row, or undefined. */
export function cellValue(row: HBaseRow | null, column: string): Uint8Array | undefined {
  if (!row) return undefined;
  const [family, qualifier] = column.split(':');
  return row.cells.find((c) => c.family === family && bytesToString(c.qualifier) === qualifier)?.value;
}

/** Value of `family:qualifier` as UTF-8 text, or undefined. */
export const cellText = (row: HBaseRow | null, column: string) => {
  const v = cellValue(row, column);
  return v === undefined ? undefined : bytesToString(v);
};

/** Counters are 8-byte longs written by REST increments; absent means zero. */
export const counter = (row: HBaseRow | null, column: string): number => {
  const v = cellValue(row, column);
  return v === undefined || v.length !== 8 ? 0 : Number(decodeLong(v));
};
