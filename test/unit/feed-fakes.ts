// test/unit/feed-fakes.ts — in-memory fakes of the feed ports, for unit tests of the use cases.
// Ordering uses the real row-key codec, so "newest first" here means what it means in HBase.
import type { FeedLimits } from '../../shared/config/config.js';
import { feedOrderKey, keyFromPostId, postIdFromKey, type Post } from '../../shared/domain/post.js';
import type { FanoutMessage, FanoutQueue } from '../../shared/ports/fanout-queue.js';
import type { CelebrityRegistry, CounterStore, Edge, FeedSlice, FeedWindow, IdempotencyClaim, IdempotencyStore, InboxStore, InboxView, OutboxStore, Page, PostLookup, PostStore, RelationStore } from '../../shared/ports/feed-store.js';
import type { NewUser, UserProfile, UserStore } from '../../shared/ports/user-store.js';
import { inboxQualifier, parsePostKey, postKeyFromInboxQualifier } from '../../shared/schema/row-keys.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/** At most `limit` ids of a feed-ordered list strictly after `after` (what the HBase rows give). */
function windowOf(ids: string[], window: FeedWindow): FeedSlice {
  const from = window.after === undefined ? 0 : ids.filter((id) => feedOrderKey(id) <= feedOrderKey(window.after!)).length;
  return { entries: ids.slice(from, from + window.limit), more: ids.length > from + window.limit };
}
const byKey = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'base64url'), Buffer.from(b, 'base64url'));

export class FakeUsers implements UserStore {
  readonly handles = new Set<string>();
  constructor(...handles: string[]) {
    handles.forEach((h) => this.handles.add(h));
  }
  async create(u: NewUser) {
    if (this.handles.has(u.handle)) return false;
    this.handles.add(u.handle);
    return true;
  }
  async passwordHash() {
    return null;
  }
  async profile(h: string): Promise<UserProfile | null> {
    return this.handles.has(h) ? { handle: h, displayName: h, createdAt: 0, followers: 0, following: 0, posts: 0 } : null;
  }
  async updateDisplayName() {
    return false;
  }
}

export class FakePosts implements PostStore {
  readonly rows = new Map<string, Post>(); // base64url(row key) → live post
  readonly tombstones = new Set<string>(); // base64url(row key) of deleted posts: never usable again
  async create(post: Post) {
    const k = b64(keyFromPostId(post.id)!);
    if (this.rows.has(k) || this.tombstones.has(k)) return false;
    this.rows.set(k, post);
    return true;
  }
  async lookup(id: string): Promise<PostLookup> {
    const k = keyFromPostId(id);
    if (!k) return { state: 'absent' };
    const post = this.rows.get(b64(k));
    if (post) return { state: 'live', post };
    return this.tombstones.has(b64(k)) ? { state: 'deleted' } : { state: 'absent' };
  }
  async markDeleted(id: string, _at: number) {
    const k = b64(keyFromPostId(id)!);
    if (this.tombstones.has(k)) return false;
    this.tombstones.add(k);
    this.rows.delete(k);
    return true;
  }
  async get(id: string) {
    const k = keyFromPostId(id);
    return (k && this.rows.get(b64(k))) || null;
  }
  async getMany(ids: string[]) {
    const out: Post[] = [];
    for (const id of ids) {
      const p = await this.get(id);
      if (p) out.push(p);
    }
    return out;
  }
  private byAuthor(author: string): Post[] {
    return [...this.rows.entries()].filter(([, p]) => p.author === author).sort(([a], [b]) => byKey(a, b)).map(([, p]) => p);
  }
  async listByAuthor(author: string, limit: number, cursor?: string): Promise<Page<Post>> {
    const all = this.byAuthor(author);
    const start = cursor ? all.findIndex((p) => p.id === cursor) + 1 : 0;
    const items = all.slice(start, start + limit);
    return { items, ...(start + limit < all.length ? { nextCursor: items.at(-1)!.id } : {}) };
  }
  async recentByAuthor(author: string, limit: number, notOlderThan?: number) {
    return this.byAuthor(author).filter((p) => notOlderThan === undefined || p.createdAt > notOlderThan).slice(0, limit);
  }
}

export class FakeIdempotency implements IdempotencyStore {
  readonly claims = new Map<string, IdempotencyClaim>();
  async claim(author: string, key: string, claim: Required<IdempotencyClaim>) {
    const k = `${author}/${key}`;
    const earlier = this.claims.get(k);
    if (earlier) return earlier;
    this.claims.set(k, claim);
    return null;
  }
}

