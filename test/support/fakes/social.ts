// test/support/fakes/social.ts — in-memory fakes of the social ports (blocks, notifications, topics)
// for unit tests of the use cases, held to their HBase adapters by the contract suites
// (test/support/contracts/social-store.contract.ts).
import type { PostSearchIndex } from '../../../shared/ports/search-index.js';
import type { HotStore } from '../../../shared/ports/hot-store.js';
import { hotBucketOf, type Engagement, type HotRanking } from '../../../shared/domain/hot.js';
import { feedOrderKey } from '../../../shared/domain/post.js';
import type { SafetyEdge } from '../../../shared/domain/visibility.js';
import type { ListPage, ListPosition, Page } from '../../../shared/ports/feed-store.js';
import type {
  BlockEdge,
  BlockKind,
  BlockStore,
  NotificationEntry,
  NotificationStore,
  TopicStore,
  Versioned,
} from '../../../shared/ports/social-store.js';
import { EMPTY_GROUP, type GroupState, type MemberInstances } from '../../../shared/domain/notification.js';

/** A newest-first list page as the list index gives it: by since descending, then handle; strictly after `after`. */
export function newestFirstPage<T extends { handle: string; since: number }>(
  entries: T[],
  limit: number,
  after?: ListPosition,
): ListPage<T> {
  const later = (e: T, p: ListPosition) => e.since < p.since || (e.since === p.since && e.handle > p.handle);
  const all = [...entries]
    .sort((x, y) => y.since - x.since || (x.handle < y.handle ? -1 : x.handle > y.handle ? 1 : 0))
    .filter((e) => !after || later(e, after));
  const items = all.slice(0, limit);
  const last = items.at(-1);
  return all.length > limit && last ? { items, next: { since: last.since, handle: last.handle } } : { items };
}

export class FakeBlocks implements BlockStore {
  readonly edges = new Map<string, number>(); // "kind:a>b" → since
  async add(kind: BlockKind, a: string, b: string, at: number) {
    if (this.edges.has(`${kind}:${a}>${b}`)) return false;
    this.edges.set(`${kind}:${a}>${b}`, at);
    return true;
  }
  async remove(kind: BlockKind, a: string, b: string) {
    return this.edges.delete(`${kind}:${a}>${b}`);
  }
  async has(kind: BlockKind, a: string, b: string) {
    return this.edges.has(`${kind}:${a}>${b}`);
  }
  async list(kind: BlockKind, a: string, limit: number, after?: ListPosition): Promise<ListPage<BlockEdge>> {
    const prefix = `${kind}:${a}>`;
    return newestFirstPage(
      [...this.edges]
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, since]) => ({ handle: k.slice(prefix.length), since })),
      limit,
      after,
    );
  }
  async sinces(kind: BlockKind, a: string, others: string[]) {
    return new Map(
      others.flatMap((o) =>
        this.edges.has(`${kind}:${a}>${o}`) ? [[o, this.edges.get(`${kind}:${a}>${o}`)!] as const] : [],
      ),
    );
  }
  async eitherBlocks(a: string, b: string) {
    return this.edges.has(`block:${a}>${b}`) || this.edges.has(`block:${b}>${a}`);
  }
  async existing(edges: SafetyEdge[]) {
    return edges.filter((e) => this.edges.has(`${e.kind}:${e.from}>${e.to}`));
  }
}

export class FakeNotifications implements NotificationStore {
  readonly members = new Map<string, MemberInstances>(); // "recipient|group|member" → instances
  readonly groups = new Map<string, GroupState>(); // "recipient|group"
  readonly listed = new Map<string, NotificationEntry & { clock: number }>(); // "recipient|at|group"
  readonly markers = new Map<string, number>();
  async member(r: string, g: string, m: string) {
    const value = this.members.get(`${r}|${g}|${m}`);
    return { value: value ?? [], version: value ? JSON.stringify(value) : null };
  }
  async swapMember(r: string, g: string, m: string, next: MemberInstances, seen: Versioned<MemberInstances>) {
    const k = `${r}|${g}|${m}`;
    const now = this.members.get(k);
    if ((now ? JSON.stringify(now) : null) !== seen.version) return false;
    this.members.set(k, next);
    return true;
  }
  readonly counted = new Map<string, boolean>();
  async group(r: string, g: string, m: string) {
    const value = this.groups.get(`${r}|${g}`);
    const counts = this.counted.get(`${r}|${g}|${m}`);
    return {
      value: value ?? { ...EMPTY_GROUP, recorded: true as const },
      version: value ? JSON.stringify(value) : null,
      ...(counts === undefined ? {} : { counts }),
    };
  }
  async swapGroup(
    r: string,
    g: string,
    next: GroupState,
    seen: Versioned<GroupState>,
    member: { handle: string; counts: boolean },
  ) {
    const k = `${r}|${g}`;
    const now = this.groups.get(k);
    if ((now ? JSON.stringify(now) : null) !== seen.version) return false;
    this.groups.set(k, next);
    this.counted.set(`${k}|${member.handle}`, member.counts);
    return true;
  }
  async list(r: string, g: string, state: GroupState, previousAt: number | null, excerpt?: string) {
    if (state.at === null) return;
    const k = `${r}|${state.at}|${g}`;
    // As the cell timestamp does on HBase: the newest state's names stay.
    if ((this.listed.get(k)?.clock ?? -1) <= state.clock) {
      this.listed.set(k, {
        groupKey: g,
        at: state.at,
        latest: state.latest,
        clock: state.clock,
        ...(excerpt === undefined ? {} : { excerpt }),
      });
    }
    if (previousAt !== null && previousAt < state.at) this.listed.delete(`${r}|${previousAt}|${g}`);
  }
  async entries(r: string, limit: number, after?: { at: number; groupKey: string }, types?: readonly string[]) {
    const all = [...this.listed]
      .filter(([k]) => k.startsWith(`${r}|`))
      .map(([, e]) => e)
      .filter((e) => !types || types.includes(e.groupKey.split('/')[0]!))
      .sort((a, b) => b.at - a.at || (a.groupKey < b.groupKey ? 1 : -1)); // a reversed scan of the text keys
    const start = after
      ? all.findIndex((e) => e.at < after.at || (e.at === after.at && e.groupKey < after.groupKey))
      : 0;
    const from = start < 0 ? all.length : start;
    const items = all.slice(from, from + limit).map(({ clock: _clock, ...entry }) => entry);
    return { items, more: from + limit < all.length };
  }
  async states(r: string, groupKeys: string[]) {
    const groups = new Map<string, GroupState>();
    for (const g of groupKeys) {
      const state = this.groups.get(`${r}|${g}`);
      if (state) groups.set(g, state);
    }
    return groups;
  }
  async readUpTo(r: string) {
    return this.markers.get(r) ?? 0;
  }
  async markRead(r: string, at: number) {
    this.markers.set(r, Math.max(at, this.markers.get(r) ?? 0));
  }
}

