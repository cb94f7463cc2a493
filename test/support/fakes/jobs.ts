// test/support/fakes/jobs.ts — an in-memory MaintenanceStore that keeps the port's promises in the
// port's words: feeds as lists of entries (newest first), follows and their followers-side
// copies as maps, counters with a version that every write changes. Walks visit things in
// plain string order and resume from where they stopped; the relations walk cuts a user at the
// step boundary as the real one does. Every call is recorded, so tests can count them.
import { isHandle } from '../../../shared/domain/handle.js';
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
} from '../../../shared/ports/maintenance-store.js';

const enc = (position: unknown): Cursor => Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
const dec = <T>(cursor: Cursor): T => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as T;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const pair = (follower: string, followee: string) => `${follower}>${followee}`;
const unpair = (key: string) => key.split('>') as [string, string];

/** An entry of the relations walk: a follow (rank 0), something foreign (rank 1), a followers-side copy (rank 2). */
type Entry = { owner: string; rank: 0 | 1 | 2; other: string; since: string };
/** Just past every entry of a user. */
const PAST_USER = 3;
type Position = [owner: string, rank: number, other: string];
const cmpPos = (a: Position, b: Position) => cmp(a[0], b[0]) || a[1] - b[1] || cmp(a[2], b[2]);
const positionOf = (e: Entry): Position => [e.owner, e.rank, e.other];

interface BatchPosition {
  /** Entries strictly after this one. */
  after?: Position;
  /** Users from this one on (inclusive or not). */
  users?: { from: string; inclusive: boolean };
}

/** Walks a keyed map in key order from a position (strictly after `after`). */
function keysAfter<T>(map: Map<string, T>, after: string | undefined): string[] {
  return [...map.keys()].sort(cmp).filter((k) => after === undefined || k > after);
}

export class FakeMaintenanceStore implements MaintenanceStore {
  /** Each owner's feed: entries newest first. */
  readonly feed: Record<Feed, Map<string, string[]>> = { inbox: new Map(), outbox: new Map() };
  /** reader → when a rebuild was requested (null = unreadable); a key that is not a handle is not a reader's. */
  readonly regen = new Map<string, number | null>();
  /** reader → last read / away mark (the rebuild under way is `regen` above). */
  readonly activity = new Map<string, { seenAt: number | null; awayAt: number | null }>();
  /** The following side (the truth): "follower>followee" → since. */
  readonly follows = new Map<string, string>();
  /** The followers-side copies: "follower>followee" → since. */
  readonly copies = new Map<string, string>();
  /** Entries of the relations walk that are not relations (at the position of a user named `at`). */
  readonly foreign: string[] = [];
  /** Accounts and their stored counters (undefined = never set). */
  readonly accounts = new Map<string, Partial<Record<Counter, number>>>();
  readonly calls: string[] = [];
  /** "user/counter" → a logical clock, moved by every counter write. */
  private readonly versions = new Map<string, number>();
  /** "feed|owner|entry" → when the entry was last written (writeFeed); entries set directly count as written at 0. */
  private readonly written = new Map<string, number>();
  private clock = 0;

  // --- setup helpers
  addUser(handle: string, counters: Partial<Record<Counter, number>> = {}) {
    this.accounts.set(handle, { ...counters });
  }
  /** The following side only (a follow stopped before its copy). */
  addFollow(follower: string, followee: string, since: string) {
    this.follows.set(pair(follower, followee), since);
  }
  /** The followers side only (an unfollow stopped after removing the truth, or a stale copy). */
  addCopy(follower: string, followee: string, since: string) {
    this.copies.set(pair(follower, followee), since);
  }
  follow(follower: string, followee: string, since: string) {
    this.addFollow(follower, followee, since);
    this.addCopy(follower, followee, since);
  }
  /**
   * Writes entries into an owner's feed as a put does: new ones take their place in `order`, and
   * one already there is written again (a trim that visited it before spares it).
   */
  writeFeed(feed: Feed, owner: string, entries: string[], order: (a: string, b: string) => number) {
    for (const e of entries) this.written.set(`${feed}|${owner}|${e}`, ++this.clock);
    this.feed[feed].set(owner, [...new Set([...(this.feed[feed].get(owner) ?? []), ...entries])].sort(order));
  }
  addForeign(at: string) {
    this.foreign.push(at);
  }
  stored(handle: string): Record<Counter, number> {
    const c = this.accounts.get(handle);
    return { following: c?.following ?? 0, followers: c?.followers ?? 0 };
  }