export class FakeRelations implements RelationStore {
  readonly edges = new Map<string, number>(); // "a>b" → since: the following side (the truth)
  readonly followerRows = new Map<string, number>(); // "a>b" → since: the followers side fan-out reads
  async follow(a: string, b: string, at: number) {
    if (this.edges.has(`${a}>${b}`)) return false;
    this.edges.set(`${a}>${b}`, at);
    this.followerRows.set(`${a}>${b}`, at);
    return true;
  }
  async unfollow(a: string, b: string) {
    const since = this.edges.get(`${a}>${b}`);
    if (since === undefined) return false;
    this.edges.delete(`${a}>${b}`);
    await this.removeFollowerSide(a, b, since);
    return true;
  }
  async isFollowing(a: string, b: string) {
    return this.edges.has(`${a}>${b}`);
  }
  async edge(a: string, b: string) {
    const since = this.edges.get(`${a}>${b}`);
    return since === undefined ? null : { handle: b, since };
  }
  async followerSide(a: string, b: string) {
    return this.followerRows.get(`${a}>${b}`) ?? null;
  }
  async restoreFollowerSide(a: string, b: string, since: number) {
    this.followerRows.set(`${a}>${b}`, since);
  }
  async removeFollowerSide(a: string, b: string, since: number) {
    if (this.followerRows.get(`${a}>${b}`) !== since) return false;
    return this.followerRows.delete(`${a}>${b}`);
  }
  private list(rows: Map<string, number>, pick: (a: string, b: string) => string | null, limit: number, cursor?: string): Page<Edge> {
    const all = [...rows.entries()]
      .map(([k, since]) => {
        const [a, b] = k.split('>') as [string, string];
        const h = pick(a, b);
        return h ? { handle: h, since } : null;
      })
      .filter((e): e is Edge => e !== null)
      .sort((x, y) => x.handle.localeCompare(y.handle));
    const start = cursor ? all.findIndex((e) => e.handle === cursor) + 1 : 0;
    const items = all.slice(start, start + limit);
    return { items, ...(start + limit < all.length ? { nextCursor: items.at(-1)!.handle } : {}) };
  }
  async following(user: string, limit: number, cursor?: string) {
    return this.list(this.edges, (a, b) => (a === user ? b : null), limit, cursor);
  }
  async followers(user: string, limit: number, cursor?: string) {
    return this.list(this.followerRows, (a, b) => (b === user ? a : null), limit, cursor);
  }
}

export class FakeOutbox implements OutboxStore {
  readonly rows = new Map<string, Set<string>>(); // author → base64url(qualifier)
  private row(a: string) {
    let r = this.rows.get(a);
    if (!r) this.rows.set(a, (r = new Set()));
    return r;
  }
  async add(author: string, postId: string) {
    this.row(author).add(b64(inboxQualifier(keyFromPostId(postId)!)));
  }
  async remove(author: string, postId: string) {
    this.row(author).delete(b64(inboxQualifier(keyFromPostId(postId)!)));
  }
  qualifiers(author: string): string[] {
    return [...this.row(author)];
  }
  async recent(author: string, limit: number) {
    return [...this.row(author)].sort(byKey).slice(0, limit).map((q) => postIdFromKey(postKeyFromInboxQualifier(Buffer.from(q, 'base64url'))));
  }
  async recentOf(authors: string[], window: FeedWindow): Promise<FeedSlice> {
    const slices = await Promise.all([...new Set(authors)].map(async (a) => windowOf(await this.recent(a, Infinity), window)));
    return { entries: slices.flatMap((x) => x.entries), more: slices.some((x) => x.more) };
  }
}

export class FakeCelebrities implements CelebrityRegistry {
  readonly flagged = new Set<string>();
  async isCelebrity(a: string) {
    return this.flagged.has(a);
  }
  async setCelebrity(a: string, on: boolean) {
    if (on) this.flagged.add(a);
    else this.flagged.delete(a);
  }
}

