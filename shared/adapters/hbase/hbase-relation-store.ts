// shared/adapters/hbase/hbase-relation-store.ts — RelationStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (relations, and lists for the
// newest-first following / followers lists).
import { bytesToString, type HBaseRestClient } from '../../hbase/index.js';
import type {
  AudienceMember,
  Edge,
  ListPage,
  ListPosition,
  Page,
  RelationStore,
  Segment,
} from '../../ports/feed-store.js';
import {
  relationKey,
  relationPrefix,
  saltOfKey,
  segmentSalts,
  userKey,
  type EdgeDirection,
} from '../../schema/row-keys.js';
import { HANDLE_PATTERN } from '../../domain/handle.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { AudiencePacks, CLOCK_SKEW_MS, invalidateAudience } from './audience-packs.js';
import { cellValue, edgePage } from './cells.js';
import { ListIndex, type ListEntry } from './list-index.js';

const SINCE = 'e:t';
/** On a followers-side row: the reader is away (value = the m:seen the sweep judged); empty = back. */
const AWAY = 'e:away';
/** A followers-side row goes whole (e:t and its away mark): a later follow's row starts unmarked. */
const WHOLE_ROW = { deleteColumns: ['e'] };

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** An edge's two list entries: in the follower's following list and the followee's followers list. */
const listEntries = (follower: string, followee: string, since: number): ListEntry[] => [
  { owner: follower, kind: 'F', since, other: followee },
  { owner: followee, kind: 'R', since, other: follower },
];

/** The settle window W the deployed stages use (SETTLE_SECONDS' default), for stores built without one. */
const DEPLOYED_SETTLE_MS = 60_000;

