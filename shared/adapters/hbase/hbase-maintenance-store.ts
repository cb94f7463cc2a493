// shared/adapters/hbase/hbase-maintenance-store.ts — MaintenanceStore on HBase (secondary
// adapter) for the scheduled jobs. Layouts: shared/schema/tables.ts.
//
// The one place whole tables are walked, always in bounded chunks: each read is ONE scan from a
// start row to the table's end with a row limit (the job's rows per step) and a small page
// size, and the caller resumes from the position it returns. Positions are the next scan's
// start row, base64url (./cursor.ts): opaque to the jobs, exact for HBase.
//
// Requests per call:
//   feeds             1 scan (scanner create, ⌈limit/10⌉ page GETs, delete), family i or o only;
//                     dropPastCap: 1 deleteColumns (DELETE /t/<row>/<col>,<col>…/<TS>, chunked
//                     by URL length) up to the newest timestamp among the dropped cells, so a
//                     cell written again after the read survives (HBASE-3300)
//   regenerationMarks 1 scan of column m:regen (the m store only; inbox entries are never read)
//   activityMarks     1 scan of columns m:seen, m:away, m:regen (the m store only)
//   relationsBatch    1 scan of relations (e:t), 1 scan of users (p:h, c:following,
//                     c:followers; skipped when the batch closes no user), 1 multi-get of the
//                     other side of every edge read (the client sends ≤100 keys per GET)
//   copyFollowerSides 1 batched PUT;  dropFollowerSideIf 1 check-and-delete
//   counters          1 multi-get;  recount 2 prefix scans (≤ max+1 rows each);  setCounterIf 1 check-and-put
//
// relationsBatch merges two walks that line up: the relations and users tables are both in
// userKey order, so a user's relation rows ('F' rows, then 'R' rows, each by the other user)
// are contiguous and sit where that user's users row sits. Its position holds both walks'.
import { invalidateAudience } from './audience-packs.js';
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
  ActivityMark,
  Counter,
  CounterReading,
  Cursor,
  Feed,
  FeedVisit,
  Follow,
  MaintenanceStore,
  RegenerationMark,
  RelationsBatch,
  UserRelations,
} from '../../ports/maintenance-store.js';
import {
  handleFromKey,
  keyAfter,
  relationKey,
  relationPrefix,
  userKey,
  type EdgeDirection,
} from '../../schema/row-keys.js';
import { HANDLE_PATTERN } from '../../domain/handle.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellValue } from './cells.js';
import { counterReading, unchanged } from './counter-reading.js';
import { TABLE_END, decodeCursor, encodeCursor } from './cursor.js';

const EMPTY = new Uint8Array(0);
/** Inbox/outbox rows hold up to thousands of cells: few rows per page GET keep pages small. */
const WIDE_PAGE_ROWS = 10;
const NARROW_PAGE_ROWS = 100;
const FAMILY: Record<Feed, string> = { inbox: 'i', outbox: 'o' };
const SINCE = 'e:t';
const REGEN = 'm:regen';
const SEEN = 'm:seen';
const AWAY = 'm:away';
const COUNTERS = ['p:h', 'c:following', 'c:followers'];

/** The handle when `key` (from `offset` on) starts with exactly a userKey. */
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

interface Edge {
  owner: string;
  direction: EdgeDirection;
  other: string;
}

/** userKey(owner) + 'F'|'R' + userKey(other), exactly; null for any other key. */
function parseEdgeKey(key: Uint8Array): Edge | null {
  const owner = userAt(key);
  if (!owner) return null;
  const dir = key[owner.end];
  const direction = dir === 0x46 ? 'F' : dir === 0x52 ? 'R' : null;
  if (!direction) return null;
  const other = userAt(key, owner.end + 1);
  if (!other || other.end !== key.length) return null;
  return { owner: owner.handle, direction, other: other.handle };
}

/** The follow an edge row stands for: an 'F' row is the follower's, an 'R' row the followee's. */
const followOf = (e: Edge, since: string): Follow =>
  e.direction === 'F'
    ? { follower: e.owner, followee: e.other, since }
    : { follower: e.other, followee: e.owner, since };

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

/** A relations batch position: where each of the two walks resumes (the users walk inclusive). */
interface BatchPosition {
  relations: Uint8Array;
  users: Uint8Array;
}

// One cursor for both: a 2-byte length, the relations start row, then the users start row.
function encodeBatchPosition(p: BatchPosition): Cursor {
  const len = Uint8Array.of(p.relations.length >> 8, p.relations.length & 0xff);
  return encodeCursor(concatBytes(len, p.relations, p.users));
}

