// test/support/fakes/feed.ts — in-memory fakes of the feed ports, for unit tests of the use cases.
// Ordering uses the real row-key codec, so "newest first" here means what it means in HBase; the
// list indexes keep stale entries where the adapters do. The contract suites
// (test/support/contracts/) hold each fake to its HBase adapter.
import type { GroupStore, Holding, ReadBook } from '../../../shared/ports/group-store.js';
import { withSpecial, type GroupBook } from '../../../shared/domain/groups.js';
import type { FeedLimits } from '../../../shared/domain/limits.js';
import {
  commentCreatedAt,
  type Comment,
  type ThreadEntry,
  type ThreadSummary,
} from '../../../shared/domain/comment.js';
import type { WriteAction } from '../../../shared/domain/limits.js';
import { keyFromPostId, postIdFromKey } from '../../../shared/schema/row-keys.js';
import {
  feedOrderKey,
  NO_COUNTS,
  type FeedEntry,
  type Post,
  type PostCounts,
  type PostVersion,
  type StoredPost,
} from '../../../shared/domain/post.js';
import type { MentionPlace, MentionSpan, TopicSpan } from '../../../shared/domain/text-entities.js';
import type {
  WrittenPosition,
  BookmarkPosition,
  CommentLikeState,
  CommentLookup,
  CommentOrder,
  ListedComment,
  ThreadState,
  CommentStore,
  Liker,
  ReactionStore,
  ViewerState,
  WriteQuota,
} from '../../../shared/ports/reaction-store.js';
import type { FanoutMessage, FanoutQueue } from '../../../shared/ports/fanout-queue.js';
import type {
  CelebrityRegistry,
  CounterStore,
  Edge,
  FeedSlice,
  FeedWindow,
  IdempotencyClaim,
  IdempotencyStore,
  InboxStore,
  InboxView,
  ListPage,
  NewerView,
  ListPosition,
  OutboxStore,
  Page,
  PostLookup,
  PostStore,
  RelationStore,
  Segment,
} from '../../../shared/ports/feed-store.js';
import type {
  ExportState,
  FindableUser,
  NewUser,
  ProfileText,
  UserFace,
  UserProfile,
  UserStore,
} from '../../../shared/ports/user-store.js';
import { ACTIVE, type Standing } from '../../../shared/domain/leaving.js';
import {
  ALL_NOTIFICATIONS,
  DEFAULT_MESSAGES_FROM,
  type NotificationChoices,
  type SettingsChange,
  type UserSettings,
} from '../../../shared/domain/settings.js';
import type { PeopleEntry, PeopleIndex } from '../../../shared/ports/people-index.js';
import { inboxQualifier, parsePostKey, postKeyFromInboxQualifier, segmentOf } from '../../../shared/schema/row-keys.js';
import { handleFanoutMessage } from '../../../shared/use-cases/background/handlers.js';
import type { FeedDeps } from '../../../shared/use-cases/feed-deps.js';
import type { StepHook } from '../../../shared/use-cases/steps.js';
import type { Pictures } from '../../../shared/use-cases/media/attach.js';
import { FakeBlocks, FakeHotStore, FakeNotifications, FakeSearchIndex, FakeTopics, newestFirstPage } from './social.js';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/** At most `limit` ids of a feed-ordered list strictly after `after` (what the HBase rows give). */
function windowOf(ids: string[], window: FeedWindow): FeedSlice {
  const from =
    window.after === undefined ? 0 : ids.filter((id) => feedOrderKey(id) <= feedOrderKey(window.after!)).length;
  return { entries: ids.slice(from, from + window.limit), more: ids.length > from + window.limit };
}
/** At most `limit` ids of a feed-ordered list strictly before (newer than) `than`, and whether more are. */
function newerOf(ids: string[], than: string, limit: number): FeedSlice {
  const newer = ids.filter((id) => feedOrderKey(id) < feedOrderKey(than));
  return { entries: newer.slice(0, limit), more: newer.length > limit };
}
const repostsOf = (ids: string[], originals: Map<string, string>): { reposts?: Record<string, string> } => {
  const found = ids.filter((id) => originals.has(id));
  return found.length > 0 ? { reposts: Object.fromEntries(found.map((id) => [id, originals.get(id)!])) } : {};
};
const byKey = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'base64url'), Buffer.from(b, 'base64url'));

