// shared/adapters/hbase/hbase-post-store.ts — PostStore and IdempotencyStore on HBase (secondary
// adapters). Layout and access patterns: shared/schema/tables.ts (content, idempotency).
import { keyFromPostId, postIdFromKey } from '../../schema/row-keys.js';
import type { Post, PostCounts, PostMedia, PostVersion, StoredPost } from '../../domain/post.js';
import type { MentionPlace, MentionSpan, TopicSpan } from '../../domain/text-entities.js';
import { bytesToString, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type { IdempotencyClaim, IdempotencyStore, Page, PostLookup, PostStore } from '../../ports/feed-store.js';
import {
  authorPostsBoundary,
  idempotencyKey,
  keyAfter,
  mentionRowKeys,
  parsePostKey,
  userKey,
} from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, cellValue, counter, postKeyOf } from './cells.js';
import { HBaseTallyMarks } from './tally-marks.js';

const BODY = 'p:b';
const CREATED = 'p:t';
/** The tombstone: deleted-at millis. The row (p:t, p:d) stays, so the id is never usable again. */
const DELETED = 'p:d';
/** A repost's original. */
const REPOST_OF = 'p:r';
/** The body's @mentions and #topics#, parsed at write time: JSON {m: [[handle,start,end]…], g: [[name,start,end]…]}. */
const ENTITIES = 'p:e';
/** Its pictures, as the post carries them: JSON PostMedia[] (absent: none). */
const MEDIA = 'p:m';
/** The version: how many edits (absent: none); 'deleted' once tombstoned, so no edit can land after a delete. */
const VERSION = 'p:v';
/** Last edited at, millis (absent: never). */
const EDITED = 'p:u';
/** The history family: h:<n> = JSON {b, e, at} of version n, written by the edit that replaced it. */
const HISTORY = 'h';
const COUNTS = 'c';
const COUNT_COLUMNS = { likes: 'c:likes', comments: 'c:comments', reposts: 'c:reposts' } as const;
/** What every read of a post asks for: the post, its tombstone and its counts. */
const POST_COLUMNS = [BODY, DELETED, REPOST_OF, ENTITIES, MEDIA, VERSION, EDITED, COUNTS];

/**
 * A content row as a live post with its counts; null for a tombstone or a row that is not a
 * whole post. Read from the body cell (as the list scans do), the creation time comes from the
 * key: create writes p:t with the same millis the key holds.
 */
function postFromRow(row: HBaseRow | null): StoredPost | null {
  if (!row || cellValue(row, DELETED) !== undefined) return null;
  const body = cellValue(row, BODY);
  if (body === undefined) return null;
  try {
    // Author, id and time come from the key, the one thing a put cannot get wrong.
    const { author, millis } = parsePostKey(row.key);
    const repostOf = cellText(row, REPOST_OF);
    const version = Number(cellText(row, VERSION) ?? 0);
    const editedAt = Number(cellText(row, EDITED) ?? 0);
    return {
      id: postIdFromKey(row.key),
      author,
      body: bytesToString(body),
      createdAt: millis,
      ...(repostOf && keyFromPostId(repostOf) ? { repostOf } : {}),
      ...decodeEntities(cellText(row, ENTITIES)),
      ...decodeMedia(cellText(row, MEDIA)),
      ...(Number.isSafeInteger(version) && version > 0 ? { version } : {}),
      ...(Number.isSafeInteger(editedAt) && editedAt > 0 ? { editedAt } : {}),
      // A count can dip below zero only between a repair and a late decrement; never shown so.
      counts: {
        likes: Math.max(0, counter(row, COUNT_COLUMNS.likes)),
        comments: Math.max(0, counter(row, COUNT_COLUMNS.comments)),
        reposts: Math.max(0, counter(row, COUNT_COLUMNS.reposts)),
      },
    };
  } catch {
    return null;
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The pictures cell as written by create (our own JSON); anything unreadable reads as none. */
function decodeMedia(text: string | undefined): Pick<Post, 'media'> {
  if (text === undefined) return {};
  try {
    const media = JSON.parse(text) as unknown;
    return Array.isArray(media) && media.length > 0 ? { media: media as PostMedia[] } : {};
  } catch {
    return {};
  }
}

type Span = [string, number, number];
const isSpan = (v: unknown): v is Span =>
  Array.isArray(v) && v.length === 3 && typeof v[0] === 'string' && Number.isInteger(v[1]) && Number.isInteger(v[2]);

function encodeEntities(post: Pick<Post, 'mentions' | 'topics'>): string | undefined {
  if (!post.mentions?.length && !post.topics?.length) return undefined;
  return JSON.stringify({
    ...(post.mentions?.length ? { m: post.mentions.map((m) => [m.handle, m.start, m.end]) } : {}),
    ...(post.topics?.length ? { g: post.topics.map((t) => [t.name, t.start, t.end]) } : {}),
  });
}

/** Never throws: a cell that is not what encodeEntities wrote reads as no entities. */
function decodeEntities(text: string | undefined): Pick<Post, 'mentions' | 'topics'> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as { m?: unknown; g?: unknown };
    const spans = (list: unknown) => (Array.isArray(list) ? list.filter(isSpan) : []);
    const mentions = spans(value.m).map(([handle, start, end]) => ({ handle, start, end }));
    const topics = spans(value.g).map(([name, start, end]) => ({ name, start, end }));
    return { ...(mentions.length ? { mentions } : {}), ...(topics.length ? { topics } : {}) };
  } catch {
    return {};
  }
}

