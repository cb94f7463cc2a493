// shared/adapters/hbase/hbase-maintenance-store.ts — MaintenanceStore on HBase (secondary
// adapter) for the scheduled jobs. Layouts: shared/schema/tables.ts.
//
// The one place whole tables are walked, always in bounded chunks: each read is ONE scan from a
// start row to the table's end with a row limit (the job's rows per step) and a small page
// size, and the caller resumes from the position it returns. Positions are the next scan's
// start row, base64url: opaque to the jobs, exact for HBase.
//
// Requests per call:
//   wideRows          1 scan (scanner create, ⌈limit/10⌉ page GETs, delete), family i or o only
//   deleteCells       1 deleteColumns (DELETE /t/<row>/<col>,<col>…/<TS>, chunked by URL length)
//   regenerationMarks 1 scan of column m:regen (the m store only; inbox entries are never read)
//   activityMarks     1 scan of columns m:seen, m:away, m:regen (the m store only)
//   relationChunk     1 scan of column e:t
//   counterpartSince  1 multi-get (the client sends ≤100 keys per GET)
//   putEdges          1 batched PUT;  deleteEdgeIf 1 check-and-delete
//   userCounters      1 scan of p:h, c:following, c:followers
//   counterSnapshot   1 multi-get;  countEdges 1 prefix scan (≤ max+1 rows);  setCounterIf 1 check-and-put
import {
  bytesEqual,
  bytesToString,
  compareBytes,
  concatBytes,
  decodeLong,
  encodeLong,
  prefixEnd,
  type HBaseRestClient,
  type HBaseRow,
} from '../../hbase/index.js';
import type {
  Counter,
  CounterCell,
  Cursor,
  Direction,
  EdgeRow,
  MaintenanceStore,
  RegenerationMark,
  ActivityMark,
  RelationChunk,
  UserCounters,
  UsersFrom,
  WideRow,
  WideTable,
} from '../../ports/maintenance-store.js';
import { handleFromKey, keyAfter, relationKey, relationPrefix, userKey } from '../../schema/row-keys.js';
import { HANDLE_PATTERN } from '../../domain/handle.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellValue } from './cells.js';

const EMPTY = new Uint8Array(0);
/**
 * The exclusive stop row of a whole-table walk. Every row key of inbox, outbox, relations and
 * users starts with a userKey: 2 salt bytes, then a handle byte from [a-z0-9_] (≤ 0x7a), so
 * every key sorts below ff ff ff. (The scan API insists on a stop row; this one is exact.)
 */
export const TABLE_END = Uint8Array.of(0xff, 0xff, 0xff);
/** Inbox/outbox rows hold up to thousands of cells: few rows per page GET keep pages small. */
const WIDE_PAGE_ROWS = 10;
const NARROW_PAGE_ROWS = 100;
const FAMILY: Record<WideTable, string> = { inbox: 'i', outbox: 'o' };
const SINCE = 'e:t';
const REGEN = 'm:regen';
const SEEN = 'm:seen';
const AWAY = 'm:away';

export const encodeCursor = (key: Uint8Array): Cursor => Buffer.from(key).toString('base64url');

/** A position this store issued; anything else is refused before it reaches a scan. */
export function decodeCursor(cursor: Cursor): Uint8Array {
  const key = new Uint8Array(Buffer.from(cursor, 'base64url'));
  if (cursor.length === 0 || !/^[A-Za-z0-9_-]+$/.test(cursor) || encodeCursor(key) !== cursor) {
    throw new RangeError('not a position of the maintenance store');
  }
  return key;
}

/** The handle when `key` (from `offset` on) is exactly a userKey followed by nothing or by `tail` bytes. */
function userAt(key: Uint8Array, offset = 0): { handle: string; end: number } | null {
  try {
    const { handle, end } = handleFromKey(key, offset);
    if (!HANDLE_PATTERN.test(handle) || !bytesEqual(userKey(handle), key.subarray(offset, end))) return null;
    return { handle, end };
  } catch {
    return null;
  }
}

function userOfRow(key: Uint8Array): string | null {
  const u = userAt(key);
  return u && u.end === key.length ? u.handle : null;
}

/** userKey(owner) + 'F'|'R' + userKey(other), exactly; null for any other key. */
function parseEdgeKey(key: Uint8Array): Omit<EdgeRow, 'since'> | null {
  const owner = userAt(key);
  if (!owner) return null;
  const dir = key[owner.end];
  const direction = dir === 0x46 ? 'F' : dir === 0x52 ? 'R' : null;
  if (!direction) return null;
  const other = userAt(key, owner.end + 1);
  if (!other || other.end !== key.length) return null;
  return { owner: owner.handle, direction, other: other.handle };
}

