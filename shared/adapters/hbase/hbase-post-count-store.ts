// shared/adapters/hbase/hbase-post-count-store.ts — PostCountStore on HBase (secondary adapter)
// for the post-count repair job. Layouts: shared/schema/tables.ts (content c:, reactions,
// reactors, comments).
//
// Requests per call:
//   countedPosts   1 scan of the content table, columns c and p:d (rows without counts are not
//                  returned), from a position to the table's end, `limit` rows
//   countSnapshot  1 multi-get (c and p:d)
//   recount        in parallel: 1 prefix scan of the post's 'L' entries + 1 multi-get of those
//                  users' likes; 1 prefix scan of its 'R' entries + 1 multi-get of those reposts;
//                  1 stateless scan of its comments (m:v and m:w only) — each ≤ max + 1 rows
//   setCountIf     1 check-and-put
import { keyFromPostId, postIdFromKey } from '../../schema/row-keys.js';
import { encodeLong, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type {
  CountedPost,
  CounterReading,
  Cursor,
  PostCounter,
  PostCountStore,
} from '../../ports/maintenance-store.js';
import { commentPrefix, handleFromKey, reactionKey, reactorPrefix } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, cellValue } from './cells.js';
import { counterReading, unchanged } from './counter-reading.js';
import { TABLE_END, decodeCursor, encodeCursor } from './cursor.js';

const DELETED = 'p:d';

function countsOf(row: HBaseRow): Record<PostCounter, CounterReading> {
  return {
    likes: counterReading(row, 'c:likes'),
    comments: counterReading(row, 'c:comments'),
    reposts: counterReading(row, 'c:reposts'),
  };
}

function postIdOf(key: Uint8Array): string | null {
  try {
    return postIdFromKey(key);
  } catch {
    return null;
  }
}

export class HBasePostCountStore implements PostCountStore {
  private readonly t: Record<'content' | 'reactions' | 'reactors' | 'comments', string>;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.t = {
      content: qualifiedTableName(namespace, 'content'),
      reactions: qualifiedTableName(namespace, 'reactions'),
      reactors: qualifiedTableName(namespace, 'reactors'),
      comments: qualifiedTableName(namespace, 'comments'),
    };
  }

  async countedPosts(opts: {
    start?: Cursor;
    limit: number;
  }): Promise<{ posts: CountedPost[]; next?: Cursor; exhausted: boolean }> {
    const posts: CountedPost[] = [];
    let last: Uint8Array | undefined;
    let read = 0;
    const rows = this.client.scan(this.t.content, {
      startRow: opts.start === undefined ? new Uint8Array(0) : decodeCursor(opts.start),
      stopRow: TABLE_END,
      limit: opts.limit,
      columns: ['c', DELETED],
      pageSize: Math.min(100, opts.limit),
    });
    for await (const row of rows) {
      read++;
      last = row.key;
      const postId = postIdOf(row.key);
      // A tombstoned post's counts no longer matter (a late increment may have left one).
      if (!postId || cellValue(row, DELETED) !== undefined || !row.cells.some((c) => c.family === 'c')) continue;
      posts.push({ postId, counts: countsOf(row) });
    }
    const exhausted = read < opts.limit;
    return { posts, ...(last && !exhausted ? { next: encodeCursor(Uint8Array.from([...last, 0])) } : {}), exhausted };
  }

  async countSnapshot(postIds: string[]): Promise<Map<string, Record<PostCounter, CounterReading>>> {
    const out = new Map<string, Record<PostCounter, CounterReading>>();
    const keys = postIds.flatMap((id) => keyFromPostId(id) ?? []);
    if (keys.length === 0) return out;
    for (const row of await this.client.multiGet(this.t.content, keys, { columns: ['c', DELETED] })) {
      const postId = postIdOf(row.key);
      if (postId && cellValue(row, DELETED) === undefined) out.set(postId, countsOf(row));
    }
    return out;
  }

  async recount(postId: string, max: number): Promise<Record<PostCounter, number> | null> {
    const post = keyFromPostId(postId);
    if (!post) return null;
    const [likes, reposts, comments] = await Promise.all([
      this.countLikes(post, max),
      this.countReposts(post, postId, max),
      this.countComments(postId, max),
    ]);
    return likes === null || reposts === null || comments === null ? null : { likes, reposts, comments };
  }

  /** Post-side entries, then their truth in one multi-get: a stale entry (its like gone) is not counted. */
  private async countLikes(post: Uint8Array, max: number): Promise<number | null> {
    const prefix = reactorPrefix(post, 'L');
    const users: string[] = [];
    for await (const row of this.client.scan(this.t.reactors, {
      prefix,
      limit: max + 1,
      columns: ['e:t'],
      pageSize: 1000,
    })) {
      try {
        users.push(handleFromKey(row.key, prefix.length).handle);
      } catch {
        // not an entry of ours
      }
    }
    if (users.length > max) return null;
    if (users.length === 0) return 0;
    const rows = await this.client.multiGet(
      this.t.reactions,
      users.map((u) => reactionKey(u, post)),
      { columns: ['l:t'] },
    );
    return rows.filter((r) => cellValue(r, 'l:t') !== undefined).length;
  }

  /** Post-side entries, then the reposts themselves: only a live repost that points here counts. */
  private async countReposts(post: Uint8Array, postId: string, max: number): Promise<number | null> {
    const prefix = reactorPrefix(post, 'R');
    const keys: Uint8Array[] = [];
    for await (const row of this.client.scan(this.t.reactors, {
      prefix,
      limit: max + 1,
      columns: ['e:t'],
      pageSize: 1000,
    }))
      keys.push(row.key.slice(prefix.length));
    if (keys.length > max) return null;
    if (keys.length === 0) return 0;
    const rows = await this.client.multiGet(this.t.content, keys, { columns: ['p:b', 'p:r', DELETED] });
    return rows.filter((r) => cellValue(r, DELETED) === undefined && cellText(r, 'p:r') === postId).length;
  }

  private async countComments(postId: string, max: number): Promise<number | null> {
    const rows = await this.client.scanText(this.t.comments, {
      prefix: commentPrefix(postId),
      limit: max + 1,
      // A top-level comment's words (m:v) or a reply's (m:w): every live comment counts, as E's count does.
      columns: ['m:v', 'm:w'],
    });
    return rows.length > max ? null : rows.length;
  }

  async setCountIf(postId: string, counter: PostCounter, expected: CounterReading, value: number): Promise<boolean> {
    const key = keyFromPostId(postId);
    const column = `c:${counter}`;
    // An absent count is checked as absent; one that is not a count is never overwritten (left for a human).
    const check = unchanged(column, expected);
    if (!key || !check) return false;
    return this.client.checkAndPut(this.t.content, key, [{ column, value: encodeLong(value) }], check);
  }
}
