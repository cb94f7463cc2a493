// shared/adapters/hbase/hbase-comment-store.ts — CommentStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (comments: ASCII row keys, listed by the
// REST stateless scan in either direction).
import * as z from 'zod';
import { forEachLimit } from '../../runtime/concurrency.js';
import {
  COMMENT_ID_PATTERN,
  commentCreatedAt,
  type Comment,
  type ThreadEntry,
  type ThreadSummary,
} from '../../domain/comment.js';
import { bytesToString, filters, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type { Page } from '../../ports/feed-store.js';
import type {
  CommentLikeState,
  CommentLookup,
  CommentOrder,
  CommentStore,
  ListedComment,
  ThreadState,
  WrittenPosition,
} from '../../ports/reaction-store.js';
import { commentPrefix, commentRowKey, listPrefix, parseWrittenRowKey, writtenRowKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText, cellValue } from './cells.js';

const CREATED = 'm:t';
/** A top-level comment's content; a reply's is in REPLY_VALUE, so the post's list never sees a reply. */
const VALUE = 'm:v';
const REPLY_VALUE = 'm:w';
/**
 * A top-level comment's thread: `<count>/<sequence>/<id>:<author>,…` (its live replies, and the
 * oldest two as the preview), replaced by check-and-put on the value read, as the likes' state
 * is (invariant E3). It outlives the comment's delete: a deleted comment with replies is listed
 * as a placeholder (该评论已删除) while they remain.
 */
const THREAD = 'm:r';
/** A thread's index row, beside its root's row: `<root row key>/<reply id>` → the reply's author. */
const THREAD_AUTHOR = 'm:e';
const threadRowKey = (postId: string, root: string, replyId = '') => `${commentRowKey(postId, root)}/${replyId}`;
const DELETED = 'm:d';
/**
 * The likes' state: `<count>/<sequence>`, replaced by check-and-put on the value read together
 * with the liker's cell, so count and likers move in one atomic row change (the sequence rises
 * with every change: a value never comes back, so no stale check can pass). `x` once deleted.
 */
const LIKES = 'm:n';
const LIKES_DELETED = 'x';
/** One liker's cell: the like's since, or '' when taken back (never deleted: a swap replaces it). */
const likerColumn = (user: string) => `m:l.${user}`;
/** What a comment read needs: never the whole family, whose liker cells grow with its likes. */
const COMMENT_COLUMNS = [CREATED, VALUE, REPLY_VALUE, DELETED];

function parseThread(text: string | undefined): ThreadSummary & { sequence: number } {
  const m = text === undefined ? null : /^(\d+)\/(\d+)\/(.*)$/.exec(text);
  if (!m) return { count: 0, sequence: 0, preview: [] };
  const preview = m[3]!
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [id = '', author = ''] = pair.split(':');
      return { id, author };
    })
    .filter((e) => COMMENT_ID_PATTERN.test(e.id) && e.author !== '');
  return { count: Number(m[1]), sequence: Number(m[2]), preview };
}

function parseLikes(text: string | undefined): { count: number; sequence: number } | null {
  if (text === undefined) return { count: 0, sequence: 0 };
  const m = /^(\d+)\/(\d+)$/.exec(text);
  return m ? { count: Number(m[1]), sequence: Number(m[2]) } : null;
}

const sinceOf = (text: string | undefined): number | null => (text && /^\d+$/.test(text) ? Number(text) : null);
const PURGE_CONCURRENCY = 16;

/** m:v as stored: short keys, since HBase stores every byte of every cell. */
const Stored = z.object({
  a: z.string(),
  b: z.string(),
  r: z.string().optional(),
  ra: z.string().optional(),
  /** A reply's thread root. */
  t: z.string().optional(),
  /** @mentions: [[handle, start, end]…] (code-point offsets), parsed at write time. */
  m: z.array(z.tuple([z.string(), z.number().int(), z.number().int()])).optional(),
});

