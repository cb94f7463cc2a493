// test/unit/jobs-fakes.ts — an in-memory MaintenanceStore with the same ORDER semantics as the
// HBase tables: keys are strings `user + "\0"` (the terminator keeps `1` out of `10`'s range, as
// userKey's 0x00 does), relation keys `owner\0 + F|R + other\0`, walks go in key order from a
// start key and say where to resume. Every call is recorded, so tests can count them.
import type {
  ActivityMark,
  Counter,
  CounterCell,
  Cursor,
  EdgeRow,
  MaintenanceStore,
  RegenerationMark,
  RelationChunk,
  UserCounters,
  UsersFrom,
  WideCell,
  WideRow,
  WideTable,
} from '../../shared/ports/maintenance-store.js';

const enc = (key: string): Cursor => Buffer.from(key, 'utf8').toString('base64url');
const dec = (cursor: Cursor): string => Buffer.from(cursor, 'base64url').toString('utf8');
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const uk = (u: string) => `${u}\0`;
export const edgeKey = (owner: string, direction: 'F' | 'R', other: string) => `${uk(owner)}${direction}${uk(other)}`;
const EDGE = /^([a-z0-9_]{1,30})\0([FR])([a-z0-9_]{1,30})\0$/;
const USER = /^([a-z0-9_]{1,30})\0$/;

/** Keys of `map` in order, from `start` (inclusive) up to `stop` (exclusive). */
function range<T>(map: Map<string, T>, start: string | undefined, stop?: string): string[] {
  return [...map.keys()].sort(cmp).filter((k) => (start === undefined || k >= start) && (stop === undefined || k < stop));
}

export class FakeMaintenanceStore implements MaintenanceStore {
  /** relation row key → e:t (any key: junk keys are allowed, to test skipping). */
  readonly relations = new Map<string, string>();
  /** users row key → stored counters (undefined = cell absent). */
  readonly users = new Map<string, { following?: number; followers?: number }>();
  readonly wide: Record<WideTable, Map<string, WideCell[]>> = { inbox: new Map(), outbox: new Map() };
  /** inbox row key → m:regen value (null = unreadable). */
  readonly regen = new Map<string, number | null>();
  /** inbox key → m:seen / m:away (m:regen is `regen` above). */
  readonly activity = new Map<string, { seenAt: number | null; awayAt: number | null }>();
  readonly calls: string[] = [];
  /** counter cell timestamps ("user/counter" → a logical clock), as HBase keeps per cell. */
  readonly stamps = new Map<string, number>();
  private clock = 0;

  // --- setup helpers
  addUser(handle: string, counters: { following?: number; followers?: number } = {}) {
    this.users.set(uk(handle), { ...counters });
  }
  addEdge(owner: string, direction: 'F' | 'R', other: string, since: string) {
    this.relations.set(edgeKey(owner, direction, other), since);
  }
  follow(a: string, b: string, since: string) {
    this.addEdge(a, 'F', b, since);
    this.addEdge(b, 'R', a, since);
  }
  counters(handle: string) {
    const c = this.users.get(uk(handle));
    return { following: c?.following ?? 0, followers: c?.followers ?? 0 };
  }
  edges(): EdgeRow[] {
    return [...this.relations.entries()].flatMap(([k, since]) => {
      const m = EDGE.exec(k);
      return m ? [{ owner: m[1]!, direction: m[2] as 'F' | 'R', other: m[3]!, since }] : [];
    });
  }

  // --- trim
  async *wideRows(table: WideTable, opts: { start?: Cursor; limit: number }): AsyncIterable<WideRow> {
    this.calls.push(`wideRows:${table}`);
    const map = this.wide[table];
    // Like a scan of one family: rows without a cell in it do not exist for the walk.
    const keys = range(map, opts.start === undefined ? undefined : dec(opts.start)).filter((k) => (map.get(k) ?? []).length > 0);
    for (const key of keys.slice(0, opts.limit)) {
      const cells = [...map.get(key)!].sort((a, b) => Buffer.compare(a.qualifier, b.qualifier));
      yield { row: enc(key), cells, next: enc(`${key}\0`) };
    }
  }
  async deleteCells(table: WideTable, row: string, qualifiers: Uint8Array[], upToTimestamp: number): Promise<void> {
    this.calls.push(`deleteCells:${table}`);
    const key = dec(row);
    const doomed = new Set(qualifiers.map((q) => Buffer.from(q).toString('hex')));
    const cells = this.wide[table].get(key) ?? [];
    this.wide[table].set(key, cells.filter((c) => !(doomed.has(Buffer.from(c.qualifier).toString('hex')) && c.timestamp <= upToTimestamp)));
  }