/** Users in memory: `new FakeUsers('ann', 'bob')` registers ann and bob (their name is the handle). */
export class FakeUsers implements UserStore {
  readonly rows = new Map<
    string,
    NewUser &
      ProfileText & { avatar?: string; cover?: string; standing?: Standing; epoch?: string; settings?: UserSettings }
  >();
  constructor(...handles: string[]) {
    for (const h of handles) this.rows.set(h, { handle: h, displayName: h, passwordHash: '', createdAt: 0 });
  }
  async create(u: NewUser) {
    if (this.rows.has(u.handle)) return false;
    this.rows.set(u.handle, { ...u });
    return true;
  }
  private active = (h: string) => {
    const u = this.rows.get(h);
    return u && (u.standing ?? ACTIVE).state === 'active' ? u : undefined;
  };
  async credentials(h: string) {
    const u = this.rows.get(h);
    return u ? { hash: u.passwordHash, standing: u.standing ?? ACTIVE, epoch: u.epoch ?? '' } : null;
  }
  async sessionGate(h: string) {
    const u = this.rows.get(h);
    return u ? { standing: u.standing ?? ACTIVE, epoch: u.epoch ?? '' } : null;
  }
  readonly exports = new Map<string, ExportState>();
  async exportState(h: string) {
    return this.exports.get(h) ?? {};
  }
  async askExport(h: string, from: number | null, at: number) {
    const state = this.exports.get(h) ?? {};
    if ((state.requestedAt ?? null) !== from) return false;
    this.exports.set(h, { ...state, requestedAt: at });
    return true;
  }
  async exportDone(h: string, requestedAt: number, key: string, builtAt: number) {
    const state = this.exports.get(h) ?? {};
    if (state.requestedAt !== requestedAt) return false;
    this.exports.set(h, { ...state, done: { requestedAt, key, builtAt } });
    return true;
  }
  async deactivate(h: string, at: number, epoch: string) {
    const u = this.active(h);
    if (!u) return false;
    Object.assign(u, { standing: { state: 'deactivated', at }, epoch });
    return true;
  }
  async restore(h: string, from: Standing) {
    const u = this.rows.get(h);
    if (!u || JSON.stringify(u.standing ?? ACTIVE) !== JSON.stringify(from)) return false;
    u.standing = ACTIVE;
    return true;
  }
  async replacePasswordHash(h: string, from: string, to: string) {
    const u = this.rows.get(h);
    if (u?.passwordHash !== from) return false;
    u.passwordHash = to;
    return true;
  }
  /** The counts (as on HBase, the users row holds them): fakeFeed shares its FakeCounters here. */
  counts?: FakeCounters;
  async profile(h: string): Promise<UserProfile | null> {
    const u = this.rows.get(h);
    if (!u) return null;
    const count = (c: string) => this.counts?.values.get(`${h}:${c}`) ?? 0;
    return {
      handle: h,
      displayName: u.displayName,
      createdAt: u.createdAt,
      followers: count('followers'),
      following: count('following'),
      posts: count('posts'),
      ...(u.avatar ? { avatar: u.avatar } : {}),
      ...(u.bio ? { bio: u.bio } : {}),
      ...(u.location ? { location: u.location } : {}),
      ...(u.cover ? { cover: u.cover } : {}),
      standing: u.standing ?? ACTIVE,
    };
  }
  async naming(h: string) {
    const u = this.rows.get(h);
    return u ? { displayName: u.displayName, naming: u.naming ?? null } : null;
  }
  async rename(h: string, displayName: string, from: string | null, to: string, text: ProfileText = {}) {
    const u = this.rows.get(h);
    if (!u || (u.naming ?? null) !== from) return false;
    Object.assign(u, { displayName, naming: to }, text);
    return true;
  }
  async describe(h: string, text: ProfileText) {
    const u = this.rows.get(h);
    if (u) Object.assign(u, text);
  }
  async replaceCover(h: string, from: string | null, to: string | null) {
    const u = this.rows.get(h);
    if (!u || (u.cover ?? null) !== from) return false;
    if (to === null) delete u.cover;
    else u.cover = to;
    return true;
  }
  async settings(h: string): Promise<UserSettings | null> {
    const u = this.rows.get(h);
    if (!u) return null;
    const s = u.settings;
    return {
      messagesFrom: s?.messagesFrom ?? DEFAULT_MESSAGES_FROM,
      notifications: { ...ALL_NOTIFICATIONS, ...s?.notifications },
    };
  }
  async changeSettings(h: string, change: SettingsChange) {
    const u = this.rows.get(h);
    const now = await this.settings(h);
    if (!u || !now) return;
    u.settings = {
      messagesFrom: change.messagesFrom ?? now.messagesFrom,
      notifications: { ...now.notifications, ...change.notifications },
    };
  }
  async notificationChoices(handles: string[]): Promise<Map<string, NotificationChoices>> {
    return new Map(
      handles.map((h) => [h, { ...ALL_NOTIFICATIONS, ...this.rows.get(h)?.settings?.notifications }] as const),
    );
  }
  async findable(handles: string[]): Promise<Map<string, FindableUser>> {
    const faces = await this.faces(handles);
    return new Map(
      [...faces].map(([h, f]) => [
        h,
        { ...f, followers: this.counts?.values.get(`${h}:followers`) ?? 0, naming: this.rows.get(h)!.naming ?? null },
      ]),
    );
  }
  async existing(handles: string[]) {
    return new Set(handles.filter((h) => this.active(h)));
  }
  async faces(handles: string[]): Promise<Map<string, UserFace>> {
    return new Map(
      handles.flatMap((h) => {
        const u = this.active(h);
        return u
          ? [[h, { handle: h, displayName: u.displayName, ...(u.avatar ? { avatar: u.avatar } : {}) }] as const]
          : [];
      }),
    );
  }
  async replaceAvatar(h: string, from: string | null, to: string | null) {
    const u = this.rows.get(h);
    if (!u || (u.avatar ?? null) !== from) return false;
    if (to === null) delete u.avatar;
    else u.avatar = to;
    return true;
  }
}

/** The people index in memory: entries keyed as the table's rows (term, handle, naming), in key order when found. */
export class FakePeople implements PeopleIndex {
  readonly entries = new Map<string, PeopleEntry>();
  private static key = (e: PeopleEntry) => `${e.term}\0${e.handle}\0${e.naming}`;
  async add(handle: string, terms: string[], naming: string) {
    for (const term of terms) this.entries.set(FakePeople.key({ term, handle, naming }), { term, handle, naming });
  }
  async remove(handle: string, terms: string[], naming: string) {
    for (const term of terms) this.entries.delete(FakePeople.key({ term, handle, naming }));
  }
  async find(prefix: string, bound: number) {
    const keys = [...this.entries.keys()]
      .filter((k) => k.startsWith(prefix))
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return keys.slice(0, bound).map((k) => this.entries.get(k)!);
  }
}

/** The tally marks and claims of one kind of counted row (CountTally), in memory. */
class FakeTally {
  readonly marks = new Set<string>();
  readonly claims = new Map<string, number>();
  mark(id: string, c: string, d: number, fact?: string) {
    if (fact !== undefined && d !== 0) this.marks.add(`${id}|${c}|${fact}|${d > 0 ? '+' : '-'}`);
  }
  async tallied(id: string, c: string, fact: string) {
    return { added: this.marks.has(`${id}|${c}|${fact}|+`), removed: this.marks.has(`${id}|${c}|${fact}|-`) };
  }
  async claim(id: string, c: string, fact: string, sign: 1 | -1, now: number, staleBefore: number) {
    const k = `${id}|${c}|${fact}|${sign}`;
    const held = this.claims.get(k);
    if (held !== undefined && !(held < staleBefore)) return false;
    this.claims.set(k, now);
    return true;
  }
}