  // --- trim
  async *feeds(feed: Feed, opts: { start?: Cursor; limit: number; cap: number }): AsyncIterable<FeedVisit> {
    this.calls.push(`feeds:${feed}`);
    const map = this.feed[feed];
    // An empty feed does not exist for the walk.
    const owners = keysAfter(map, opts.start === undefined ? undefined : dec<string>(opts.start)).filter(
      (k) => map.get(k)!.length > 0,
    );
    for (const owner of owners.slice(0, opts.limit)) {
      const doomed = new Set(map.get(owner)!.slice(opts.cap));
      const visitedAt = this.clock;
      // Only what is still as visited goes: an entry written again since survives.
      const stale = (e: string) => doomed.has(e) && (this.written.get(`${feed}|${owner}|${e}`) ?? 0) <= visitedAt;
      yield {
        pastCap: doomed.size,
        dropPastCap: async () => {
          this.calls.push(`dropPastCap:${feed}`);
          map.set(
            owner,
            map.get(owner)!.filter((e) => !stale(e)),
          );
        },
        next: enc(owner),
      };
    }
  }

  // --- sweeps
  async *regenerationMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<RegenerationMark> {
    this.calls.push('regenerationMarks');
    for (const key of keysAfter(this.regen, opts.start === undefined ? undefined : dec<string>(opts.start)).slice(
      0,
      opts.limit,
    )) {
      yield { reader: isHandle(key) ? key : null, requestedAt: this.regen.get(key) ?? null, next: enc(key) };
    }
  }
  async *activityMarks(opts: { start?: Cursor; limit: number }): AsyncIterable<ActivityMark> {
    this.calls.push('activityMarks');
    for (const key of keysAfter(this.activity, opts.start === undefined ? undefined : dec<string>(opts.start)).slice(
      0,
      opts.limit,
    )) {
      const a = this.activity.get(key)!;
      yield {
        reader: isHandle(key) ? key : null,
        seenAt: a.seenAt,
        awayAt: a.awayAt,
        regenerating: this.regen.has(key),
        next: enc(key),
      };
    }
  }

  // --- relation repair
  private entries(): Entry[] {
    const out: Entry[] = [];
    for (const [k, since] of this.follows) {
      const [follower, followee] = unpair(k);
      out.push({ owner: follower, rank: 0, other: followee, since });
    }
    for (const [k, since] of this.copies) {
      const [follower, followee] = unpair(k);
      out.push({ owner: followee, rank: 2, other: follower, since });
    }
    for (const [i, at] of this.foreign.entries()) out.push({ owner: at, rank: 1, other: String(i), since: '' });
    return out.sort((a, b) => cmpPos(positionOf(a), positionOf(b)));
  }