  // --- regeneration sweep
  async *regenerationMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<RegenerationMark> {
    this.calls.push('regenerationMarks');
    for (const key of range(this.regen, opts.start === undefined ? undefined : dec(opts.start)).slice(0, opts.limit)) {
      yield { reader: USER.exec(key)?.[1] ?? null, requestedAt: this.regen.get(key) ?? null, next: enc(`${key}\0`) };
    }
  }

  // --- away sweep
  async *activityMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<ActivityMark> {
    this.calls.push('activityMarks');
    for (const key of range(this.activity, opts.start === undefined ? undefined : dec(opts.start)).slice(0, opts.limit)) {
      const a = this.activity.get(key)!;
      yield { reader: USER.exec(key)?.[1] ?? null, seenAt: a.seenAt, awayAt: a.awayAt, regenerating: this.regen.has(key), next: enc(`${key}\0`) };
    }
  }

  // --- relation repair
  compareUsers(a: string, b: string): number {
    return cmp(uk(a), uk(b));
  }
  async relationChunk(opts: { start?: Cursor; limit: number }): Promise<RelationChunk> {
    this.calls.push('relationChunk');
    const keys = range(this.relations, opts.start === undefined ? undefined : dec(opts.start)).slice(0, opts.limit);
    const chunk: RelationChunk = { edges: [], skipped: 0, exhausted: keys.length < opts.limit };
    for (const key of keys) {
      chunk.next = enc(`${key}\0`);
      const m = EDGE.exec(key);
      if (!m) chunk.skipped++;
      else chunk.edges.push({ owner: m[1]!, direction: m[2] as 'F' | 'R', other: m[3]!, since: this.relations.get(key)!, next: chunk.next });
    }
    return chunk;
  }
  relationCursorAfterUser(user: string): Cursor {
    return enc(`${user}\u0001`);
  }
  async counterpartSince(edges: EdgeRow[]): Promise<(string | null)[]> {
    this.calls.push('counterpartSince');
    return edges.map((e) => this.relations.get(edgeKey(e.other, e.direction === 'F' ? 'R' : 'F', e.owner)) ?? null);
  }
  async putEdges(edges: EdgeRow[]): Promise<void> {
    this.calls.push('putEdges');
    for (const e of edges) this.addEdge(e.owner, e.direction, e.other, e.since);
  }
  async deleteEdgeIf(edge: EdgeRow): Promise<boolean> {
    this.calls.push('deleteEdgeIf');
    const key = edgeKey(edge.owner, edge.direction, edge.other);
    if (this.relations.get(key) !== edge.since) return false;
    this.relations.delete(key);
    return true;
  }
  async userCounters(opts: { from?: UsersFrom; before?: string; limit: number }): Promise<{ users: UserCounters[]; exhausted: boolean }> {
    this.calls.push('userCounters');
    const start = opts.from === undefined ? undefined : opts.from.inclusive ? uk(opts.from.user) : `${uk(opts.from.user)}\0`;
    const keys = range(this.users, start, opts.before === undefined ? undefined : uk(opts.before)).slice(0, opts.limit);
    const users = keys.flatMap((k) => {
      const m = USER.exec(k);
      const c = this.users.get(k)!;
      return m ? [{ handle: m[1]!, following: c.following ?? 0, followers: c.followers ?? 0 }] : [];
    });
    return { users, exhausted: keys.length < opts.limit };
  }
  async counterSnapshot(users: string[]): Promise<Map<string, Record<Counter, CounterCell>>> {
    this.calls.push('counterSnapshot');
    const out = new Map<string, Record<Counter, CounterCell>>();
    for (const u of users) {
      const c = this.users.get(uk(u));
      if (!c) continue;
      out.set(u, {
        following: { value: c.following ?? 0, stamp: this.stamps.get(`${u}/following`) ?? 0 },
        followers: { value: c.followers ?? 0, stamp: this.stamps.get(`${u}/followers`) ?? 0 },
      });
    }
    return out;
  }
  async countEdges(user: string, direction: 'F' | 'R', max: number): Promise<number | null> {
    this.calls.push('countEdges');
    const n = this.edges().filter((e) => e.owner === user && e.direction === direction).length;
    return n > max ? null : n;
  }
  async setCounterIf(user: string, counter: Counter, expected: CounterCell, value: number): Promise<boolean> {
    this.calls.push('setCounterIf');
    const c = this.users.get(uk(user)) ?? {};
    if ((c[counter] ?? 0) !== expected.value) return false;
    this.users.set(uk(user), { ...c, [counter]: value });
    this.touch(user, counter);
    return true;
  }
  /** What a live follow/unfollow does to a counter: a server-side increment (a new cell version). */
  increment(user: string, counter: Counter, delta: number) {
    const c = this.users.get(uk(user)) ?? {};
    this.users.set(uk(user), { ...c, [counter]: (c[counter] ?? 0) + delta });
    this.touch(user, counter);
  }
  private touch(user: string, counter: Counter) {
    this.stamps.set(`${user}/${counter}`, ++this.clock);
  }
}