/** m:regen: millis as decimal text (as every time cell of the schema), or an 8-byte long. */
function parseMillis(value: Uint8Array | undefined): number | null {
  if (value === undefined) return null;
  const text = bytesToString(value);
  if (/^\d{1,16}$/.test(text)) return Number(text);
  if (value.length === 8) {
    const n = Number(decodeLong(value));
    return Number.isSafeInteger(n) && n >= 0 ? n : null;
  }
  return null;
}

/** Stored counter: 0 when absent, -1 when not an 8-byte long (so it never matches, and is rewritten). */
export function storedCounter(row: HBaseRow, column: string): number {
  const v = cellValue(row, column);
  if (v === undefined) return 0;
  return v.length === 8 ? Number(decodeLong(v)) : -1;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export class HBaseMaintenanceStore implements MaintenanceStore {
  private readonly tables: Record<'inbox' | 'outbox' | 'relations' | 'users', string>;

  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.tables = {
      inbox: qualifiedTableName(namespace, 'inbox'),
      outbox: qualifiedTableName(namespace, 'outbox'),
      relations: qualifiedTableName(namespace, 'relations'),
      users: qualifiedTableName(namespace, 'users'),
    };
  }

  private walk(table: string, opts: { start?: Cursor; limit: number; columns: string[]; pageSize: number }): AsyncIterable<HBaseRow> {
    return this.client.scan(table, {
      startRow: opts.start === undefined ? EMPTY : decodeCursor(opts.start),
      stopRow: TABLE_END,
      limit: opts.limit,
      columns: opts.columns,
      pageSize: Math.min(opts.pageSize, opts.limit),
    });
  }

  // --- trim -------------------------------------------------------------------------------

  async *wideRows(table: WideTable, opts: { start?: Cursor; limit: number }): AsyncIterable<WideRow> {
    const family = FAMILY[table];
    for await (const row of this.walk(this.tables[table], { ...opts, columns: [family], pageSize: WIDE_PAGE_ROWS })) {
      const cells = row.cells
        .filter((c) => c.family === family)
        .sort((a, b) => compareBytes(a.qualifier, b.qualifier))
        .map((c) => ({ qualifier: c.qualifier, timestamp: c.timestamp }));
      yield { row: encodeCursor(row.key), cells, next: encodeCursor(keyAfter(row.key)) };
    }
  }

  async deleteCells(table: WideTable, row: string, qualifiers: Uint8Array[], upToTimestamp: number): Promise<void> {
    const prefix = `${FAMILY[table]}:`;
    await this.client.deleteColumns(this.tables[table], decodeCursor(row), qualifiers.map((q) => concatBytes(prefix, q)), { upToTimestamp });
  }

  // --- regeneration sweep -------------------------------------------------------------------

  async *regenerationMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<RegenerationMark> {
    // Only rows holding m:regen come back; the scan reads the small m store, never the entries.
    for await (const row of this.walk(this.tables.inbox, { ...opts, columns: [REGEN], pageSize: NARROW_PAGE_ROWS })) {
      yield { reader: userOfRow(row.key), requestedAt: parseMillis(cellValue(row, REGEN)), next: encodeCursor(keyAfter(row.key)) };
    }
  }

  // --- away sweep ---------------------------------------------------------------------------

  async *activityMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<ActivityMark> {
    for await (const row of this.walk(this.tables.inbox, { ...opts, columns: [SEEN, AWAY, REGEN], pageSize: NARROW_PAGE_ROWS })) {
      yield {
        reader: userOfRow(row.key),
        seenAt: parseMillis(cellValue(row, SEEN)),
        awayAt: parseMillis(cellValue(row, AWAY)),
        regenerating: cellValue(row, REGEN) !== undefined,
        next: encodeCursor(keyAfter(row.key)),
      };
    }
  }

  // --- relation repair ----------------------------------------------------------------------

  compareUsers(a: string, b: string): number {
    return compareBytes(userKey(a), userKey(b));
  }

  async relationChunk(opts: { start?: Cursor; limit: number }): Promise<RelationChunk> {
    const chunk: RelationChunk = { edges: [], skipped: 0, exhausted: true };
    let read = 0;
    for await (const row of this.walk(this.tables.relations, { ...opts, columns: [SINCE], pageSize: NARROW_PAGE_ROWS })) {
      read++;
      chunk.next = encodeCursor(keyAfter(row.key));
      const edge = parseEdgeKey(row.key);
      const since = cellValue(row, SINCE);
      if (!edge || since === undefined) chunk.skipped++;
      else chunk.edges.push({ ...edge, since: bytesToString(since), next: chunk.next });
    }
    chunk.exhausted = read < opts.limit;
    return chunk;
  }

  relationCursorAfterUser(user: string): Cursor {
    // userKey ends in 0x00, so prefixEnd always exists.
    return encodeCursor(prefixEnd(userKey(user)) as Uint8Array);
  }

  async counterpartSince(edges: EdgeRow[]): Promise<(string | null)[]> {
    const keys = edges.map((e) => relationKey(e.other, e.direction === 'F' ? 'R' : 'F', e.owner));
    const rows = await this.client.multiGet(this.tables.relations, keys, { columns: [SINCE] });
    const found = new Map<string, string>();
    for (const row of rows) {
      const since = cellValue(row, SINCE);
      if (since !== undefined) found.set(hex(row.key), bytesToString(since));
    }
    return keys.map((k) => found.get(hex(k)) ?? null);
  }

  async putEdges(edges: EdgeRow[]): Promise<void> {
    await this.client.put(
      this.tables.relations,
      edges.map((e) => ({ key: relationKey(e.owner, e.direction, e.other), cells: [{ column: SINCE, value: e.since }] })),
    );
  }

  async deleteEdgeIf(edge: EdgeRow): Promise<boolean> {
    // The whole row (family e): an orphan followers row's away mark goes with it.
    return this.client.checkAndDelete(
      this.tables.relations,
      relationKey(edge.owner, edge.direction, edge.other),
      { column: SINCE, value: edge.since },
      { deleteColumns: ['e'] },
    );
  }

  async userCounters(opts: { from?: UsersFrom; before?: string; limit: number }): Promise<{ users: UserCounters[]; exhausted: boolean }> {
    const start = opts.from === undefined ? EMPTY : opts.from.inclusive ? userKey(opts.from.user) : keyAfter(userKey(opts.from.user));
    const rows = this.client.scan(this.tables.users, {
      startRow: start,
      stopRow: opts.before === undefined ? TABLE_END : userKey(opts.before),
      limit: opts.limit,
      columns: ['p:h', 'c:following', 'c:followers'],
      pageSize: Math.min(NARROW_PAGE_ROWS, opts.limit),
    });
    const users: UserCounters[] = [];
    let read = 0;
    for await (const row of rows) {
      read++;
      const handle = userOfRow(row.key);
      if (handle) users.push({ handle, following: storedCounter(row, 'c:following'), followers: storedCounter(row, 'c:followers') });
    }
    if (read === opts.limit && users.length === 0) {
      // Only hand-written junk keys could do this; without a user there is no position to resume from.
      throw new Error(`users table: ${read} consecutive rows that are not user rows; relation repair cannot go on`);
    }
    return { users, exhausted: read < opts.limit };
  }

  async counterSnapshot(users: string[]): Promise<Map<string, Record<Counter, CounterCell>>> {
    const out = new Map<string, Record<Counter, CounterCell>>();
    if (users.length === 0) return out;
    const rows = await this.client.multiGet(this.tables.users, users.map(userKey), { columns: ['p:h', 'c:following', 'c:followers'] });
    for (const row of rows) {
      const handle = userOfRow(row.key);
      if (!handle || cellValue(row, 'p:h') === undefined) continue; // only real users are ever fixed
      const cell = (column: string): CounterCell => ({
        value: storedCounter(row, column),
        stamp: row.cells.find((c) => `${c.family}:${bytesToString(c.qualifier)}` === column)?.timestamp ?? 0,
      });
      out.set(handle, { following: cell('c:following'), followers: cell('c:followers') });
    }
    return out;
  }

  async countEdges(user: string, direction: Direction, max: number): Promise<number | null> {
    let n = 0;
    const rows = this.client.scan(this.tables.relations, { prefix: relationPrefix(user, direction), limit: max + 1, columns: [SINCE], pageSize: 1000 });
    for await (const row of rows) if (parseEdgeKey(row.key)) n++;
    return n > max ? null : n;
  }

  async setCounterIf(user: string, counter: Counter, expected: CounterCell, value: number): Promise<boolean> {
    const column = `c:${counter}`;
    // An absent cell (stamp 0) is checked as absent; a junk one (-1) can never match, so stays for a human.
    return this.client.checkAndPut(this.tables.users, userKey(user), [{ column, value: encodeLong(value) }], {
      column,
      value: expected.stamp === 0 ? null : encodeLong(expected.value),
    });
  }
}
