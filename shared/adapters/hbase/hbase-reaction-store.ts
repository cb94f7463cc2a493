// shared/adapters/hbase/hbase-reaction-store.ts — ReactionStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (reactions = the user side and source of
// truth, reactors = the post side; lists for the newest-first likers list).
import { keyFromPostId } from '../../schema/row-keys.js';
import { bytesToString, type HBaseRestClient } from '../../hbase/index.js';
import type { ListPage, ListPosition } from '../../ports/feed-store.js';
import type { BookmarkPosition, Liker, ReactionStore, ViewerState } from '../../ports/reaction-store.js';
import {
  keyAfter,
  parsePostKey,
  postIdFromKey,
  reactionKey,
  reactorKey,
  reactorPrefix,
  userKey,
} from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, cellValue, postKeyOf } from './cells.js';
import { ListIndex } from './list-index.js';

const LIKED = 'l:t';
/** 收藏: bookmarked-at millis (present = bookmarked), on the same row as the like. */
const BOOKMARKED = 'b:t';
const PLAIN_REPOST = 'r:p';
const SINCE = 'e:t';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A bookmark's entries: the user's list (K), and the post's reverse one (k: who bookmarked it, read only by the erasure). */
const bookmarkEntries = (user: string, postId: string, since: number) => [
  { owner: user, kind: 'K' as const, since, other: postId },
  { owner: postId, kind: 'k' as const, since, other: user },
];

const sinceOf = (value: Uint8Array | undefined): number | null => {
  const n = value === undefined ? NaN : Number(bytesToString(value));
  return Number.isSafeInteger(n) ? n : null;
};