/** `likes`: the row was read with its likes (and `reader`'s liker cell): they go with the comment. */
export function commentFromRow(postId: string, row: HBaseRow, likes?: { reader?: string | undefined }): Comment | null {
  if (cellValue(row, DELETED) !== undefined) return null;
  const raw = cellText(row, VALUE) ?? cellText(row, REPLY_VALUE);
  const key = bytesToString(row.key);
  const prefix = commentPrefix(postId);
  if (raw === undefined || !key.startsWith(prefix)) return null;
  const id = key.slice(prefix.length);
  const parsed = Stored.safeParse(safeJson(raw));
  if (!parsed.success || !COMMENT_ID_PATTERN.test(id)) return null;
  const v = parsed.data;
  return {
    id,
    postId,
    author: v.a,
    body: v.b,
    createdAt: commentCreatedAt(id),
    ...(v.r !== undefined && v.ra !== undefined ? { replyTo: { id: v.r, author: v.ra } } : {}),
    ...(v.t !== undefined ? { root: v.t } : {}),
    ...(v.m?.length ? { mentions: v.m.map(([handle, start, end]) => ({ handle, start, end })) } : {}),
    ...(likes
      ? {
          likes: {
            count: parseLikes(cellText(row, LIKES))?.count ?? 0,
            liked: likes.reader !== undefined && sinceOf(cellText(row, likerColumn(likes.reader))) !== null,
          },
        }
      : {}),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export class HBaseCommentStore implements CommentStore {
  private readonly table: string;
  /** The lists table, where each author's comments are indexed (kind W, tables.ts lists). */
  private readonly lists: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'comments');
    this.lists = qualifiedTableName(namespace, 'lists');
  }

  async listWritten(c: Pick<Comment, 'author' | 'postId' | 'id' | 'createdAt'>): Promise<void> {
    // K: an entry never lacks for a comment that exists (the use case writes it first, beside its
    // checks); one whose comment never landed is skipped at read.
    await this.client.put(this.lists, [
      { key: writtenRowKey(c.author, c.createdAt, c.postId, c.id), cells: [{ column: 'e:t', value: '' }] },
    ]);
  }

  async unlistWritten(c: Pick<Comment, 'author' | 'postId' | 'id' | 'createdAt'>): Promise<void> {
    await this.client.deleteRow(this.lists, writtenRowKey(c.author, c.createdAt, c.postId, c.id));
  }

  async create(c: Comment): Promise<boolean> {
    const value = JSON.stringify({
      a: c.author,
      b: c.body,
      ...(c.replyTo ? { r: c.replyTo.id, ra: c.replyTo.author } : {}),
      ...(c.root ? { t: c.root } : {}),
      ...(c.mentions?.length ? { m: c.mentions.map((m) => [m.handle, m.start, m.end]) } : {}),
    });
    // Put-if-absent on m:t, which outlives a delete: a comment id is never used twice.
    return this.client.checkAndPut(
      this.table,
      commentRowKey(c.postId, c.id),
      [
        { column: CREATED, value: String(c.createdAt) },
        { column: c.root ? REPLY_VALUE : VALUE, value },
      ],
      { column: CREATED, value: null },
    );
  }

  async lookup(postId: string, commentId: string): Promise<CommentLookup> {
    const row = await this.client.getRow(this.table, commentRowKey(postId, commentId), { columns: COMMENT_COLUMNS });
    if (!row || cellValue(row, CREATED) === undefined) return { state: 'absent' };
    const comment = commentFromRow(postId, row);
    return comment ? { state: 'live', comment } : { state: 'deleted' };
  }

  async markDeleted(postId: string, commentId: string, at: number): Promise<boolean> {
    // The likes' state goes with it in the same row change: a like that read the comment live
    // before now fails its swap, reads again and finds it deleted.
    return this.client.checkAndPut(
      this.table,
      commentRowKey(postId, commentId),
      [
        { column: DELETED, value: String(at) },
        { column: LIKES, value: LIKES_DELETED },
      ],
      { column: DELETED, value: null },
    );
  }

  async likeState(postId: string, commentId: string, user: string) {
    const row = await this.client.getRow(this.table, commentRowKey(postId, commentId), {
      columns: [...COMMENT_COLUMNS, LIKES, likerColumn(user)],
    });
    const comment = row && commentFromRow(postId, row, { reader: user });
    const version = cellText(row, LIKES);
    const likes = parseLikes(version);
    if (!comment || !likes) return null;
    return { comment, count: likes.count, since: sinceOf(cellText(row, likerColumn(user))), version: version ?? null };
  }

  swapLike(
    postId: string,
    commentId: string,
    user: string,
    next: { since: number | null; count: number },
    seen: CommentLikeState,
  ): Promise<boolean> {
    const sequence = (parseLikes(seen.version ?? undefined)?.sequence ?? 0) + 1;
    return this.client.checkAndPut(
      this.table,
      commentRowKey(postId, commentId),
      [
        { column: likerColumn(user), value: next.since === null ? '' : String(next.since) },
        { column: LIKES, value: `${Math.max(0, next.count)}/${sequence}` },
      ],
      { column: LIKES, value: seen.version },
    );
  }

  async dropContent(postId: string, commentId: string): Promise<void> {
    await this.client.deleteColumns(this.table, commentRowKey(postId, commentId), [VALUE, REPLY_VALUE]);
  }

  async listThreadEntry(postId: string, root: string, entry: ThreadEntry): Promise<void> {
    await this.client.put(this.table, [
      { key: threadRowKey(postId, root, entry.id), cells: [{ column: THREAD_AUTHOR, value: entry.author }] },
    ]);
  }

  async unlistThreadEntry(postId: string, root: string, replyId: string): Promise<void> {
    await this.client.deleteRow(this.table, threadRowKey(postId, root, replyId));
  }

  async threadState(postId: string, root: string): Promise<ThreadState | null> {
    const row = await this.client.getRow(this.table, commentRowKey(postId, root), { columns: [CREATED, THREAD] });
    if (!row || cellValue(row, CREATED) === undefined) return null;
    const version = cellText(row, THREAD) ?? null;
    const { count, preview } = parseThread(version ?? undefined);
    return { count, preview, version };
  }

  swapThread(postId: string, root: string, next: ThreadSummary, seen: ThreadState): Promise<boolean> {
    const sequence = parseThread(seen.version ?? undefined).sequence + 1;
    const preview = next.preview.map((e) => `${e.id}:${e.author}`).join(',');
    return this.client.checkAndPut(
      this.table,
      commentRowKey(postId, root),
      [{ column: THREAD, value: `${Math.max(0, next.count)}/${sequence}/${preview}` }],
      { column: THREAD, value: seen.version },
    );
  }

  async threadEntries(postId: string, root: string, limit: number, cursor?: string): Promise<Page<ThreadEntry>> {
    const prefix = threadRowKey(postId, root);
    const rows = await this.client.scanText(this.table, {
      prefix,
      ...(cursor ? { startRow: `${prefix}${cursor} ` } : {}),
      limit: limit + 1,
      columns: [THREAD_AUTHOR],
    });
    const page = rows.slice(0, limit);
    const items = page.flatMap((r) => {
      const id = bytesToString(r.key).slice(prefix.length);
      const author = cellText(r, THREAD_AUTHOR);
      return COMMENT_ID_PATTERN.test(id) && author ? [{ id, author }] : [];
    });
    const last = page.at(-1);
    return rows.length > limit && last
      ? { items, nextCursor: bytesToString(last.key).slice(prefix.length) }
      : { items };
  }

  async readMany(postId: string, ids: string[], reader?: string): Promise<Comment[]> {
    if (ids.length === 0) return [];
    const rows = await this.client.multiGet(
      this.table,
      ids.map((id) => commentRowKey(postId, id)),
      { columns: [...COMMENT_COLUMNS, LIKES, ...(reader ? [likerColumn(reader)] : [])] },
    );
    return rows.flatMap((r) => commentFromRow(postId, r, { reader }) ?? []);
  }

  async list(
    postId: string,
    order: CommentOrder,
    limit: number,
    cursor?: string,
    reader?: string,
  ): Promise<Page<ListedComment>> {
    const prefix = commentPrefix(postId);
    // The likes ride in the same scan: the count, and the reader's own liker cell only; so does
    // the thread's summary.
    const columns = [VALUE, DELETED, THREAD, LIKES, ...(reader ? [likerColumn(reader)] : [])];
    // Only top-level comments with content, or deleted ones that had replies (a placeholder while
    // they remain): a deleted comment without a thread (its m:n and liker cells stay), a reply
    // (m:w) and a thread's index row never take a slot.
    const filter = filters.or(filters.hasColumn('m', 'v'), filters.hasColumn('m', 'r'));
    let rows: HBaseRow[];
    if (order === 'oldest') {
      // Forward from just after the cursor's row: keys are fixed-length ASCII, so `row + ' '` is
      // above the cursor's row and below every later one.
      rows = await this.client.scanText(this.table, {
        prefix,
        ...(cursor ? { startRow: `${prefix}${cursor} ` } : {}),
        limit: limit + 1,
        columns,
        filter,
      });
    } else {
      // Reversed, from the top of the post's range ('~' sorts above every id character) or from
      // the cursor's row, which a reversed start includes: one row more, and it is dropped.
      const startRow = cursor ? `${prefix}${cursor}` : `${prefix}~`;
      const found = await this.client.scanText(this.table, {
        prefix,
        startRow,
        reversed: true,
        limit: limit + 2,
        columns,
        filter,
      });
      rows = found.filter((r) => bytesToString(r.key) !== startRow).slice(0, limit + 1);
    }
    const page = rows.slice(0, limit);
    const items = page.flatMap((r): ListedComment[] => {
      const thread = parseThread(cellText(r, THREAD));
      const summary = { count: thread.count, preview: thread.preview };
      const comment = commentFromRow(postId, r, { reader });
      if (comment) return [{ ...comment, thread: summary }];
      const id = bytesToString(r.key).slice(prefix.length);
      // Deleted, its replies still there: a placeholder (该评论已删除).
      return COMMENT_ID_PATTERN.test(id) && thread.count > 0
        ? [{ id, postId, author: '', body: '', createdAt: commentCreatedAt(id), deleted: true, thread: summary }]
        : [];
    });
    const last = page.at(-1);
    return rows.length > limit && last
      ? { items, nextCursor: bytesToString(last.key).slice(prefix.length) }
      : { items };
  }

  async writtenBy(
    author: string,
    limit: number,
    after?: WrittenPosition,
  ): Promise<{ items: Comment[]; next?: WrittenPosition }> {
    const prefix = listPrefix(author, 'W');
    // ' ' sorts below every key character: the cursor's row + ' ' is the first row after it.
    const startRow = after ? `${writtenRowKey(author, after.since, after.postId, after.commentId)} ` : undefined;
    const rows = await this.client.scanText(this.lists, {
      prefix,
      ...(startRow ? { startRow } : {}),
      limit: limit + 1,
      columns: ['e:t'],
    });
    const entries = rows.slice(0, limit).flatMap((r) => parseWrittenRowKey(prefix, bytesToString(r.key)) ?? []);
    const found =
      entries.length === 0
        ? []
        : await this.client.multiGet(
            this.table,
            entries.map((e) => commentRowKey(e.postId, e.commentId)),
            { columns: COMMENT_COLUMNS },
          );
    const byKey = new Map(found.map((row) => [bytesToString(row.key), row]));
    const items = entries.flatMap((e) => {
      const row = byKey.get(commentRowKey(e.postId, e.commentId));
      const comment = row && commentFromRow(e.postId, row);
      // Deleted, never landed, or (a forged entry) not the author's: not theirs to list.
      return comment && comment.author === author ? [comment] : [];
    });
    const last = entries.at(-1);
    return rows.length > limit && last ? { items, next: last } : { items };
  }

  async purge(postId: string, limit: number): Promise<number> {
    const rows = await this.client.scanText(this.table, { prefix: commentPrefix(postId), limit, columns: [CREATED] });
    // REST has no multi-row delete: one DELETE a row, a bounded number in flight.
    await forEachLimit(rows, PURGE_CONCURRENCY, (r) => this.client.deleteRow(this.table, r.key));
    return rows.length;
  }
}
