// shared/adapters/hbase/counter-reading.ts — a stored counter (an 8-byte long moved by server-side
// increments) as the repair jobs read it (CounterReading), and the check-and-put condition that
// writes it only while it is unchanged. Used by hbase-maintenance-store.ts and
// hbase-post-count-store.ts.
//
// The version is the cell's write timestamp with its value bytes: every increment writes a new
// cell version, so two readings with the same version saw no write in between.
import { bytesToString, decodeLong, encodeLong, type HBaseRow } from '../../hbase/index.js';
import type { CounterReading } from '../../ports/maintenance-store.js';

const ABSENT = 'absent';

/** The counter at `family:qualifier`: 0 when absent, null when what is stored is not an 8-byte long. */
export function counterReading(row: HBaseRow, column: string): CounterReading {
  const [family, qualifier] = column.split(':');
  // The newest version first: a row may carry more than one when the scan asks for versions.
  const cell = row.cells
    .filter((c) => c.family === family && bytesToString(c.qualifier) === qualifier)
    .sort((a, b) => b.timestamp - a.timestamp)[0];
  if (!cell) return { value: 0, version: ABSENT };
  const version = `${cell.timestamp}.${Buffer.from(cell.value).toString('hex')}`;
  return { value: cell.value.length === 8 ? Number(decodeLong(cell.value)) : null, version };
}

/**
 * The check-and-put condition for writing over `expected`: absent stays absent, a count stays
 * that count. null when the stored value is not a count: it is never overwritten (left for a
 * human to look at).
 */
export function unchanged(
  column: string,
  expected: CounterReading,
): { column: string; value: Uint8Array | null } | null {
  if (expected.value === null) return null;
  return { column, value: expected.version === ABSENT ? null : encodeLong(expected.value) };
}