/** The search index's order: newest first, then by id (the HBase rows' inv13 + '/' + id). */
const searchOrder = (id: string) => `${String(9_999_999_999_999 - Number(id.split('.')[1])).padStart(13, '0')}/${id}`;

export class FakeSearchIndex implements PostSearchIndex {
  readonly index = new Map<string, string[]>(); // term → post ids, in the index's order
  async add(postId: string, terms: readonly string[]) {
    for (const t of terms) {
      const ids = [...new Set([...(this.index.get(t) ?? []), postId])];
      this.index.set(
        t,
        ids.sort((a, b) => (searchOrder(a) < searchOrder(b) ? -1 : 1)),
      );
    }
  }
  async remove(postId: string, terms: readonly string[]) {
    for (const t of terms)
      this.index.set(
        t,
        (this.index.get(t) ?? []).filter((id) => id !== postId),
      );
  }
  async posts(term: string, limit: number, after?: string): Promise<Page<string>> {
    const all = (this.index.get(term) ?? []).filter((id) => !after || searchOrder(id) > searchOrder(after));
    const items = all.slice(0, limit);
    return { items, ...(limit < all.length ? { nextCursor: items.at(-1)! } : {}) };
  }
}

export class FakeTopics implements TopicStore {
  readonly index = new Map<string, string[]>(); // topic → post ids
  readonly counts = new Map<string, number>(); // "bucket|topic" → posts
  async add(postId: string, _createdAt: number, topics: string[], trendBucket: number | null) {
    for (const t of topics) {
      this.index.set(
        t,
        [...new Set([...(this.index.get(t) ?? []), postId])].sort((a, b) =>
          feedOrderKey(a) < feedOrderKey(b) ? -1 : 1,
        ),
      );
      if (trendBucket !== null)
        this.counts.set(`${trendBucket}|${t}`, (this.counts.get(`${trendBucket}|${t}`) ?? 0) + 1);
    }
  }
  async remove(postId: string, topics: string[]) {
    for (const t of topics)
      this.index.set(
        t,
        (this.index.get(t) ?? []).filter((id) => id !== postId),
      );
  }
  /** Strictly after the cursor's place, whether or not its post is still in the topic. */
  async posts(topic: string, limit: number, cursor?: string): Promise<Page<string>> {
    const all = (this.index.get(topic) ?? []).filter((id) => !cursor || feedOrderKey(id) > feedOrderKey(cursor));
    const items = all.slice(0, limit);
    return { items, ...(limit < all.length ? { nextCursor: items.at(-1)! } : {}) };
  }
  async named(prefix: string, limit: number) {
    return [...this.index.keys()]
      .filter((name) => name.startsWith(prefix))
      .sort()
      .slice(0, limit);
  }
  async trendCounts(buckets: number[]) {
    const asked = new Set(buckets.map(String));
    const sums = new Map<string, number>();
    for (const [k, n] of this.counts) {
      const [bucket, name] = [k.slice(0, k.indexOf('|')), k.slice(k.indexOf('|') + 1)];
      if (asked.has(bucket)) sums.set(name, (sums.get(name) ?? 0) + n);
    }
    return sums;
  }
}

/** The hot store in memory: one entry per (post, person, hour), holding the latest time. */
export class FakeHotStore implements HotStore {
  readonly entries = new Map<string, Engagement>(); // "bucket|post|handle" → engagement
  stored: HotRanking | null = null;
  rankingReads = 0;
  async engaged(e: Engagement) {
    const key = `${hotBucketOf(e.at)}|${e.postId}|${e.handle}`;
    const had = this.entries.get(key);
    if (!had || had.at < e.at) this.entries.set(key, { ...e });
  }
  async engagements(buckets: readonly number[]): Promise<Engagement[]> {
    const asked = new Set(buckets);
    return [...this.entries.values()].filter((e) => asked.has(hotBucketOf(e.at))).map((e) => ({ ...e }));
  }
  async saveRanking(ranking: HotRanking) {
    this.stored = structuredClone(ranking);
  }
  async ranking(): Promise<HotRanking | null> {
    this.rankingReads++;
    return this.stored && structuredClone(this.stored);
  }
}