export class FakeInbox implements InboxStore {
  readonly rows = new Map<string, Set<string>>(); // reader → base64url(qualifier)
  readonly markers = new Map<string, Set<string>>(); // reader → followed celebrities
  readonly seen = new Map<string, number>();
  readonly regen = new Map<string, number>();
  private row(r: string) {
    let s = this.rows.get(r);
    if (!s) this.rows.set(r, (s = new Set()));
    return s;
  }
  async add(readers: string[], postId: string) {
    for (const r of readers) this.row(r).add(b64(inboxQualifier(keyFromPostId(postId)!)));
  }
  async addMany(reader: string, postIds: string[]) {
    for (const id of postIds) await this.add([reader], id);
  }
  async addManyToReaders(readers: string[], postIds: string[]) {
    for (const r of readers) await this.addMany(r, postIds);
  }
  async remove(readers: string[], postId: string) {
    for (const r of readers) this.row(r).delete(b64(inboxQualifier(keyFromPostId(postId)!)));
  }
  private sorted(reader: string) {
    return [...this.row(reader)].sort(byKey);
  }
  async purgeAuthor(reader: string, author: string) {
    let n = 0;
    for (const q of this.sorted(reader)) {
      if (parsePostKey(postKeyFromInboxQualifier(Buffer.from(q, 'base64url'))).author === author) {
        this.row(reader).delete(q);
        n++;
      }
    }
    return n;
  }
  /** The reader's own inbox cells only (what fan-out wrote), newest first. */
  entries(reader: string): string[] {
    return this.sorted(reader).map((q) => postIdFromKey(postKeyFromInboxQualifier(Buffer.from(q, 'base64url'))));
  }
  /** The row as stored: entries and markers only; merging outboxes is the timeline use case's job. */
  async read(reader: string, window: FeedWindow): Promise<InboxView> {
    const seen = this.seen.get(reader);
    const regen = this.regen.get(reader);
    return {
      ...windowOf(this.entries(reader), window),
      celebrities: [...(this.markers.get(reader) ?? [])],
      ...(seen !== undefined ? { lastSeen: seen } : {}),
      ...(regen !== undefined ? { regeneratingSince: regen } : {}),
    };
  }
  async stats(reader: string) {
    const all = this.sorted(reader);
    const last = all.at(-1);
    return { size: all.length, ...(last ? { oldestMillis: parsePostKey(postKeyFromInboxQualifier(Buffer.from(last, 'base64url'))).millis } : {}) };
  }
  async addCelebrity(readers: string[], c: string) {
    for (const r of readers) {
      if (!this.markers.has(r)) this.markers.set(r, new Set());
      this.markers.get(r)!.add(c);
    }
  }
  async removeCelebrity(readers: string[], c: string) {
    for (const r of readers) this.markers.get(r)?.delete(c);
  }
  async markSeen(r: string, at: number) {
    this.seen.set(r, at);
  }
  async lastSeen(readers: string[]) {
    return new Map(readers.filter((r) => this.seen.has(r)).map((r) => [r, this.seen.get(r)!]));
  }
  async markRegenerating(r: string, at: number) {
    this.seen.set(r, at);
    this.regen.set(r, at);
  }
  async clearRegenerating(r: string) {
    this.regen.delete(r);
  }
}

export class FakeCounters implements CounterStore {
  readonly values = new Map<string, number>();
  async add(user: string, c: string, d: number) {
    this.values.set(`${user}:${c}`, (this.values.get(`${user}:${c}`) ?? 0) + d);
  }
  async get(user: string, c: string) {
    return this.values.get(`${user}:${c}`) ?? 0;
  }
}

export class FakeQueue implements FanoutQueue {
  readonly sent: FanoutMessage[] = [];
  /** Delay asked for each sent message (0 = none), same index as `sent`. */
  readonly delays: number[] = [];
  async send(m: FanoutMessage, opts: { delaySeconds?: number } = {}) {
    this.sent.push(m);
    this.delays.push(opts.delaySeconds ?? 0);
  }
}

export const testLimits: FeedLimits = { fanoutChunkSize: 2, fanoutChunksPerMessage: 2, backfillLimit: 3, inboxCap: 5, maxFollowing: 3, celebrityFollowers: 100, inactiveAfterMs: 30 * 86_400_000, settleSeconds: 60 };

export function fakeFeed(...handles: string[]) {
  const outbox = new FakeOutbox();
  const deps = {
    users: new FakeUsers(...handles),
    posts: new FakePosts(),
    idempotency: new FakeIdempotency(),
    relations: new FakeRelations(),
    outbox,
    celebrities: new FakeCelebrities(),
    inbox: new FakeInbox(),
    counters: new FakeCounters(),
    queue: new FakeQueue(),
    limits: { ...testLimits },
  };
  return deps satisfies FeedDeps;
}
