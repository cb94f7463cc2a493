// shared/adapters/hbase/hbase-live-store.ts — LiveStore on HBase: connections, each reader's event
// log and the authors' watchers, in the `live` table. Layout, requests and why each append is a
// check-and-put on the log's head: shared/schema/tables.ts (live), docs/consistency.md (S, T).
import { randomBytes } from 'node:crypto';
import { EVENT_LOG_TTL_SECONDS, type LiveEvent, type LoggedEvent } from '../../domain/live.js';
import { bytesToString, filters, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type { Appended, ConnectionRecord, LiveStore, LogRead } from '../../ports/live-store.js';
import { connectionKey, handleFromKey, userKey, watchersKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { mapLimit } from '../../runtime/concurrency.js';
import { cellText as text } from './cells.js';

const HEAD = 's:n';
const PRESENT = 's:p';
const WATCHED = 's:w';
const SEAL_KEY = 's:k';
const HOLDER = 'c:h';
const EXPIRES = 'c:x';
const POSITION_DIGITS = 12;
/** Appends that lose the race for one reader's head this many times in a row give up (the message is retried). */
const APPEND_ATTEMPTS = 8;
/** Check-and-puts in flight at once for one event's readers (a page of a fan-out may hold hundreds). */
const APPENDS_AT_ONCE = 32;
/** Authors whose watchers one container keeps (a bound on the memory; all forgotten when full). */
const WATCHERS_KEPT = 1000;

const positionQualifier = (position: number) => String(position).padStart(POSITION_DIGITS, '0');
const eventColumn = (position: number) => `e:${positionQualifier(position)}`;
const keyColumn = (key: string) => `d:${key}`;
const connectionColumn = (id: string) => `c:${id}`;

export class HBaseLiveStore implements LiveStore {
  private readonly table: string;
  /** An author's watchers as last read, and when: the segments and continuations of one post's fan-out share one read. */
  private readonly watching = new Map<string, { at: number; readers: Promise<string[]> }>();
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
    private readonly opts: {
      /** How long a read of an author's watchers is used again (0: never). */
      watchersMaxAgeMs?: number;
      /** Tests only: a pause between an append's read of a head and its write (docs/consistency.md S). */
      beforeWrite?: (reader: string, position: number) => Promise<void>;
    } = {},
  ) {
    this.table = qualifiedTableName(namespace, 'live');
  }

  async open(c: ConnectionRecord, at: number): Promise<void> {
    // The seal key is made once (put-if-absent: a racing connect's loses, and positions handed
    // out stay valid); a reader with presence but no key (a cut between the two) is not logged for.
    await Promise.all([
      this.client.put(this.table, [
        {
          key: userKey(c.handle),
          cells: [
            { column: connectionColumn(c.id), value: String(c.expiresAt) },
            { column: PRESENT, value: String(at) },
          ],
        },
        this.connectionRow(c),
      ]),
      this.client.checkAndPut(
        this.table,
        userKey(c.handle),
        [{ column: SEAL_KEY, value: randomBytes(16).toString('base64url') }],
        { column: SEAL_KEY, value: null },
      ),
    ]);
  }

  async connection(id: string): Promise<ConnectionRecord | null> {
    const row = await this.client.getRow(this.table, connectionKey(id), { columns: ['c'] });
    const handle = text(row, HOLDER);
    const expires = Number(text(row, EXPIRES));
    return handle === undefined || !Number.isFinite(expires) ? null : { id, handle, expiresAt: expires };
  }

  async renew(c: ConnectionRecord): Promise<void> {
    await this.client.put(this.table, [
      { key: userKey(c.handle), cells: [{ column: connectionColumn(c.id), value: String(c.expiresAt) }] },
      this.connectionRow(c),
    ]);
  }

  async close(c: { id: string; handle: string }): Promise<void> {
    await Promise.all([
      this.client.deleteColumn(this.table, userKey(c.handle), connectionColumn(c.id)),
      this.client.deleteRow(this.table, connectionKey(c.id)),
    ]);
  }

  async watchedAt(reader: string): Promise<number> {
    const row = await this.client.getRow(this.table, userKey(reader), { columns: [WATCHED, PRESENT] });
    const at = Number(text(row, WATCHED) ?? 0);
    return Number.isFinite(at) ? at : 0;
  }

  async watch(reader: string, authors: readonly string[], at?: number): Promise<void> {
    const rows = authors.map((author) => ({ key: watchersKey(author), cells: [{ column: `w:${reader}`, value: '' }] }));
    if (at !== undefined) rows.push({ key: userKey(reader), cells: [{ column: WATCHED, value: String(at) }] });
    if (rows.length > 0) await this.client.put(this.table, rows);
  }

  async watchers(author: string): Promise<string[]> {
    const maxAge = this.opts.watchersMaxAgeMs ?? 0;
    const now = Date.now();
    const known = this.watching.get(author);
    if (known && now - known.at < maxAge) return known.readers;
    const readers = this.client
      .getRow(this.table, watchersKey(author), { columns: ['w'] })
      .then((row) => (row?.cells ?? []).map((c) => bytesToString(c.qualifier)));
    if (maxAge > 0) {
      if (this.watching.size >= WATCHERS_KEPT) this.watching.clear();
      this.watching.set(author, { at: now, readers });
      readers.catch(() => this.watching.delete(author));
    }
    return readers;
  }

  async append(readers: readonly string[], key: string, event: LiveEvent, at: number): Promise<Appended[]> {
    if (readers.length === 0) return [];
    const unique = [...new Set(readers)];
    const rows = await this.client.multiGet(
      this.table,
      unique.map((r) => userKey(r)),
      { columns: [HEAD, PRESENT, SEAL_KEY, keyColumn(key), 'c'] },
    );
    const byReader = new Map(rows.map((row) => [handleFromKey(row.key).handle, row]));
    const presentSince = at - EVENT_LOG_TTL_SECONDS * 1000;
    const appended = await mapLimit(unique, APPENDS_AT_ONCE, async (reader) => {
      const row = byReader.get(reader) ?? null;
      if (presenceOf(row) <= presentSince || text(row, SEAL_KEY) === undefined) return null;
      return this.appendOne(reader, row, key, event, at);
    });
    return appended.filter((a): a is Appended => a !== null);
  }

  /** Check-and-put at the head read; a lost race reads the row again. Already logged: where. */
  private async appendOne(
    reader: string,
    first: HBaseRow | null,
    key: string,
    event: LiveEvent,
    at: number,
  ): Promise<Appended> {
    let row = first;
    for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
      const logged = Number(text(row, keyColumn(key)));
      if (Number.isSafeInteger(logged) && logged > 0) return this.appended(reader, row, logged, false);
      const head = text(row, HEAD);
      const position = Number(head ?? 0) + 1;
      await this.opts.beforeWrite?.(reader, position);
      const entry: LoggedEvent = { position, at, event };
      const won = await this.client.checkAndPut(
        this.table,
        userKey(reader),
        [
          { column: eventColumn(position), value: JSON.stringify(entry) },
          { column: keyColumn(key), value: String(position) },
          { column: HEAD, value: String(position) },
        ],
        { column: HEAD, value: head ?? null },
      );
      if (won) return this.appended(reader, row, position, true);
      row = await this.client.getRow(this.table, userKey(reader), {
        columns: [HEAD, PRESENT, SEAL_KEY, keyColumn(key), 'c'],
      });
    }
    throw new Error(`event log of ${reader}: lost the race for its head ${APPEND_ATTEMPTS} times`);
  }

  private appended(reader: string, row: HBaseRow | null, position: number, fresh: boolean): Appended {
    const sealKey = text(row, SEAL_KEY) ?? '';
    return { reader, position, presentAt: presenceOf(row), sealKey, connections: connectionsOf(reader, row), fresh };
  }

  async read(reader: string, after: number, limit: number): Promise<LogRead> {
    const row = await this.client.getRow(this.table, userKey(reader), {
      columns: ['s', 'e'],
      filter: filters.or(
        filters.family('s'),
        filters.and(
          filters.family('e'),
          filters.columnRange(positionQualifier(after + 1), true, '9'.repeat(POSITION_DIGITS), true),
          filters.columnPagination(limit),
        ),
      ),
    });
    const head = Number(text(row, HEAD) ?? 0);
    const events: LoggedEvent[] = [];
    for (const cell of row?.cells ?? []) {
      if (cell.family !== 'e') continue;
      try {
        events.push(JSON.parse(bytesToString(cell.value)) as LoggedEvent);
      } catch {
        /* not ours: skipped */
      }
    }
    events.sort((a, b) => a.position - b.position);
    // Positions are dense (every append moves the head by one): a first event past after + 1, or
    // none while the head is past after, means the ones between have expired.
    const expected = after + 1;
    const gap = head > after && (events.length === 0 || events[0]!.position !== expected);
    const sealKey = text(row, SEAL_KEY);
    return { events, head, gap, presentAt: presenceOf(row), ...(sealKey === undefined ? {} : { sealKey }) };
  }

  private connectionRow(c: ConnectionRecord) {
    return {
      key: connectionKey(c.id),
      cells: [
        { column: HOLDER, value: c.handle },
        { column: EXPIRES, value: String(c.expiresAt) },
      ],
    };
  }
}

function presenceOf(row: HBaseRow | null): number {
  const at = Number(text(row, PRESENT) ?? 0);
  return Number.isFinite(at) ? at : 0;
}

function connectionsOf(reader: string, row: HBaseRow | null): ConnectionRecord[] {
  const out: ConnectionRecord[] = [];
  for (const cell of row?.cells ?? []) {
    if (cell.family !== 'c') continue;
    const expiresAt = Number(bytesToString(cell.value));
    if (Number.isFinite(expiresAt)) out.push({ id: bytesToString(cell.qualifier), handle: reader, expiresAt });
  }
  return out;
}
