// test/unit/feed-fakes.ts — in-memory fakes of the feed ports, for unit tests of the use cases.
// Ordering uses the real row-key codec, so "newest first" here means what it means in HBase.
import type { FeedLimits } from '../../shared/config/config.js';
import { keyFromPostId, postIdFromKey, type Post } from '../../shared/domain/post.js';
import type { FanoutMessage, FanoutQueue } from '../../shared/ports/fanout-queue.js';
import type { CelebrityRegistry, CounterStore, Edge, IdempotencyStore, InboxEntry, InboxPage, InboxStore, OutboxStore, Page, PostStore, RelationStore } from '../../shared/ports/feed-store.js';
import type { NewUser, UserProfile, UserStore } from '../../shared/ports/user-store.js';
import { inboxQualifier, parsePostKey, postKeyFromInboxQualifier } from '../../shared/schema/row-keys.js';
import type { FeedDeps } from '../../shared/use-cases/feed-deps.js';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');
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
  readonly rows = new Map<string, Post>(); // base64url(row key) → post
  async create(post: Post) {
    const k = b64(keyFromPostId(post.id)!);
    if (this.rows.has(k)) return false;
    this.rows.set(k, post);
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
  async delete(id: string) {
    this.rows.delete(b64(keyFromPostId(id)!));
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
  readonly claims = new Map<string, string>();
  async claim(author: string, key: string, postId: string) {
    const k = `${author}/${key}`;
    const earlier = this.claims.get(k);
    if (earlier) return earlier;
    this.claims.set(k, postId);
    return null;
  }
}

export class FakeRelations implements RelationStore {
  readonly edges = new Map<string, number>(); // "a>b" → since
  async follow(a: string, b: string, at: number) {
    if (this.edges.has(`${a}>${b}`)) return false;
    this.edges.set(`${a}>${b}`, at);
    return true;
  }
  async unfollow(a: string, b: string) {
    return this.edges.delete(`${a}>${b}`);
  }
  async isFollowing(a: string, b: string) {
    return this.edges.has(`${a}>${b}`);
  }
  private list(pick: (a: string, b: string) => string | null, limit: number, cursor?: string): Page<Edge> {
    const all = [...this.edges.entries()]
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
    return this.list((a, b) => (a === user ? b : null), limit, cursor);
  }
  async followers(user: string, limit: number, cursor?: string) {
    return this.list((a, b) => (b === user ? a : null), limit, cursor);
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
  constructor(private readonly outbox: FakeOutbox) {}
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
  async page(reader: string, limit: number, after?: string): Promise<InboxPage> {
    const merged = new Set(this.row(reader));
    for (const c of this.markers.get(reader) ?? []) for (const q of this.outbox.qualifiers(c)) merged.add(q);
    const all = [...merged].sort(byKey).filter((q) => after === undefined || byKey(q, after) > 0);
    const entries: InboxEntry[] = all.slice(0, limit).map((q) => ({
      position: q,
      postId: postIdFromKey(postKeyFromInboxQualifier(Buffer.from(q, 'base64url'))),
    }));
    const seen = this.seen.get(reader);
    const regen = this.regen.get(reader);
    return { entries, more: all.length > limit, ...(seen !== undefined ? { lastSeen: seen } : {}), ...(regen !== undefined ? { regeneratingSince: regen } : {}) };
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
  async send(m: FanoutMessage) {
    this.sent.push(m);
  }
}

export const testLimits: FeedLimits = { fanoutChunkSize: 2, fanoutChunksPerMessage: 2, backfillLimit: 3, inboxCap: 5, maxFollowing: 3, celebrityFollowers: 100, inactiveAfterMs: 30 * 86_400_000 };

export function fakeFeed(...handles: string[]) {
  const outbox = new FakeOutbox();
  const deps = {
    users: new FakeUsers(...handles),
    posts: new FakePosts(),
    idempotency: new FakeIdempotency(),
    relations: new FakeRelations(),
    outbox,
    celebrities: new FakeCelebrities(),
    inbox: new FakeInbox(outbox),
    counters: new FakeCounters(),
    queue: new FakeQueue(),
    limits: { ...testLimits },
  };
  return deps satisfies FeedDeps;
}
