// shared/adapters/hbase/hbase-post-store.ts — PostStore and IdempotencyStore on HBase (secondary
// adapters). Layout and access patterns: shared/schema/tables.ts (content, idempotency).
import { InvalidInputError } from '../../domain/errors.js';
import { keyFromPostId, postIdFromKey, type Post } from '../../domain/post.js';
import { bytesToString, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type { IdempotencyStore, Page, PostStore } from '../../ports/feed-store.js';
import { authorPostsBoundary, idempotencyKey, keyAfter, parsePostKey, userKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellValue } from './cells.js';

/** A content row as a Post; null for a row that is not a whole post (never written by create). */
function postFromRow(row: HBaseRow | null): Post | null {
  if (!row) return null;
  const body = cellValue(row, 'p:b');
  const createdAt = cellValue(row, 'p:t');
  if (body === undefined || createdAt === undefined) return null;
  try {
    // Author and id come from the key, the one thing a put cannot get wrong.
    return {
      id: postIdFromKey(row.key),
      author: parsePostKey(row.key).author,
      body: bytesToString(body),
      createdAt: Number(bytesToString(createdAt)),
    };
  } catch {
    return null;
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export class HBasePostStore implements PostStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'content');
  }

  async create(post: Post, idempotencyKey?: string): Promise<boolean> {
    const key = keyFromPostId(post.id);
    if (!key) throw new TypeError(`not a post id: ${JSON.stringify(post.id)}`);
    // Put-if-absent on p:t: two posts that drew the same id (same author, millisecond and
    // random suffix) can never overwrite each other; the loser retries with a new suffix.
    return this.client.checkAndPut(
      this.table,
      key,
      [
        { column: 'p:b', value: post.body },
        { column: 'p:t', value: String(post.createdAt) },
        ...(idempotencyKey === undefined ? [] : [{ column: 'p:i', value: idempotencyKey }]),
      ],
      { column: 'p:t', value: null },
    );
  }

  async get(id: string): Promise<Post | null> {
    const key = keyFromPostId(id);
    if (!key) return null;
    return postFromRow(await this.client.getRow(this.table, key, { columns: ['p'] }));
  }

  async getMany(ids: string[]): Promise<Post[]> {
    const keys = new Map<string, Uint8Array>();
    for (const id of ids) {
      const key = keyFromPostId(id);
      if (key) keys.set(hex(key), key);
    }
    if (keys.size === 0) return [];
    // One multi-get (the client splits only past 100 keys); the server answers only the rows
    // it found, so the order of `ids` is restored by key.
    const rows = await this.client.multiGet(this.table, [...keys.values()], { columns: ['p'] });
    const found = new Map<string, Post>();
    for (const row of rows) {
      const post = postFromRow(row);
      if (post) found.set(hex(row.key), post);
    }
    const out: Post[] = [];
    for (const k of keys.keys()) {
      const post = found.get(k);
      if (post) out.push(post);
    }
    return out;
  }

  async delete(id: string): Promise<void> {
    const key = keyFromPostId(id);
    if (key) await this.client.deleteRow(this.table, key);
  }

  async listByAuthor(author: string, limit: number, cursor?: string): Promise<Page<Post>> {
    const prefix = userKey(author);
    let startRow: Uint8Array | undefined;
    if (cursor !== undefined) {
      const key = keyFromPostId(cursor);
      // A cursor of another author would start the scan outside this author's key range.
      if (!key || parsePostKey(key).author !== author) {
        throw new InvalidInputError('cursor is not a post of this author', 'invalid_cursor');
      }
      startRow = keyAfter(key);
    }
    // One more row than asked tells whether a next page exists without a second request.
    const rows = await this.scanPosts({ prefix, ...(startRow ? { startRow } : {}), limit: limit + 1 });
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return rows.length > limit && last ? { items, nextCursor: last.id } : { items };
  }

  async recentByAuthor(author: string, limit: number, notOlderThan?: number): Promise<Post[]> {
    if (limit <= 0) return [];
    // Newest-first keys: stopping at the author's revTs(notOlderThan) bounds the scan by time
    // as well as by prefix and limit, so its cost never depends on the table or the author's
    // history.
    return this.scanPosts({
      prefix: userKey(author),
      ...(notOlderThan === undefined ? {} : { stopRow: authorPostsBoundary(author, notOlderThan) }),
      limit,
    });
  }

  private async scanPosts(opts: { prefix: Uint8Array; startRow?: Uint8Array; stopRow?: Uint8Array; limit: number }): Promise<Post[]> {
    const posts: Post[] = [];
    for await (const row of this.client.scan(this.table, { ...opts, columns: ['p'], pageSize: opts.limit })) {
      const post = postFromRow(row);
      if (post) posts.push(post);
    }
    return posts;
  }
}

export class HBaseIdempotencyStore implements IdempotencyStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'idempotency');
  }

  async claim(author: string, key: string, postId: string): Promise<string | null> {
    const row = idempotencyKey(author, key);
    // The TTL can expire the claim between a lost put-if-absent and our read; then the key is
    // free again and the next attempt claims it.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.client.checkAndPut(this.table, row, [{ column: 'k:p', value: postId }], { column: 'k:p', value: null })) {
        return null;
      }
      const earlier = cellValue(await this.client.getRow(this.table, row, { columns: ['k:p'] }), 'k:p');
      if (earlier !== undefined && earlier.length > 0) return bytesToString(earlier);
    }
    throw new Error('idempotency key could be neither claimed nor read');
  }
}