export class HBasePostStore implements PostStore {
  private readonly table: string;
  /** The lists table, where mentions are indexed (kinds N and n, tables.ts lists). */
  private readonly lists: string;
  private readonly tally: HBaseTallyMarks<keyof PostCounts>;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'content');
    this.lists = qualifiedTableName(namespace, 'lists');
    this.tally = new HBaseTallyMarks(
      client,
      this.table,
      (id) => keyFromPostId(id) ?? null,
      (name) => COUNT_COLUMNS[name],
    );
  }

  async create(post: Post, idempotencyKey?: string): Promise<boolean> {
    const key = keyFromPostId(post.id);
    if (!key) throw new TypeError(`not a post id: ${JSON.stringify(post.id)}`);
    const entities = encodeEntities(post);
    // Put-if-absent on p:t: two posts that drew the same id (same author, millisecond and
    // random suffix) can never overwrite each other; the loser retries with a new suffix.
    return this.client.checkAndPut(
      this.table,
      key,
      [
        { column: BODY, value: post.body },
        { column: CREATED, value: String(post.createdAt) },
        ...(idempotencyKey === undefined ? [] : [{ column: 'p:i', value: idempotencyKey }]),
        ...(post.repostOf === undefined ? [] : [{ column: REPOST_OF, value: post.repostOf }]),
        ...(entities === undefined ? [] : [{ column: ENTITIES, value: entities }]),
        ...(post.media?.length ? [{ column: MEDIA, value: JSON.stringify(post.media) }] : []),
      ],
      // p:t outlives a delete (the tombstone keeps it): a deleted id can never be created again.
      { column: CREATED, value: null },
    );
  }

  async listMentions(place: MentionPlace, handles: readonly string[], since: number): Promise<void> {
    const keys = [...new Set(handles)].flatMap((h) => mentionRowKeys(h, place, since));
    if (keys.length)
      await this.client.put(
        this.lists,
        keys.map((key) => ({ key, cells: [{ column: 'e:t', value: '' }] })),
      );
  }

  async unlistMentions(place: MentionPlace, handles: readonly string[], since: number): Promise<void> {
    const keys = [...new Set(handles)].flatMap((h) => mentionRowKeys(h, place, since));
    await Promise.all(keys.map((key) => this.client.deleteRow(this.lists, key)));
  }

  async lookup(id: string): Promise<PostLookup> {
    const key = keyFromPostId(id);
    const row = key ? await this.client.getRow(this.table, key, { columns: ['p'] }) : null;
    if (!row || cellValue(row, CREATED) === undefined) return { state: 'absent' };
    const post = postFromRow(row);
    return post ? { state: 'live', post } : { state: 'deleted' };
  }

  async markDeleted(id: string, at: number): Promise<boolean> {
    const key = keyFromPostId(id);
    if (!key) return false;
    // Put-if-absent on p:d: of racing deletes exactly one writes the tombstone.
    // The same write moves the version to 'deleted': an edit's check-and-put on the version it
    // read can never land after the tombstone.
    const won = await this.client.checkAndPut(
      this.table,
      key,
      [
        { column: DELETED, value: String(at) },
        { column: VERSION, value: 'deleted' },
      ],
      { column: DELETED, value: null },
    );
    // Then the body, its history and counts go (not atomic with the tombstone; a repeat finishes
    // it). Reads treat a row with a tombstone as deleted whatever else it holds; list scans skip
    // it once none of the columns they ask for is left.
    await Promise.all([
      this.client.deleteColumns(this.table, key, [
        BODY,
        'p:i',
        REPOST_OF,
        ENTITIES,
        MEDIA,
        EDITED,
        ...Object.values(COUNT_COLUMNS),
      ]),
      this.client.deleteFamily(this.table, key, HISTORY),
    ]);
    return won;
  }

  async versions(id: string): Promise<{ post: StoredPost; earlier: PostVersion[] } | null> {
    const key = keyFromPostId(id);
    if (!key) return null;
    const row = await this.client.getRow(this.table, key, { columns: [...POST_COLUMNS, HISTORY] });
    const post = postFromRow(row);
    if (!row || !post) return null;
    const earlier = row.cells.flatMap((cell) => {
      const qualifier = bytesToString(cell.qualifier);
      if (cell.family !== HISTORY || !/^\d+$/.test(qualifier)) return [];
      try {
        const v = JSON.parse(bytesToString(cell.value)) as { b?: unknown; e?: unknown; at?: unknown };
        if (typeof v.b !== 'string' || typeof v.at !== 'number') return [];
        return [
          {
            version: Number(qualifier),
            body: v.b,
            at: v.at,
            ...decodeEntities(typeof v.e === 'string' ? v.e : undefined),
          },
        ];
      } catch {
        return [];
      }
    });
    return { post, earlier: earlier.sort((a, b) => a.version - b.version) };
  }

  async edit(
    id: string,
    from: number,
    next: { body: string; mentions?: MentionSpan[]; topics?: TopicSpan[]; editedAt: number },
    replaced: PostVersion,
  ): Promise<boolean> {
    const key = keyFromPostId(id);
    if (!key) return false;
    const old = encodeEntities(replaced);
    // ONE check-and-put on the version: of edits racing from one version exactly one lands, and
    // none after a delete (which moves the version to 'deleted'). The replaced text goes to the
    // history in the same row write, so the history never misses a version. '' = no entities.
    return this.client.checkAndPut(
      this.table,
      key,
      [
        { column: BODY, value: next.body },
        { column: ENTITIES, value: encodeEntities(next) ?? '' },
        { column: VERSION, value: String(from + 1) },
        { column: EDITED, value: String(next.editedAt) },
        {
          column: `${HISTORY}:${from}`,
          value: JSON.stringify({ b: replaced.body, ...(old ? { e: old } : {}), at: replaced.at }),
        },
      ],
      { column: VERSION, value: from === 0 ? null : String(from) },
    );
  }

  async get(id: string): Promise<StoredPost | null> {
    const key = keyFromPostId(id);
    if (!key) return null;
    return postFromRow(await this.client.getRow(this.table, key, { columns: POST_COLUMNS }));
  }

  /** Server-side increment: concurrent likes are all counted, none lost to a read-modify-write. */
  count(id: string, name: keyof PostCounts, delta: number, fact?: string): Promise<void> {
    return this.tally.add(id, name, delta, fact);
  }

  tallied(id: string, name: keyof PostCounts, fact: string) {
    return this.tally.tallied(id, name, fact);
  }

  claim(id: string, name: keyof PostCounts, fact: string, sign: 1 | -1, now: number, staleBefore: number) {
    return this.tally.claim(id, name, fact, sign, now, staleBefore);
  }

  async getMany(ids: string[]): Promise<StoredPost[]> {
    const keys = new Map<string, Uint8Array>();
    for (const id of ids) {
      const key = keyFromPostId(id);
      if (key) keys.set(hex(key), key);
    }
    if (keys.size === 0) return [];
    // One multi-get (the client splits only past 100 keys); the server answers only the rows
    // it found, so the order of `ids` is restored by key.
    const rows = await this.client.multiGet(this.table, [...keys.values()], { columns: POST_COLUMNS });
    const found = new Map<string, StoredPost>();
    for (const row of rows) {
      const post = postFromRow(row);
      if (post) found.set(hex(row.key), post);
    }
    const out: StoredPost[] = [];
    for (const k of keys.keys()) {
      const post = found.get(k);
      if (post) out.push(post);
    }
    return out;
  }

  async listByAuthor(author: string, limit: number, cursor?: string): Promise<Page<StoredPost>> {
    const prefix = userKey(author);
    // The cursor is a post of this author: the use case checked it (listUserPosts), since one
    // of another author would start the scan outside this author's key range.
    const startRow = cursor === undefined ? undefined : keyAfter(postKeyOf(cursor));
    // One more row than asked tells whether a next page exists without a second request. A
    // tombstoned row is skipped by the server (none of the asked columns is left), but an
    // increment racing a delete can leave a counts-only row: it is not shown, and the page and
    // cursor are cut by rows, not by posts, so such a row never ends the list early.
    const rows: HBaseRow[] = [];
    for await (const row of this.client.scan(this.table, {
      prefix,
      ...(startRow ? { startRow } : {}),
      columns: [BODY, REPOST_OF, ENTITIES, MEDIA, VERSION, EDITED, COUNTS],
      limit: limit + 1,
      pageSize: limit + 1,
    })) {
      rows.push(row);
    }
    const page = rows.slice(0, limit);
    const items = page.flatMap((r) => postFromRow(r) ?? []);
    const last = page.at(-1);
    return rows.length > limit && last ? { items, nextCursor: postIdFromKey(last.key) } : { items };
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

  private async scanPosts(opts: {
    prefix: Uint8Array;
    startRow?: Uint8Array;
    stopRow?: Uint8Array;
    limit: number;
  }): Promise<Post[]> {
    const posts: Post[] = [];
    // Only the body (and a repost's original): the server never returns a tombstoned row (both
    // are gone), so deleted posts cost no slot of the limit.
    for await (const row of this.client.scan(this.table, {
      ...opts,
      columns: [BODY, REPOST_OF],
      pageSize: opts.limit,
    })) {
      const post = postFromRow(row);
      if (post) {
        const { counts: _counts, ...plain } = post;
        posts.push(plain);
      }
    }
    return posts;
  }
}