/** A post as reads give it: its counts never below zero (a repair and a late decrement can dip them). */
const shown = (p: StoredPost): StoredPost => ({
  ...p,
  counts: {
    likes: Math.max(0, p.counts.likes),
    comments: Math.max(0, p.counts.comments),
    reposts: Math.max(0, p.counts.reposts),
  },
});

export class FakePosts implements PostStore {
  readonly tally = new FakeTally();
  readonly rows = new Map<string, StoredPost>(); // base64url(row key) → live post, counts as incremented
  readonly tombstones = new Set<string>(); // base64url(row key) of deleted posts: never usable again
  async create(post: Post) {
    const k = b64(keyFromPostId(post.id)!);
    if (this.rows.has(k) || this.tombstones.has(k)) return false;
    this.rows.set(k, { ...post, counts: { ...NO_COUNTS } });
    return true;
  }
  async lookup(id: string): Promise<PostLookup> {
    const k = keyFromPostId(id);
    if (!k) return { state: 'absent' };
    const post = this.rows.get(b64(k));
    if (post) return { state: 'live', post: shown(post) };
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
    const post = k && this.rows.get(b64(k));
    return post ? shown(post) : null;
  }
  /** The mention index: "handle|postId|commentId|since" per entry. */
  readonly mentionEntries = new Set<string>();
  async listMentions(place: MentionPlace, handles: readonly string[], since: number) {
    for (const h of handles) this.mentionEntries.add(`${h}|${place.postId}|${place.commentId ?? ''}|${since}`);
  }
  async unlistMentions(place: MentionPlace, handles: readonly string[], since: number) {
    for (const h of handles) this.mentionEntries.delete(`${h}|${place.postId}|${place.commentId ?? ''}|${since}`);
  }
  readonly history = new Map<string, PostVersion[]>(); // post id → earlier versions, oldest first
  async versions(id: string) {
    const post = await this.get(id);
    return post ? { post, earlier: [...(this.history.get(id) ?? [])] } : null;
  }
  async edit(
    id: string,
    from: number,
    next: { body: string; mentions?: MentionSpan[]; topics?: TopicSpan[]; editedAt: number },
    replaced: PostVersion,
  ) {
    const k = keyFromPostId(id);
    const post = k && this.rows.get(b64(k));
    if (!post || (post.version ?? 0) !== from) return false;
    const { mentions: _m, topics: _t, ...rest } = post;
    this.rows.set(b64(keyFromPostId(id)!), { ...rest, ...next, version: from + 1 });
    this.history.set(id, [...(this.history.get(id) ?? []), replaced]);
    return true;
  }
  async count(id: string, c: keyof PostCounts, d: number, fact?: string) {
    const k = keyFromPostId(id);
    const p = k && this.rows.get(b64(k));
    if (p) p.counts[c] += d;
    this.tally.mark(id, c, d, fact);
  }
  tallied(id: string, c: keyof PostCounts, fact: string) {
    return this.tally.tallied(id, c, fact);
  }
  claim(id: string, c: keyof PostCounts, fact: string, sign: 1 | -1, now: number, staleBefore: number) {
    return this.tally.claim(id, c, fact, sign, now, staleBefore);
  }
  async getMany(ids: string[]) {
    const out: StoredPost[] = [];
    for (const id of ids) {
      const p = await this.get(id);
      if (p) out.push(p);
    }
    return out;
  }
  /** The author's live posts in key order (newest first), from strictly after the post `after` (live or not). */
  private byAuthor(author: string, after?: string): StoredPost[] {
    const from = after === undefined ? undefined : b64(keyFromPostId(after)!);
    return [...this.rows.entries()]
      .filter(([k, p]) => p.author === author && (from === undefined || byKey(k, from) > 0))
      .sort(([a], [b]) => byKey(a, b))
      .map(([, p]) => shown(p));
  }
  async listByAuthor(author: string, limit: number, cursor?: string): Promise<Page<StoredPost>> {
    const all = this.byAuthor(author, cursor);
    const items = all.slice(0, limit);
    return { items, ...(limit < all.length ? { nextCursor: items.at(-1)!.id } : {}) };
  }
  /** As the adapter's scan reads them: the post itself (a repost's original too), no counts or entities. */
  async recentByAuthor(author: string, limit: number, notOlderThan?: number): Promise<Post[]> {
    return this.byAuthor(author)
      .filter((p) => notOlderThan === undefined || p.createdAt > notOlderThan)
      .slice(0, limit)
      .map(({ id, author: by, body, createdAt, repostOf }) => ({
        id,
        author: by,
        body,
        createdAt,
        ...(repostOf === undefined ? {} : { repostOf }),
      }));
  }
}

export class FakeIdempotency implements IdempotencyStore {
  readonly claims = new Map<string, IdempotencyClaim>();
  async claim(user: string, key: string, claim: { id: string; fingerprint: string }) {
    const k = `${user}/${key}`;
    const earlier = this.claims.get(k);
    if (earlier) return { ...earlier };
    this.claims.set(k, { ...claim });
    return null;
  }
  async markCreated(user: string, key: string, id: string) {
    const earlier = this.claims.get(`${user}/${key}`);
    if (earlier?.id === id) earlier.created = true;
  }
}

/** Handles in the fake's own walk order (stable, as the port asks; not the adapter's salted order). */
const walkOrder = (x: string, y: string) => x.localeCompare(y);