  async relationsBatch(opts: { start?: Cursor; limit: number }): Promise<RelationsBatch> {
    this.calls.push('relationsBatch');
    const from = opts.start === undefined ? {} : dec<BatchPosition>(opts.start);
    const chunk = this.entries()
      .filter((e) => from.after === undefined || cmpPos(positionOf(e), from.after) > 0)
      .slice(0, opts.limit);
    const exhausted = chunk.length < opts.limit;
    const relations = chunk.filter((e) => e.rank !== 1);
    const skipped = chunk.length - relations.length;
    if (!exhausted && relations.length === 0) {
      return {
        users: [],
        read: chunk.length,
        skipped,
        next: enc({ after: positionOf(chunk.at(-1)!), ...(from.users ? { users: from.users } : {}) }),
      };
    }
    const last = relations.at(-1);
    const closing = [...this.accounts.keys()]
      .sort(cmp)
      .filter((u) => from.users === undefined || (from.users.inclusive ? u >= from.users.from : u > from.users.from))
      .filter((u) => exhausted || u < last!.owner)
      .slice(0, opts.limit);
    let kept = relations;
    let next: BatchPosition | undefined;
    let open: string | undefined;
    if (closing.length === opts.limit) {
      const lastUser = closing.at(-1)!;
      kept = relations.filter((e) => e.owner <= lastUser);
      next = { after: [lastUser, PAST_USER, ''], users: { from: lastUser, inclusive: false } };
    } else if (!exhausted) {
      open = last!.owner;
      next = { after: positionOf(last!), users: { from: open, inclusive: true } };
    }
    const parts = new Map<string, UserRelations>();
    const part = (user: string) => {
      let p = parts.get(user);
      if (!p) {
        p = { user, follows: [], followers: [], complete: user !== open };
        parts.set(user, p);
      }
      return p;
    };
    for (const u of closing)
      part(u).counters = { following: this.reading(u, 'following'), followers: this.reading(u, 'followers') };
    for (const e of kept) {
      if (e.rank === 0)
        part(e.owner).follows.push({
          follower: e.owner,
          followee: e.other,
          since: e.since,
          copy: this.copies.get(pair(e.owner, e.other)) ?? null,
        });
      else
        part(e.owner).followers.push({
          follower: e.other,
          followee: e.owner,
          since: e.since,
          truth: this.follows.get(pair(e.other, e.owner)) ?? null,
        });
    }
    const users = [...parts.values()].sort((a, b) => cmp(a.user, b.user));
    return { users, read: chunk.length, skipped, ...(next ? { next: enc(next) } : {}) };
  }

  async copyFollowerSides(follows: Follow[]): Promise<void> {
    this.calls.push('copyFollowerSides');
    for (const f of follows) this.addCopy(f.follower, f.followee, f.since);
  }
  async dropFollowerSideIf(follow: Follow): Promise<boolean> {
    this.calls.push('dropFollowerSideIf');
    const key = pair(follow.follower, follow.followee);
    if (this.copies.get(key) !== follow.since) return false;
    this.copies.delete(key);
    return true;
  }
  async counters(users: string[]): Promise<Map<string, Record<Counter, CounterReading>>> {
    this.calls.push('counters');
    const out = new Map<string, Record<Counter, CounterReading>>();
    for (const u of users)
      if (this.accounts.has(u))
        out.set(u, { following: this.reading(u, 'following'), followers: this.reading(u, 'followers') });
    return out;
  }
  async recount(user: string, max: number): Promise<Record<Counter, number> | null> {
    this.calls.push('recount');
    const following = [...this.follows.keys()].filter((k) => unpair(k)[0] === user).length;
    const followers = [...this.copies.keys()].filter((k) => unpair(k)[1] === user).length;
    return following > max || followers > max ? null : { following, followers };
  }
  async setCounterIf(user: string, counter: Counter, expected: CounterReading, value: number): Promise<boolean> {
    this.calls.push('setCounterIf');
    if (!this.accounts.has(user) || this.reading(user, counter).version !== expected.version) return false;
    this.accounts.set(user, { ...this.accounts.get(user), [counter]: value });
    this.versions.set(`${user}/${counter}`, ++this.clock);
    return true;
  }
  /** What a live follow/unfollow does to a counter: an increment (a new version). */
  increment(user: string, counter: Counter, delta: number) {
    const c = this.accounts.get(user) ?? {};
    this.accounts.set(user, { ...c, [counter]: (c[counter] ?? 0) + delta });
    this.versions.set(`${user}/${counter}`, ++this.clock);
  }
  private reading(user: string, counter: Counter): CounterReading {
    return {
      value: this.accounts.get(user)?.[counter] ?? 0,
      version: String(this.versions.get(`${user}/${counter}`) ?? 0),
    };
  }
}