export class HBaseRelationStore implements RelationStore {
  private readonly table: string;
  private readonly lists: ListIndex;
  private readonly packs: AudiencePacks;
  /**
   * `settleMs`: the settle window W, which bounds how long a writer takes from a pack's version to
   * its row (invariant N); `now`: the clock that judges a version quiet (tests move it).
   */
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
    opts: { settleMs?: number; now?: () => number } = {},
  ) {
    this.table = qualifiedTableName(namespace, 'relations');
    this.lists = new ListIndex(client, namespace);
    this.packs = new AudiencePacks(client, this.table, (opts.settleMs ?? DEPLOYED_SETTLE_MS) + CLOCK_SKEW_MS, opts.now);
  }

  async follow(follower: string, followee: string, at: number): Promise<boolean> {
    const forward = relationKey(follower, 'F', followee);
    const entries = listEntries(follower, followee, at);
    // The list entries before the edge, so an edge never lacks them (invariant K); until the
    // edge holds their since they are not shown. The followee's packed audience is told before
    // 'R' is written (invariant N): a pack built without our row no longer matches.
    await Promise.all([this.lists.put(entries), this.invalidate([{ followee, follower }])]);
    // The 'F' row is the source of truth and its put-if-absent picks exactly one winner among
    // racing follows, so counters and backfill run once. Only the winner writes the 'R' side;
    // if it dies in between, the pair's settle restores 'R' from 'F' (HBase is atomic per row only).
    if (
      !(await this.client.checkAndPut(this.table, forward, [{ column: SINCE, value: String(at) }], {
        column: SINCE,
        value: null,
      }))
    ) {
      // A repeat: our entries go, unless the edge holds our since (a racing follow in the same
      // millisecond wrote the same entries and won).
      if ((await this.since(forward)) !== at) await this.lists.remove(entries);
      return false;
    }
    await this.client.put(this.table, [
      { key: relationKey(followee, 'R', follower), cells: [{ column: SINCE, value: String(at) }] },
    ]);
    return true;
  }

  async unfollow(follower: string, followee: string, known?: number): Promise<boolean> {
    const forward = relationKey(follower, 'F', followee);
    // The since exactly as follow() wrote it (String(at)): the check below compares bytes.
    const since =
      known !== undefined
        ? new TextEncoder().encode(String(known))
        : cellValue(await this.client.getRow(this.table, forward, { columns: [SINCE] }), SINCE);
    if (since === undefined) return false;
    // Deleting only while e:t still holds what we read makes exactly one of several racing
    // unfollows the winner (the others see 304), so the counters move once. The followee's
    // packed audience is told beside it, well before 'R' goes (invariant N); a loser's telling
    // costs a pack rebuild, nothing else.
    const [won] = await Promise.all([
      this.client.checkAndDelete(this.table, forward, { column: SINCE, value: since }),
      this.invalidate([{ followee, follower }]),
    ]);
    if (!won) return false;
    // Same condition on the 'R' side: if a refollow slipped in after our delete of 'F', it has
    // rewritten 'R' with its own since, and a plain delete would drop the new edge from fan-out
    // until the settle ran. Its list entries carry its since in their keys, so ours go alone.
    // The entries first, as in removeFollowerSide: a crash before 'R' leaves it to the settle.
    const at = Number(bytesToString(since));
    if (Number.isSafeInteger(at)) await this.lists.remove(listEntries(follower, followee, at));
    await this.client.checkAndDelete(
      this.table,
      relationKey(followee, 'R', follower),
      { column: SINCE, value: since },
      WHOLE_ROW,
    );
    return true;
  }

  /** Before a followers-side row is written (invariant N). */
  private invalidate(pairs: { followee: string; follower: string }[]): Promise<void> {
    return invalidateAudience(this.client, this.table, pairs);
  }

  async isFollowing(follower: string, followee: string): Promise<boolean> {
    return (await this.edge(follower, followee)) !== null;
  }

  async edge(follower: string, followee: string): Promise<Edge | null> {
    const since = await this.since(relationKey(follower, 'F', followee));
    return since === null ? null : { handle: followee, since };
  }

  followerSide(follower: string, followee: string): Promise<number | null> {
    return this.since(relationKey(followee, 'R', follower));
  }

  async restoreFollowerSide(follower: string, followee: string, since: number): Promise<void> {
    // The follow wrote the list entries before the edge; written again here (idempotent), an
    // entry lost some other way (a same-millisecond unfollow → refollow) comes back with 'R'.
    await Promise.all([
      this.lists.put(listEntries(follower, followee, since)),
      this.invalidate([{ followee, follower }]),
    ]);
    await this.client.put(this.table, [
      { key: relationKey(followee, 'R', follower), cells: [{ column: SINCE, value: String(since) }] },
    ]);
  }

  async removeFollowerSide(follower: string, followee: string, since: number): Promise<boolean> {
    // The entries first, 'R' last: if we die in between, 'R' is still there for the settle to
    // find and remove (with the entries again). Only this since's entries go: a refollow's stay.
    await Promise.all([
      this.lists.remove(listEntries(follower, followee, since)),
      this.invalidate([{ followee, follower }]),
    ]);
    return this.client.checkAndDelete(
      this.table,
      relationKey(followee, 'R', follower),
      { column: SINCE, value: String(since) },
      WHOLE_ROW,
    );
  }

  private async since(key: Uint8Array): Promise<number | null> {
    const value = cellValue(await this.client.getRow(this.table, key, { columns: [SINCE] }), SINCE);
    const since = value === undefined ? NaN : Number(bytesToString(value));
    return Number.isSafeInteger(since) ? since : null;
  }

  following(user: string, limit: number, cursor?: string): Promise<Page<Edge>> {
    return this.edges(user, 'F', limit, cursor);
  }

  followers(user: string, limit: number, cursor?: string): Promise<Page<Edge>> {
    return this.edges(user, 'R', limit, cursor);
  }

  listed(user: string, list: 'following' | 'followers', limit: number, after?: ListPosition): Promise<ListPage<Edge>> {
    return this.lists.page(user, list === 'following' ? 'F' : 'R', limit, after);
  }

  sampleEdges(at: number, limit: number): Promise<{ follower: string; followee: string; since: number }[]> {
    return this.lists.followSample(at, limit);
  }

  async followSinces(edges: { follower: string; followee: string }[]): Promise<(number | null)[]> {
    if (edges.length === 0) return [];
    const keys = edges.map((e) => relationKey(e.follower, 'F', e.followee));
    const found = new Map<string, number>();
    for (const row of await this.client.multiGet(this.table, keys, { columns: [SINCE] })) {
      const value = cellValue(row, SINCE);
      const since = value === undefined ? NaN : Number(bytesToString(value));
      if (Number.isSafeInteger(since)) found.set(hex(row.key), since);
    }
    return keys.map((k) => found.get(hex(k)) ?? null);
  }

  async audience(
    author: string,
    limit: number,
    opts: { cursor?: string; segment?: Segment } = {},
  ): Promise<Page<AudienceMember>> {
    for await (const page of this.audiencePages(author, { ...opts, pageSize: limit, pages: 1 })) return page;
    return { items: [] };
  }

  async *audiencePages(
    author: string,
    opts: { cursor?: string; segment?: Segment; pageSize: number; pages: number },
  ): AsyncIterable<Page<AudienceMember>> {
    const salts = opts.segment ? segmentSalts(opts.segment.index, opts.segment.of) : segmentSalts(0, 1);
    let from: { salt: number; handle: string } | undefined;
    if (opts.cursor !== undefined) {
      // The cursor is this adapter's own (a fan-out message carries it on): not a client's input.
      if (!HANDLE_PATTERN.test(opts.cursor))
        throw new RangeError(`audience cursor is not a handle: ${JSON.stringify(opts.cursor)}`);
      from = { salt: saltOfKey(userKey(opts.cursor)), handle: opts.cursor };
    }
    // The packed audience (invariant N): one multi-get of the blocks' packs, a scan only where a
    // block's pack is missing or out of date. Pages of pageSize; the last page of a message that
    // leaves followers unread says where the next message starts.
    const members = this.packs.members(author, salts, from);
    const max = opts.pageSize * opts.pages;
    // The last page may take this many more where that ends the list: a few followers past the
    // bound are not worth a message (an invocation) of their own.
    const tail = Math.floor(opts.pageSize / 4);
    let buffered: AudienceMember[] = [];
    let sent = 0;
    try {
      for await (const batch of members) {
        for (const m of batch) buffered.push({ handle: m.handle, away: m.away });
        for (;;) {
          const last = sent + opts.pageSize >= max;
          // More in hand than this page may hold: it is not the list's last page.
          if (buffered.length <= opts.pageSize + (last ? tail : 0)) break;
          const items = buffered.slice(0, opts.pageSize);
          buffered = buffered.slice(opts.pageSize);
          sent += items.length;
          if (last) {
            yield { items, nextCursor: items.at(-1)!.handle };
            return;
          }
          yield { items };
        }
      }
      if (buffered.length > 0) yield { items: buffered };
    } finally {
      await members.return(); // a stopped walk: the packs it began are finished and written
    }
  }

  async markAway(reader: string, followees: string[], since: number): Promise<void> {
    if (followees.length === 0) return;
    await this.invalidate(followees.map((followee) => ({ followee, follower: reader }))); // before the rows (invariant N)
    await this.client.put(
      this.table,
      followees.map((f) => ({ key: relationKey(f, 'R', reader), cells: [{ column: AWAY, value: String(since) }] })),
    );
  }

  async clearAway(reader: string, followees: string[]): Promise<void> {
    // An empty value, not a delete: one batch put instead of a DELETE per row (REST has no
    // multi-row delete), and a put can never be masked the way a delete masks (HBASE-3300).
    if (followees.length === 0) return;
    await this.invalidate(followees.map((followee) => ({ followee, follower: reader }))); // before the rows (invariant N)
    await this.client.put(
      this.table,
      followees.map((f) => ({ key: relationKey(f, 'R', reader), cells: [{ column: AWAY, value: '' }] })),
    );
  }

  /** One scan over `user`'s rows of one direction, ordered by the other user's key (salted, so not alphabetical). */
  private edges(user: string, direction: EdgeDirection, limit: number, cursor?: string): Promise<Page<Edge>> {
    return edgePage(this.client, this.table, relationPrefix(user, direction), SINCE, limit, cursor);
  }
}