export class HBaseReactionStore implements ReactionStore {
  private readonly reactions: string;
  private readonly reactors: string;
  private readonly lists: ListIndex;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.reactions = qualifiedTableName(namespace, 'reactions');
    this.reactors = qualifiedTableName(namespace, 'reactors');
    this.lists = new ListIndex(client, namespace);
  }

  like(user: string, postId: string, at: number): Promise<boolean> {
    // Put-if-absent: of racing likes by one user (the author too) exactly one wins and counts.
    return this.client.checkAndPut(
      this.reactions,
      reactionKey(user, postKeyOf(postId)),
      [{ column: LIKED, value: String(at) }],
      {
        column: LIKED,
        value: null,
      },
    );
  }

  async likeSince(user: string, postId: string): Promise<number | null> {
    return sinceOf(
      cellValue(
        await this.client.getRow(this.reactions, reactionKey(user, postKeyOf(postId)), { columns: [LIKED] }),
        LIKED,
      ),
    );
  }

  unlike(user: string, postId: string, since: number): Promise<boolean> {
    // Only while l:t still holds the since read: of racing unlikes exactly one wins and uncounts.
    return this.client.checkAndDelete(this.reactions, reactionKey(user, postKeyOf(postId)), {
      column: LIKED,
      value: String(since),
    });
  }

  async viewerState(user: string, postIds: string[]): Promise<Map<string, ViewerState>> {
    const byKey = new Map<string, string>();
    for (const id of postIds) {
      const key = keyFromPostId(id);
      if (key) byKey.set(hex(reactionKey(user, key)), id);
    }
    const out = new Map<string, ViewerState>();
    if (byKey.size === 0) return out;
    const keys = [...byKey.keys()].map((k) => Uint8Array.from(Buffer.from(k, 'hex')));
    // One multi-get for the whole page (posts and their originals).
    for (const row of await this.client.multiGet(this.reactions, keys, { columns: ['l', 'r', 'b'] })) {
      const id = byKey.get(hex(row.key));
      if (!id) continue;
      const liked = cellValue(row, LIKED) !== undefined;
      // r:p is only the plain-repost claim; a live repost is an r:<repost id> cell.
      const reposted = row.cells.some((c) => c.family === 'r' && bytesToString(c.qualifier) !== 'p');
      const bookmarkedAt = sinceOf(cellValue(row, BOOKMARKED));
      out.set(id, { liked, reposted, ...(bookmarkedAt === null ? {} : { bookmarkedAt }) });
    }
    return out;
  }

  bookmark(user: string, postId: string, at: number): Promise<boolean> {
    // Put-if-absent: of racing bookmarks by one user exactly one wins (its list entry is the one kept).
    return this.client.checkAndPut(
      this.reactions,
      reactionKey(user, postKeyOf(postId)),
      [{ column: BOOKMARKED, value: String(at) }],
      {
        column: BOOKMARKED,
        value: null,
      },
    );
  }

  async bookmarkSince(user: string, postId: string): Promise<number | null> {
    return sinceOf(
      cellValue(
        await this.client.getRow(this.reactions, reactionKey(user, postKeyOf(postId)), { columns: [BOOKMARKED] }),
        BOOKMARKED,
      ),
    );
  }

  unbookmark(user: string, postId: string, since: number): Promise<boolean> {
    return this.client.checkAndDelete(this.reactions, reactionKey(user, postKeyOf(postId)), {
      column: BOOKMARKED,
      value: String(since),
    });
  }

  async listBookmark(user: string, postId: string, since: number, replacing?: number): Promise<void> {
    await Promise.all([
      this.lists.put(bookmarkEntries(user, postId, since)),
      replacing === undefined || replacing === since
        ? undefined
        : this.lists.remove(bookmarkEntries(user, postId, replacing)),
    ]);
  }

  unlistBookmark(user: string, postId: string, since: number): Promise<void> {
    return this.lists.remove(bookmarkEntries(user, postId, since));
  }

  async likedBy(
    user: string,
    limit: number,
    after?: string,
  ): Promise<{ items: { postId: string; since: number }[]; next?: string }> {
    const prefix = userKey(user);
    const startRow = after ? keyAfter(reactionKey(user, postKeyOf(after))) : prefix;
    const items: { postId: string; since: number }[] = [];
    let more = false;
    // Only l:t is asked for: a row of a repost or a bookmark alone has none and is not returned.
    for await (const row of this.client.scan(this.reactions, {
      prefix,
      startRow,
      columns: [LIKED],
      limit: limit + 1,
      pageSize: Math.min(limit + 1, 500),
    })) {
      if (items.length === limit) {
        more = true;
        break;
      }
      const since = cellText(row, LIKED);
      if (since !== undefined)
        items.push({ postId: postIdFromKey(row.key.subarray(prefix.length)), since: Number(since) });
    }
    const last = items.at(-1);
    return more && last ? { items, next: last.postId } : { items };
  }

  bookmarks(
    user: string,
    limit: number,
    after?: BookmarkPosition,
  ): Promise<{ items: BookmarkPosition[]; next?: BookmarkPosition }> {
    return this.lists.bookmarkPage(user, limit, after);
  }

  async addLiker(postId: string, user: string, since: number, replacing?: number): Promise<void> {
    // The reactors row and the list entry side by side (two tables: one round trip). Both come
    // before the truth (likes.ts), so neither is ever missing for a true like.
    const entry = (at: number) => ({ owner: postId, kind: 'L' as const, since: at, other: user });
    await Promise.all([
      this.client.put(this.reactors, [
        { key: reactorKey(postKeyOf(postId), 'L', userKey(user)), cells: [{ column: SINCE, value: String(since) }] },
      ]),
      this.lists.put([entry(since)]),
      replacing === undefined || replacing === since ? undefined : this.lists.remove([entry(replacing)]),
    ]);
  }

  async removeLiker(postId: string, user: string, since: number): Promise<void> {
    // On the since the unlike removed: a like that slipped in after it has its own and keeps it
    // (its list entry, too: the since is part of the entry's key).
    await Promise.all([
      this.client.checkAndDelete(this.reactors, reactorKey(postKeyOf(postId), 'L', userKey(user)), {
        column: SINCE,
        value: String(since),
      }),
      this.lists.remove([{ owner: postId, kind: 'L', since, other: user }]),
    ]);
  }

  likers(postId: string, limit: number, after?: ListPosition): Promise<ListPage<Liker>> {
    return this.lists.page(postId, 'L', limit, after);
  }

  async likeSinces(postId: string, users: string[]): Promise<Map<string, number>> {
    const post = postKeyOf(postId);
    const byKey = new Map(users.map((u) => [hex(reactionKey(u, post)), u]));
    const rows =
      users.length === 0
        ? []
        : await this.client.multiGet(
            this.reactions,
            users.map((u) => reactionKey(u, post)),
            { columns: [LIKED] },
          );
    const out = new Map<string, number>();
    for (const row of rows) {
      const user = byKey.get(hex(row.key));
      const since = sinceOf(cellValue(row, LIKED));
      if (user !== undefined && since !== null) out.set(user, since);
    }
    return out;
  }

  async claimPlainRepost(
    user: string,
    originalId: string,
    repostId: string,
    replacing?: string,
  ): Promise<string | null | false> {
    const key = reactionKey(user, postKeyOf(originalId));
    const cells = [{ column: PLAIN_REPOST, value: repostId }];
    if (replacing !== undefined) {
      // Check-and-put on the old id: of racing replacements exactly one takes the claim over.
      return (await this.client.checkAndPut(this.reactions, key, cells, { column: PLAIN_REPOST, value: replacing }))
        ? null
        : false;
    }
    if (await this.client.checkAndPut(this.reactions, key, cells, { column: PLAIN_REPOST, value: null })) return null;
    return cellText(await this.client.getRow(this.reactions, key, { columns: [PLAIN_REPOST] }), PLAIN_REPOST) ?? false;
  }

  async addRepost(user: string, originalId: string, repostId: string, at: number): Promise<void> {
    const original = postKeyOf(originalId);
    const since = String(at);
    await Promise.all([
      this.client.put(this.reactions, [
        { key: reactionKey(user, original), cells: [{ column: `r:${repostId}`, value: '' }] },
      ]),
      this.client.put(this.reactors, [
        { key: reactorKey(original, 'R', postKeyOf(repostId)), cells: [{ column: SINCE, value: since }] },
      ]),
    ]);
  }

  async reposters(originalId: string, limit: number): Promise<string[]> {
    // The post side's 'R' rows: one per live repost, keyed by the repost's post key (its author
    // first). A bounded scan; a reposter who reposted twice is named once.
    const prefix = reactorPrefix(postKeyOf(originalId), 'R');
    const authors = new Set<string>();
    for await (const row of this.client.scan(this.reactors, { prefix, columns: [SINCE], limit, pageSize: limit })) {
      try {
        authors.add(parsePostKey(row.key.subarray(prefix.length)).author);
      } catch {
        /* not a repost row */
      }
    }
    return [...authors];
  }

  async removeRepost(user: string, originalId: string, repostId: string): Promise<void> {
    const original = postKeyOf(originalId);
    await Promise.all([
      this.client.deleteColumn(this.reactions, reactionKey(user, original), `r:${repostId}`),
      this.client.deleteRow(this.reactors, reactorKey(original, 'R', postKeyOf(repostId))),
    ]);
  }
}