function decodeBatchPosition(cursor: Cursor): BatchPosition {
  const bytes = decodeCursor(cursor);
  const len = bytes.length >= 2 ? (bytes[0]! << 8) | bytes[1]! : -1;
  if (len < 0 || bytes.length < 2 + len) throw new RangeError('not a position of the maintenance store');
  return { relations: bytes.slice(2, 2 + len), users: bytes.slice(2 + len) };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export class HBaseMaintenanceStore implements MaintenanceStore {
  private readonly tables: Record<'inbox' | 'outbox' | 'relations' | 'users', string>;

  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.tables = {
      inbox: qualifiedTableName(namespace, 'inbox'),
      outbox: qualifiedTableName(namespace, 'outbox'),
      relations: qualifiedTableName(namespace, 'relations'),
      users: qualifiedTableName(namespace, 'users'),
    };
  }

  private walk(
    table: string,
    opts: { start?: Cursor; limit: number; columns: string[]; pageSize: number },
  ): AsyncIterable<HBaseRow> {
    return this.client.scan(table, {
      startRow: opts.start === undefined ? EMPTY : decodeCursor(opts.start),
      stopRow: TABLE_END,
      limit: opts.limit,
      columns: opts.columns,
      pageSize: Math.min(opts.pageSize, opts.limit),
    });
  }

  // --- trim -------------------------------------------------------------------------------

  async *feeds(feed: Feed, opts: { start?: Cursor; limit: number; cap: number }): AsyncIterable<FeedVisit> {
    const family = FAMILY[feed];
    const table = this.tables[feed];
    for await (const row of this.walk(table, { ...opts, columns: [family], pageSize: WIDE_PAGE_ROWS })) {
      // Ascending qualifier = newest first (reversed time), so the cells past the cap are the oldest.
      const doomed = row.cells
        .filter((c) => c.family === family)
        .sort((a, b) => compareBytes(a.qualifier, b.qualifier))
        .slice(opts.cap);
      // Up to the newest timestamp among them: a cell written again after this read carries a
      // newer server timestamp and survives the delete (HBASE-3300); the oldest entry need not
      // carry the lowest timestamp, so the bound is the max.
      const upToTimestamp = doomed.reduce((max, c) => Math.max(max, c.timestamp), 0);
      yield {
        pastCap: doomed.length,
        dropPastCap: async () => {
          if (doomed.length === 0) return;
          await this.client.deleteColumns(
            table,
            row.key,
            doomed.map((c) => concatBytes(`${family}:`, c.qualifier)),
            { upToTimestamp },
          );
        },
        next: encodeCursor(keyAfter(row.key)),
      };
    }
  }

  // --- regeneration sweep -------------------------------------------------------------------

  async *regenerationMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<RegenerationMark> {
    // Only rows holding m:regen come back; the scan reads the small m store, never the entries.
    for await (const row of this.walk(this.tables.inbox, { ...opts, columns: [REGEN], pageSize: NARROW_PAGE_ROWS })) {
      yield {
        reader: userOfRow(row.key),
        requestedAt: parseMillis(cellValue(row, REGEN)),
        next: encodeCursor(keyAfter(row.key)),
      };
    }
  }

  // --- away sweep ---------------------------------------------------------------------------

  async *activityMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<ActivityMark> {
    for await (const row of this.walk(this.tables.inbox, {
      ...opts,
      columns: [SEEN, AWAY, REGEN],
      pageSize: NARROW_PAGE_ROWS,
    })) {
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

  async relationsBatch(opts: { start?: Cursor; limit: number }): Promise<RelationsBatch> {
    const from: BatchPosition =
      opts.start === undefined ? { relations: EMPTY, users: EMPTY } : decodeBatchPosition(opts.start);
    const limit = opts.limit;

    // 1. Up to `limit` relation rows.
    const edges: (Edge & { since: string; after: Uint8Array })[] = [];
    let read = 0;
    let skipped = 0;
    let after: Uint8Array | undefined;
    const rows = this.client.scan(this.tables.relations, {
      startRow: from.relations,
      stopRow: TABLE_END,
      limit,
      columns: [SINCE],
      pageSize: Math.min(NARROW_PAGE_ROWS, limit),
    });
    for await (const row of rows) {
      read++;
      after = keyAfter(row.key);
      const edge = parseEdgeKey(row.key);
      const since = cellValue(row, SINCE);
      if (!edge || since === undefined) skipped++;
      else edges.push({ ...edge, since: bytesToString(since), after });
    }
    const exhausted = read < limit;
    if (!exhausted && edges.length === 0) {
      // Only foreign rows: step over them; no user closes.
      return { users: [], read, skipped, next: encodeBatchPosition({ relations: after!, users: from.users }) };
    }
    const lastEdge = edges.at(-1);

    // 2. The users this batch closes: every users row from the users position up to (not
    // including) the user whose rows may go on in the next chunk — all of them when the chunk
    // reached the end. More than `limit` of them: the batch ends at the last one read, and keeps
    // only the relation rows up to it (the rest is read again by the next batch).
    const usersStop = exhausted ? TABLE_END : userKey(lastEdge!.owner);
    const accounts: { handle: string; counters: Record<Counter, CounterReading> }[] = [];
    let usersRead = 0;
    if (compareBytes(from.users, usersStop) < 0) {
      const userRows = this.client.scan(this.tables.users, {
        startRow: from.users,
        stopRow: usersStop,
        limit,
        columns: COUNTERS,
        pageSize: Math.min(NARROW_PAGE_ROWS, limit),
      });
      for await (const row of userRows) {
        usersRead++;
        const handle = userOfRow(row.key);
        if (handle)
          accounts.push({
            handle,
            counters: { following: counterReading(row, 'c:following'), followers: counterReading(row, 'c:followers') },
          });
      }
    }
    if (usersRead === limit && accounts.length === 0) {
      // Only hand-written junk keys could do this; without a user there is no position to resume from.
      throw new Error(
        `users table: ${usersRead} consecutive rows that are not user rows; relation repair cannot go on`,
      );
    }

    let kept = edges;
    let next: BatchPosition | undefined;
    let open: string | undefined;
    if (usersRead === limit) {
      const last = userKey(accounts.at(-1)!.handle);
      kept = edges.filter((e) => compareBytes(userKey(e.owner), last) <= 0);
      // userKey ends in 0x00, so prefixEnd always exists: the first row past every row of that user.
      next = { relations: prefixEnd(last) as Uint8Array, users: keyAfter(last) };
    } else if (!exhausted) {
      open = lastEdge!.owner;
      next = { relations: lastEdge!.after, users: userKey(open) };
    }

    // 3. The other side of every edge kept: ONE multi-get.
    const otherKeys = kept.map((e) => relationKey(e.other, e.direction === 'F' ? 'R' : 'F', e.owner));
    const found = new Map<string, string>();
    for (const row of await this.client.multiGet(this.tables.relations, otherKeys, { columns: [SINCE] })) {
      const since = cellValue(row, SINCE);
      if (since !== undefined) found.set(hex(row.key), bytesToString(since));
    }

    // 4. By user, in walk order.
    const byUser = new Map<string, UserRelations>();
    const part = (user: string): UserRelations => {
      let p = byUser.get(user);
      if (!p) {
        p = { user, follows: [], followers: [], complete: user !== open };
        byUser.set(user, p);
      }
      return p;
    };
    for (const a of accounts) part(a.handle).counters = a.counters;
    kept.forEach((e, i) => {
      const other = found.get(hex(otherKeys[i]!)) ?? null;
      if (e.direction === 'F') part(e.owner).follows.push({ ...followOf(e, e.since), copy: other });
      else part(e.owner).followers.push({ ...followOf(e, e.since), truth: other });
    });
    const users = [...byUser.values()].sort((a, b) => compareBytes(userKey(a.user), userKey(b.user)));
    return { users, read, skipped, ...(next ? { next: encodeBatchPosition(next) } : {}) };
  }

  async copyFollowerSides(follows: Follow[]): Promise<void> {
    await invalidateAudience(this.client, this.tables.relations, follows); // before the rows (invariant N)
    await this.client.put(
      this.tables.relations,
      follows.map((f) => ({
        key: relationKey(f.followee, 'R', f.follower),
        cells: [{ column: SINCE, value: f.since }],
      })),
    );
  }

  async dropFollowerSideIf(follow: Follow): Promise<boolean> {
    // The whole row (family e): an orphan followers row's away mark goes with it.
    await invalidateAudience(this.client, this.tables.relations, [follow]); // before the row (invariant N)
    return this.client.checkAndDelete(
      this.tables.relations,
      relationKey(follow.followee, 'R', follow.follower),
      { column: SINCE, value: follow.since },
      { deleteColumns: ['e'] },
    );
  }

  async counters(users: string[]): Promise<Map<string, Record<Counter, CounterReading>>> {
    const out = new Map<string, Record<Counter, CounterReading>>();
    if (users.length === 0) return out;
    for (const row of await this.client.multiGet(this.tables.users, users.map(userKey), { columns: COUNTERS })) {
      const handle = userOfRow(row.key);
      if (!handle || cellValue(row, 'p:h') === undefined) continue; // only real users are ever fixed
      out.set(handle, { following: counterReading(row, 'c:following'), followers: counterReading(row, 'c:followers') });
    }
    return out;
  }

  async recount(user: string, max: number): Promise<Record<Counter, number> | null> {
    const [following, followers] = await Promise.all([
      this.countEdges(user, 'F', max),
      this.countEdges(user, 'R', max),
    ]);
    return following === null || followers === null ? null : { following, followers };
  }

  private async countEdges(user: string, direction: EdgeDirection, max: number): Promise<number | null> {
    let n = 0;
    const rows = this.client.scan(this.tables.relations, {
      prefix: relationPrefix(user, direction),
      limit: max + 1,
      columns: [SINCE],
      pageSize: 1000,
    });
    for await (const row of rows) if (parseEdgeKey(row.key)) n++;
    return n > max ? null : n;
  }

  async setCounterIf(user: string, counter: Counter, expected: CounterReading, value: number): Promise<boolean> {
    const column = `c:${counter}`;
    const check = unchanged(column, expected);
    if (!check) return false;
    return this.client.checkAndPut(this.tables.users, userKey(user), [{ column, value: encodeLong(value) }], check);
  }
}