export class FakeRelations implements RelationStore {
  readonly edges = new Map<string, number>(); // "a>b" → since: the following side (the truth)
  readonly followerRows = new Map<string, number>(); // "a>b" → since: the followers side fan-out reads
  readonly away = new Set<string>(); // "a>b": a is marked away on b's followers side
  /** The newest-first list index, as the adapter keeps it beside the edges: "a>b>since" per edge entry. */
  readonly listEntries = new Set<string>();
  private list(a: string, b: string, since: number, on: boolean) {
    if (on) this.listEntries.add(`${a}>${b}>${since}`);
    else this.listEntries.delete(`${a}>${b}>${since}`);
  }
  async follow(a: string, b: string, at: number) {
    // The list entries first (the adapter writes them before the edge); a repeat takes its own away.
    this.list(a, b, at, true);
    if (this.edges.has(`${a}>${b}`)) {
      if (this.edges.get(`${a}>${b}`) !== at) this.list(a, b, at, false);
      return false;
    }
    this.edges.set(`${a}>${b}`, at);
    this.followerRows.set(`${a}>${b}`, at);
    this.away.delete(`${a}>${b}`); // a new row carries no mark
    return true;
  }
  async audience(author: string, limit: number, opts: { cursor?: string; segment?: Segment } = {}) {
    const all = [...this.followerRows.keys()]
      .map((k) => k.split('>') as [string, string])
      .filter(([a, b]) => b === author && (!opts.segment || segmentOf(a, opts.segment.of) === opts.segment.index))
      .map(([a]) => ({ handle: a, away: this.away.has(`${a}>${author}`) }))
      .sort((x, y) => walkOrder(x.handle, y.handle))
      .filter((e) => opts.cursor === undefined || walkOrder(e.handle, opts.cursor) > 0);
    const items = all.slice(0, limit);
    return { items, ...(limit < all.length ? { nextCursor: items.at(-1)!.handle } : {}) };
  }
  /** As the adapter pages: a call's last page takes up to a quarter page more where that ends the list. */
  async *audiencePages(author: string, opts: { cursor?: string; segment?: Segment; pageSize: number; pages: number }) {
    let cursor = opts.cursor;
    const tail = Math.floor(opts.pageSize / 4);
    for (let i = 0; i < opts.pages; i++) {
      const last = i === opts.pages - 1;
      const page = await this.audience(author, opts.pageSize + (last ? tail : 0), {
        ...(cursor === undefined ? {} : { cursor }),
        ...(opts.segment ? { segment: opts.segment } : {}),
      });
      if (page.items.length === 0) return;
      if (!page.nextCursor) {
        yield { items: page.items };
        return;
      }
      const items = page.items.slice(0, opts.pageSize);
      if (last) {
        yield { items, nextCursor: items.at(-1)!.handle };
        return;
      }
      yield { items };
      cursor = page.nextCursor;
    }
  }
  async markAway(reader: string, followees: string[]) {
    for (const f of followees) if (this.followerRows.has(`${reader}>${f}`)) this.away.add(`${reader}>${f}`);
  }
  async clearAway(reader: string, followees: string[]) {
    for (const f of followees) this.away.delete(`${reader}>${f}`);
  }
  async unfollow(a: string, b: string, known?: number) {
    const since = this.edges.get(`${a}>${b}`);
    if (since === undefined || (known !== undefined && since !== known)) return false;
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
    this.list(a, b, since, true);
    this.followerRows.set(`${a}>${b}`, since);
  }
  async removeFollowerSide(a: string, b: string, since: number) {
    // The entries of this since go first, whether or not the row still holds it (a refollow's stay).
    this.list(a, b, since, false);
    if (this.followerRows.get(`${a}>${b}`) !== since) return false;
    this.away.delete(`${a}>${b}`);
    return this.followerRows.delete(`${a}>${b}`);
  }
  private walk(
    rows: Map<string, number>,
    pick: (a: string, b: string) => string | null,
    limit: number,
    cursor?: string,
  ): Page<Edge> {
    const all = [...rows.entries()]
      .map(([k, since]) => {
        const [a, b] = k.split('>') as [string, string];
        const h = pick(a, b);
        return h ? { handle: h, since } : null;
      })
      .filter((e): e is Edge => e !== null && (cursor === undefined || walkOrder(e.handle, cursor) > 0))
      .sort((x, y) => walkOrder(x.handle, y.handle));
    const items = all.slice(0, limit);
    return { items, ...(limit < all.length ? { nextCursor: items.at(-1)!.handle } : {}) };
  }
  async following(user: string, limit: number, cursor?: string) {
    return this.walk(this.edges, (a, b) => (a === user ? b : null), limit, cursor);
  }
  async followers(user: string, limit: number, cursor?: string) {
    return this.walk(this.followerRows, (a, b) => (b === user ? a : null), limit, cursor);
  }
  /** The index's entries in an order of their own (by key text), from `at` of the way through: like the adapter's. */
  async sampleEdges(at: number, limit: number) {
    const all = [...this.listEntries]
      .map((e) => e.split('>') as [string, string, string])
      .sort(([a, b, s], [c, d, t]) => {
        const x = `${a}>${b}>${s}`;
        const y = `${c}>${d}>${t}`;
        return x < y ? -1 : x > y ? 1 : 0;
      });
    const from = Math.floor(at * all.length);
    return all
      .slice(from, from + limit)
      .map(([follower, followee, since]) => ({ follower, followee, since: Number(since) }));
  }
  /** A page of the list index (whose entries, as the adapter's, may be stale). */
  async listed(
    user: string,
    list: 'following' | 'followers',
    limit: number,
    after?: ListPosition,
  ): Promise<ListPage<Edge>> {
    const entries = [...this.listEntries].flatMap((entry) => {
      const [a, b, since] = entry.split('>') as [string, string, string];
      const other = list === 'following' ? (a === user ? b : null) : b === user ? a : null;
      return other === null ? [] : [{ handle: other, since: Number(since) }];
    });
    return newestFirstPage(entries, limit, after);
  }
  async followSinces(edges: { follower: string; followee: string }[]) {
    return edges.map((e) => this.edges.get(`${e.follower}>${e.followee}`) ?? null);
  }
}