export class HBaseIdempotencyStore implements IdempotencyStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'idempotency');
  }

  async claim(user: string, key: string, claim: { id: string; fingerprint: string }): Promise<IdempotencyClaim | null> {
    const row = idempotencyKey(user, key);
    // The TTL can expire the claim between a lost put-if-absent and our read; then the key is
    // free again and the next attempt claims it.
    for (let attempt = 0; attempt < 3; attempt++) {
      const cells = [
        { column: 'k:p', value: claim.id },
        { column: 'k:h', value: claim.fingerprint },
      ];
      if (await this.client.checkAndPut(this.table, row, cells, { column: 'k:p', value: null })) return null;
      const earlier = await this.client.getRow(this.table, row, { columns: ['k'] });
      const id = cellText(earlier, 'k:p');
      const fingerprint = cellText(earlier, 'k:h');
      if (id !== undefined && id.length > 0) {
        return {
          id,
          ...(fingerprint === undefined ? {} : { fingerprint }),
          ...(cellText(earlier, 'k:c') === id ? { created: true as const } : {}),
        };
      }
    }
    throw new Error('idempotency key could be neither claimed nor read');
  }

  async markCreated(user: string, key: string, id: string): Promise<void> {
    // The id itself, so that a mark can only ever confirm the claim it was made for.
    await this.client.put(this.table, [{ key: idempotencyKey(user, key), cells: [{ column: 'k:c', value: id }] }]);
  }
}