export class FakeOutbox implements OutboxStore {
  readonly rows = new Map<string, Set<string>>(); // author → base64url(qualifier)
  readonly originals = new Map<string, string>(); // repost id → original id (the cell value)
  private row(a: string) {
    let r = this.rows.get(a);
    if (!r) {
      r = new Set();
      this.rows.set(a, r);
    }
    return r;
  }
  async add(author: string, entry: FeedEntry) {
    this.row(author).add(b64(inboxQualifier(keyFromPostId(entry.id)!)));
    if (entry.repostOf) this.originals.set(entry.id, entry.repostOf);
  }
  async remove(author: string, postId: string) {
    this.row(author).delete(b64(inboxQualifier(keyFromPostId(postId)!)));
  }
  qualifiers(author: string): string[] {
    return [...this.row(author)];
  }
  async recent(author: string, limit: number): Promise<FeedEntry[]> {
    return [...this.row(author)]
      .sort(byKey)
      .slice(0, limit)
      .map((q) => postIdFromKey(postKeyFromInboxQualifier(Buffer.from(q, 'base64url'))))
      .map((id) => (this.originals.has(id) ? { id, repostOf: this.originals.get(id)! } : { id }));
  }
  async recentOf(authors: string[], window: FeedWindow): Promise<FeedSlice> {
    const slices = await Promise.all(
      [...new Set(authors)].map(async (a) =>
        windowOf(
          (await this.recent(a, Infinity)).map((e) => e.id),
          window,
        ),
      ),
    );
    const entries = slices.flatMap((x) => x.entries);
    return { entries, more: slices.some((x) => x.more), ...repostsOf(entries, this.originals) };
  }
  async windowOf(author: string, window: FeedWindow): Promise<FeedSlice & { held: number }> {
    return { ...(await this.recentOf([author], window)), held: this.row(author).size };
  }
  /** Keys only, as the HBase filter reads them: no reposts' originals. */
  async newerOf(authors: string[], than: string, limit: number): Promise<FeedSlice> {
    const slices = await Promise.all(
      [...new Set(authors)].map(async (a) =>
        newerOf(
          (await this.recent(a, Infinity)).map((e) => e.id),
          than,
          limit,
        ),
      ),
    );
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
  readonly originals = new Map<string, string>(); // repost id → original id (the cell value)
  private row(r: string) {
    let s = this.rows.get(r);
    if (!s) {
      s = new Set();
      this.rows.set(r, s);
    }
    return s;
  }
  async add(readers: string[], entry: FeedEntry) {
    for (const r of readers) this.row(r).add(b64(inboxQualifier(keyFromPostId(entry.id)!)));
    if (entry.repostOf) this.originals.set(entry.id, entry.repostOf);
  }
  async addMany(reader: string, entries: FeedEntry[]) {
    for (const e of entries) await this.add([reader], e);
  }
  async addManyToReaders(readers: string[], entries: FeedEntry[]) {
    for (const r of readers) await this.addMany(r, entries);
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
    const slice = windowOf(this.entries(reader), window);
    return {
      ...slice,
      ...repostsOf(slice.entries, this.originals),
      celebrities: [...(this.markers.get(reader) ?? [])],
      ...(seen !== undefined ? { lastSeen: seen } : {}),
      ...(regen !== undefined ? { regeneratingSince: regen } : {}),
    };
  }
  async newer(reader: string, than: string, limit: number): Promise<NewerView> {
    return { ...newerOf(this.entries(reader), than, limit), celebrities: [...(this.markers.get(reader) ?? [])] };
  }
  async stats(reader: string) {
    const all = this.sorted(reader);
    const last = all.at(-1);
    return {
      size: all.length,
      ...(last ? { oldestMillis: parsePostKey(postKeyFromInboxQualifier(Buffer.from(last, 'base64url'))).millis } : {}),
    };
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
  readonly awayAt = new Map<string, number>();
  async markAway(r: string, seenAt: number) {
    this.awayAt.set(r, seenAt);
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
  readonly tally = new FakeTally();
  async add(user: string, c: string, d: number, fact?: string) {
    this.values.set(`${user}:${c}`, (this.values.get(`${user}:${c}`) ?? 0) + d);
    this.tally.mark(user, c, d, fact);
  }
  tallied(user: string, c: string, fact: string) {
    return this.tally.tallied(user, c, fact);
  }
  claim(user: string, c: string, fact: string, sign: 1 | -1, now: number, staleBefore: number) {
    return this.tally.claim(user, c, fact, sign, now, staleBefore);
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

export class FakeReactions implements ReactionStore {
  readonly likes = new Map<string, number>(); // "user>postId" → since (the truth)
  readonly likerRows = new Map<string, number>(); // "postId>user" → since (the post side)
  readonly plainClaims = new Map<string, string>(); // "user>original" → repost id
  readonly reposts = new Map<string, Set<string>>(); // "user>original" → live repost ids
  readonly bookmarked = new Map<string, number>(); // "user>postId" → since (the truth)
  readonly bookmarkRows = new Map<string, number>(); // "user>postId>since" → since (the list)
  async likedBy(user: string, limit: number, after?: string) {
    const all = [...this.likes].flatMap(([k, since]) =>
      k.startsWith(`${user}>`) ? [{ postId: k.slice(user.length + 1), since }] : [],
    );
    const key = (id: string) => b64(keyFromPostId(id)!);
    const sorted = all
      .toSorted((a, b) => byKey(key(a.postId), key(b.postId)))
      .filter((l) => !after || byKey(key(l.postId), key(after)) > 0);
    const items = sorted.slice(0, limit);
    return sorted.length > limit ? { items, next: items.at(-1)!.postId } : { items };
  }
  async bookmark(user: string, postId: string, at: number) {
    if (this.bookmarked.has(`${user}>${postId}`)) return false;
    this.bookmarked.set(`${user}>${postId}`, at);
    return true;
  }
  async bookmarkSince(user: string, postId: string) {
    return this.bookmarked.get(`${user}>${postId}`) ?? null;
  }
  async unbookmark(user: string, postId: string, since: number) {
    if (this.bookmarked.get(`${user}>${postId}`) !== since) return false;
    this.bookmarked.delete(`${user}>${postId}`);
    return true;
  }
  async listBookmark(user: string, postId: string, since: number, replacing?: number) {
    this.bookmarkRows.set(`${user}>${postId}>${since}`, since);
    if (replacing !== undefined && replacing !== since) this.bookmarkRows.delete(`${user}>${postId}>${replacing}`);
  }
  async unlistBookmark(user: string, postId: string, since: number) {
    this.bookmarkRows.delete(`${user}>${postId}>${since}`);
  }
  async bookmarks(user: string, limit: number, after?: BookmarkPosition) {
    const mine = [...this.bookmarkRows.keys()].filter((k) => k.startsWith(`${user}>`)).map((k) => k.split('>'));
    const page = newestFirstPage(
      mine.map(([, postId, since]) => ({ handle: postId!, since: Number(since) })),
      limit,
      after && { since: after.since, handle: after.postId },
    );
    const pos = (e: { handle: string; since: number }) => ({ postId: e.handle, since: e.since });
    return { items: page.items.map(pos), ...(page.next ? { next: pos(page.next) } : {}) };
  }
  async like(user: string, postId: string, at: number) {
    if (this.likes.has(`${user}>${postId}`)) return false;
    this.likes.set(`${user}>${postId}`, at);
    return true;
  }
  async likeSince(user: string, postId: string) {
    return this.likes.get(`${user}>${postId}`) ?? null;
  }
  async unlike(user: string, postId: string, since: number) {
    if (this.likes.get(`${user}>${postId}`) !== since) return false;
    this.likes.delete(`${user}>${postId}`);
    return true;
  }
  async viewerState(user: string, postIds: string[]) {
    const out = new Map<string, ViewerState>();
    for (const id of postIds) {
      const liked = this.likes.has(`${user}>${id}`);
      const reposted = (this.reposts.get(`${user}>${id}`)?.size ?? 0) > 0;
      const bookmarkedAt = this.bookmarked.get(`${user}>${id}`);
      if (liked || reposted || bookmarkedAt !== undefined)
        out.set(id, { liked, reposted, ...(bookmarkedAt === undefined ? {} : { bookmarkedAt }) });
    }
    return out;
  }
  /** The likers list, as the adapter keeps it beside the post side: "postId>user>since" per entry (one may be stale). */
  readonly likerEntries = new Set<string>();
  async addLiker(postId: string, user: string, since: number, replacing?: number) {
    this.likerRows.set(`${postId}>${user}`, since);
    this.likerEntries.add(`${postId}>${user}>${since}`);
    if (replacing !== undefined && replacing !== since) this.likerEntries.delete(`${postId}>${user}>${replacing}`);
  }
  async removeLiker(postId: string, user: string, since: number) {
    if (this.likerRows.get(`${postId}>${user}`) === since) this.likerRows.delete(`${postId}>${user}`);
    this.likerEntries.delete(`${postId}>${user}>${since}`);
  }
  async likers(postId: string, limit: number, after?: ListPosition): Promise<ListPage<Liker>> {
    const all = [...this.likerEntries]
      .map((k) => k.split('>') as [string, string, string])
      .filter(([post]) => post === postId)
      .map(([, handle, since]) => ({ handle, since: Number(since) }));
    return newestFirstPage(all, limit, after);
  }
  async likeSinces(postId: string, users: string[]) {
    return new Map(
      users.flatMap((u) => (this.likes.has(`${u}>${postId}`) ? [[u, this.likes.get(`${u}>${postId}`)!] as const] : [])),
    );
  }
  async claimPlainRepost(user: string, original: string, repostId: string, replacing?: string) {
    const k = `${user}>${original}`;
    const held = this.plainClaims.get(k);
    if (replacing !== undefined) {
      if (held !== replacing) return false;
      this.plainClaims.set(k, repostId);
      return null;
    }
    if (held !== undefined) return held;
    this.plainClaims.set(k, repostId);
    return null;
  }
  async addRepost(user: string, original: string, repostId: string) {
    const k = `${user}>${original}`;
    if (!this.reposts.has(k)) this.reposts.set(k, new Set());
    this.reposts.get(k)!.add(repostId);
  }
  async removeRepost(user: string, original: string, repostId: string) {
    this.reposts.get(`${user}>${original}`)?.delete(repostId);
  }
  async reposters(original: string, limit: number) {
    return [...this.reposts]
      .filter(([k, ids]) => k.endsWith(`>${original}`) && ids.size > 0)
      .map(([k]) => k.split('>')[0]!)
      .slice(0, limit);
  }
}

export class FakeComments implements CommentStore {
  readonly rows = new Map<string, { comment?: Comment; deleted?: number }>(); // "postId/commentId"
  /** Per comment: the likers (since, or null once taken back), the count and a sequence, as the adapter's one row. */
  readonly likes = new Map<string, { likers: Map<string, number | null>; count: number; sequence: number }>();
  private likesOf(key: string) {
    const l = this.likes.get(key) ?? { likers: new Map<string, number | null>(), count: 0, sequence: 0 };
    this.likes.set(key, l);
    return l;
  }
  async likeState(postId: string, commentId: string, user: string): Promise<CommentLikeState | null> {
    const key = `${postId}/${commentId}`;
    const row = this.rows.get(key);
    if (!row?.comment || row.deleted !== undefined) return null;
    const l = this.likesOf(key);
    const since = l.likers.get(user) ?? null;
    return {
      comment: { ...row.comment, likes: { count: l.count, liked: since !== null } },
      count: l.count,
      since,
      version: l.sequence === 0 ? null : `${l.count}/${l.sequence}`,
    };
  }
  async swapLike(
    postId: string,
    commentId: string,
    user: string,
    next: { since: number | null; count: number },
    seen: CommentLikeState,
  ) {
    const key = `${postId}/${commentId}`;
    const l = this.likesOf(key);
    const row = this.rows.get(key);
    if (row?.deleted !== undefined) return false;
    if ((l.sequence === 0 ? null : `${l.count}/${l.sequence}`) !== seen.version) return false;
    l.likers.set(user, next.since);
    l.count = Math.max(0, next.count);
    l.sequence++;
    return true;
  }
  async create(c: Comment) {
    if (this.rows.has(`${c.postId}/${c.id}`)) return false;
    this.rows.set(`${c.postId}/${c.id}`, { comment: c });
    return true;
  }
  async lookup(postId: string, id: string): Promise<CommentLookup> {
    const row = this.rows.get(`${postId}/${id}`);
    if (!row) return { state: 'absent' };
    return row.deleted === undefined && row.comment ? { state: 'live', comment: row.comment } : { state: 'deleted' };
  }
  async markDeleted(postId: string, id: string, at: number) {
    const row = this.rows.get(`${postId}/${id}`);
    if (!row || row.deleted !== undefined) return false;
    row.deleted = at;
    return true;
  }
  async dropContent(postId: string, id: string) {
    const row = this.rows.get(`${postId}/${id}`);
    if (row) delete row.comment;
  }
  /** Per top-level comment ("postId/commentId"): its thread summary and a sequence, as the adapter's m:r cell. */
  readonly threads = new Map<string, { count: number; preview: ThreadEntry[]; sequence: number }>();
  /** Per top-level comment: its thread's index entries (reply id → author). */
  readonly threadIndex = new Map<string, Map<string, string>>();
  private withLikes(k: string, c: Comment, reader?: string): Comment {
    const l = this.likes.get(k);
    const liked = reader !== undefined && (l?.likers.get(reader) ?? null) !== null;
    return { ...c, likes: { count: l?.count ?? 0, liked } };
  }
  async list(
    postId: string,
    order: CommentOrder,
    limit: number,
    cursor?: string,
    reader?: string,
  ): Promise<Page<ListedComment>> {
    const all = [...this.rows]
      // Top-level comments, and deleted rows (a placeholder while replies remain); never a reply.
      .filter(([k, r]) => k.startsWith(`${postId}/`) && !r.comment?.root)
      .flatMap(([k, r]): ListedComment[] => {
        const t = this.threads.get(k);
        const thread = { count: t?.count ?? 0, preview: t?.preview ?? [] };
        if (r.comment) return [{ ...this.withLikes(k, r.comment, reader), thread }];
        const id = k.slice(postId.length + 1);
        return thread.count > 0
          ? [{ id, postId, author: '', body: '', createdAt: commentCreatedAt(id), deleted: true, thread }]
          : [];
      });
    all.sort((a, b) => (a.id < b.id ? -1 : 1));
    if (order === 'newest') all.reverse();
    const start = cursor ? all.findIndex((c) => (order === 'newest' ? c.id < cursor : c.id > cursor)) : 0;
    const from = start < 0 ? all.length : start;
    const items = all.slice(from, from + limit);
    return { items, ...(from + limit < all.length ? { nextCursor: items.at(-1)!.id } : {}) };
  }
  async listThreadEntry(postId: string, root: string, entry: ThreadEntry) {
    const k = `${postId}/${root}`;
    const index = this.threadIndex.get(k) ?? new Map<string, string>();
    index.set(entry.id, entry.author);
    this.threadIndex.set(k, index);
  }
  async unlistThreadEntry(postId: string, root: string, replyId: string) {
    this.threadIndex.get(`${postId}/${root}`)?.delete(replyId);
  }
  private threadVersion = (t?: { count: number; preview: ThreadEntry[]; sequence: number }) =>
    t ? `${t.count}/${t.sequence}/${t.preview.map((e) => `${e.id}:${e.author}`).join(',')}` : null;
  async threadState(postId: string, root: string): Promise<ThreadState | null> {
    const k = `${postId}/${root}`;
    if (!this.rows.has(k)) return null;
    const t = this.threads.get(k);
    return { count: t?.count ?? 0, preview: t?.preview ?? [], version: this.threadVersion(t) };
  }
  async swapThread(postId: string, root: string, next: ThreadSummary, seen: ThreadState) {
    const k = `${postId}/${root}`;
    const t = this.threads.get(k);
    if (this.threadVersion(t) !== seen.version) return false;
    this.threads.set(k, { count: Math.max(0, next.count), preview: next.preview, sequence: (t?.sequence ?? 0) + 1 });
    return true;
  }
  async threadEntries(postId: string, root: string, limit: number, cursor?: string): Promise<Page<ThreadEntry>> {
    const all = [...(this.threadIndex.get(`${postId}/${root}`) ?? new Map<string, string>())]
      .map(([id, author]) => ({ id, author }))
      .filter((e) => !cursor || e.id > cursor)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const items = all.slice(0, limit);
    return { items, ...(all.length > limit ? { nextCursor: items.at(-1)!.id } : {}) };
  }
  async readMany(postId: string, ids: string[], reader?: string) {
    return ids.toSorted().flatMap((id) => {
      const k = `${postId}/${id}`;
      const row = this.rows.get(k);
      return row?.comment && row.deleted === undefined ? [this.withLikes(k, row.comment, reader)] : [];
    });
  }
  async purge(postId: string, limit: number) {
    const doomed = [...this.rows.keys()].filter((k) => k.startsWith(`${postId}/`)).slice(0, limit);
    for (const k of doomed) this.rows.delete(k);
    return doomed.length;
  }
  /** The authors' index, as the adapter keeps it: "author|since|postId|commentId" per entry. */
  readonly writtenEntries = new Set<string>();
  private static entry = (c: Pick<Comment, 'author' | 'postId' | 'id' | 'createdAt'>) =>
    `${c.author}|${c.createdAt}|${c.postId}|${c.id}`;
  async listWritten(c: Pick<Comment, 'author' | 'postId' | 'id' | 'createdAt'>) {
    this.writtenEntries.add(FakeComments.entry(c));
  }
  async unlistWritten(c: Pick<Comment, 'author' | 'postId' | 'id' | 'createdAt'>) {
    this.writtenEntries.delete(FakeComments.entry(c));
  }
  /** A page of the author's entries (newest first), each confirmed by its comment: one never landed or deleted is skipped. */
  async writtenBy(author: string, limit: number, after?: WrittenPosition) {
    const order = (a: WrittenPosition) => `${String(9e15 - a.since).padStart(16, '0')}/${a.postId}~${a.commentId}`;
    const entries = [...this.writtenEntries]
      .map((e) => e.split('|') as [string, string, string, string])
      .filter(([by]) => by === author)
      .map(([, since, postId, commentId]): WrittenPosition => ({ since: Number(since), postId, commentId }))
      .toSorted((a, b) => (order(a) < order(b) ? -1 : 1))
      .filter((e) => !after || order(e) > order(after));
    const page = entries.slice(0, limit);
    const items = page.flatMap((e) => {
      const row = this.rows.get(`${e.postId}/${e.commentId}`);
      return row?.comment && row.deleted === undefined && row.comment.author === author ? [row.comment] : [];
    });
    return entries.length > limit ? { items, next: page.at(-1)! } : { items };
  }
}

export class FakeQuota implements WriteQuota {
  readonly counts = new Map<string, number>();
  async take(user: string, action: WriteAction, window: number) {
    const k = `${user}/${action}/${window}`;
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    return this.counts.get(k)!;
  }
}

/** GroupStore in memory: books with a version each, and the holders index. */
export class FakeGroups implements GroupStore {
  private readonly books = new Map<string, ReadBook>();
  private readonly index = new Map<string, Set<string>>();
  async read(owner: string): Promise<ReadBook> {
    return this.books.get(owner) ?? { book: withSpecial([]), version: null };
  }
  async members(owner: string, groupId: string): Promise<string[] | null> {
    const group = (await this.read(owner)).book.groups.find((g) => g.id === groupId);
    return group ? [...group.members.keys()] : null;
  }
  async commit(owner: string, seen: ReadBook, next: GroupBook): Promise<boolean> {
    if ((await this.read(owner)).version !== seen.version) return false;
    this.books.set(owner, { book: next, version: String(Number(seen.version ?? 0) + 1) });
    return true;
  }
  async holders(member: string): Promise<Holding[]> {
    return [...(this.index.get(member) ?? [])].map((k) => {
      const [owner, groupId] = k.split('/');
      return { owner: owner!, groupId: groupId! };
    });
  }
  async addHoldings(member: string, holdings: Holding[]): Promise<void> {
    const set = this.index.get(member) ?? new Set();
    for (const h of holdings) set.add(`${h.owner}/${h.groupId}`);
    this.index.set(member, set);
  }
  async removeHoldings(member: string, holdings: Holding[]): Promise<void> {
    for (const h of holdings) this.index.get(member)?.delete(`${h.owner}/${h.groupId}`);
  }
  async told(): Promise<void> {}
  async toldOf(): Promise<{ postId: string; fan: string }[]> {
    return [];
  }
  async forgetMember(): Promise<void> {}
  async eraseBook(owner: string): Promise<void> {
    this.books.delete(owner);
  }
}

export const testLimits: FeedLimits = {
  fanoutChunkSize: 2,
  fanoutChunksPerMessage: 2,
  backfillLimit: 3,
  inboxCap: 5,
  maxFollowing: 3,
  celebrityFollowers: 100,
  inactiveAfterMs: 30 * 86_400_000,
  settleSeconds: 60,
  writesPerMinute: { comment: 3, like: 5, repost: 3 },
};

export function fakeFeed(...handles: string[]) {
  const outbox = new FakeOutbox();
  const counters = new FakeCounters();
  const users = Object.assign(new FakeUsers(...handles), { counts: counters });
  const deps = {
    users,
    posts: new FakePosts(),
    idempotency: new FakeIdempotency(),
    relations: new FakeRelations(),
    outbox,
    celebrities: new FakeCelebrities(),
    inbox: new FakeInbox(),
    counters,
    reactions: new FakeReactions(),
    comments: new FakeComments(),
    quota: new FakeQuota(),
    blocks: new FakeBlocks(),
    notifications: new FakeNotifications(),
    topics: new FakeTopics(),
    search: new FakeSearchIndex(),
    hot: new FakeHotStore(),
    groups: new FakeGroups(),
    queue: new FakeQueue(),
    limits: { ...testLimits },
    /** Pictures in posts: a test that posts pictures sets it (fakes/media.ts). */
    pictures: undefined as Pictures | undefined,
    /** Tests force interleavings by setting this (shared/use-cases/steps.ts). */
    step: undefined as StepHook | undefined,
  };
  return deps satisfies FeedDeps;
}

/** Delivers queued messages (delayed ones and continuations included) until the queue is empty. */
export async function drain(deps: ReturnType<typeof fakeFeed>): Promise<number> {
  let handled = 0;
  while (deps.queue.sent.length > 0) {
    await handleFanoutMessage(deps, deps.queue.sent.shift()!);
    deps.queue.delays.shift();
    handled++;
  }
  return handled;
}
