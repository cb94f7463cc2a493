// shared/adapters/hbase/hbase-account-remains.ts — AccountRemains on HBase (secondary adapter):
// the departures index and what the erasure reads and removes. Layouts: shared/schema/tables.ts
// (users "erase", lists "departures", the reverse kinds b, m, k and the mention kinds N, n).
// Every read is one bounded prefix scan of the account's own keys (or of one of its posts');
// nothing here walks a table.
import { forEachLimit } from '../../runtime/concurrency.js';
import type { Standing } from '../../domain/leaving.js';
import { mentionedHandles, type MentionPlace } from '../../domain/text-entities.js';
import { bytesToString, concatBytes, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type { DepartureStage } from '../../domain/leaving.js';
import type { AccountRemains, CommentTrace, Departure, OwnReaction, TraceOnPost } from '../../ports/account-remains.js';
import {
  blockKey,
  blockPrefix,
  commentPrefix,
  commentRowKey,
  departurePrefix,
  departureRowKey,
  handleFromKey,
  listPrefix,
  listRowKey,
  mentionRowKeys,
  notificationEntryKey,
  notificationEntryPrefix,
  notificationGroupKey,
  notificationMemberKey,
  parseAnyListRowKey,
  parseDepartureRowKey,
  parseNamedInRowKey,
  parseNamesRowKey,
  parsePostKey,
  postIdFromKey,
  reactionKey,
  reactorPrefix,
  userKey,
  writtenRowKey,
  type ListKind,
} from '../../schema/row-keys.js';
import { qualifiedTableName, type TableName } from '../../schema/tables.js';
import { cellText, postKeyOf } from './cells.js';
import { commentFromRow } from './hbase-comment-store.js';
import { standingCell, standingOf } from './hbase-user-store.js';

const ENTRY = 'e:t';
const STANDING = 'p:x';
/** A post's entities (its links), its history family, and a comment's value (tables.ts content, comments). */
const ENTITIES = 'p:e';
const HISTORY = 'h';
const COMMENT = 'm:v';
/** A reply's words (a reply in a thread keeps them apart from top-level comments: hbase-comment-store.ts). */
const REPLY = 'm:w';
const DELETES_AT_ONCE = 16;
/** The users row's cells a reservation keeps: the handle (so nobody registers it) and the erased standing. */
const RESERVED = new Set(['p:h', STANDING]);
/** The account's own list kinds (owner = its handle). */
const OWN_KINDS: ListKind[] = ['F', 'R', 'B', 'M', 'K', 'W', 'b', 'm', 'N'];
/** How often an unlink reads again after an edit moved the text first (an edit closes 24 h after publishing: practically never). */
const UNLINK_ATTEMPTS = 5;
/** Tables whose rows of the account all start with its user key (a post key starts with its author's). */
const KEYED_BY_USER: TableName[] = [
  'content',
  'relations',
  'inbox',
  'outbox',
  'idempotency',
  'throttle',
  'reactions',
  'reactors',
  'quota',
  'notifications',
  'blocks',
];

const since = (text: string | undefined): number | null => {
  const n = text === undefined ? NaN : Number(text);
  return Number.isSafeInteger(n) ? n : null;
};

export class HBaseAccountRemains implements AccountRemains {
  private readonly t: Record<TableName, string>;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    const names: TableName[] = [
      'users',
      'lists',
      'comments',
      'notifications',
      'reactions',
      'reactors',
      'blocks',
      ...KEYED_BY_USER,
    ];
    this.t = Object.fromEntries(names.map((n) => [n, qualifiedTableName(namespace, n)])) as Record<TableName, string>;
  }

  async due(stage: DepartureStage, now: number, limit: number): Promise<Departure[]> {
    const rows = await this.client.scanText(this.t.lists, { prefix: departurePrefix(stage), limit, columns: [ENTRY] });
    return rows.flatMap((r) => {
      const d = parseDepartureRowKey(stage, bytesToString(r.key));
      return d && d.due <= now ? [{ stage, ...d }] : [];
    });
  }

  async schedule(d: Departure): Promise<void> {
    await this.client.put(this.t.lists, [
      { key: departureRowKey(d.stage, d.due, d.handle), cells: [{ column: ENTRY, value: '' }] },
    ]);
  }

  async unschedule(d: Departure): Promise<void> {
    await this.client.deleteRow(this.t.lists, departureRowKey(d.stage, d.due, d.handle));
  }

  async standing(handle: string): Promise<Standing | null> {
    const row = await this.client.getRow(this.t.users, userKey(handle), { columns: ['p:h', STANDING] });
    return cellText(row, 'p:h') === undefined ? null : standingOf(row);
  }

  beginErasure(handle: string, from: number, at: number): Promise<boolean> {
    return this.client.checkAndPut(
      this.t.users,
      userKey(handle),
      [{ column: STANDING, value: standingCell({ state: 'erased', at }) }],
      {
        column: STANDING,
        value: standingCell({ state: 'deactivated', at: from }),
      },
    );
  }

  async reserve(handle: string): Promise<void> {
    const row = await this.client.getRow(this.t.users, userKey(handle));
    const gone = (row?.cells ?? []).map((c) => bytesToString(c.column)).filter((c) => !RESERVED.has(c));
    await this.client.deleteColumns(this.t.users, userKey(handle), gone);
  }

  async release(handle: string, at: number): Promise<boolean> {
    const row = await this.client.getRow(this.t.users, userKey(handle));
    if (!row || standingCell(standingOf(row)) !== standingCell({ state: 'erased', at })) return false;
    // Up to the newest cell read, not "now": a registration of the freed handle in the same
    // millisecond writes after it, and a delete marker at LATEST would mask it (HBASE-3300).
    const newest = Math.max(...row.cells.map((c) => c.timestamp));
    await this.client.deleteColumns(
      this.t.users,
      userKey(handle),
      row.cells.map((c) => c.column),
      { upToTimestamp: newest },
    );
    return true;
  }

  async posts(handle: string, limit: number): Promise<string[]> {
    const rows: HBaseRow[] = [];
    for await (const row of this.client.scan(this.t.content, {
      prefix: userKey(handle),
      limit,
      columns: ['p:t', 'p:d'],
    }))
      rows.push(row);
    // Newest first (the key order); the erasure removes every post it is handed, so order does not matter.
    return rows.flatMap((r) => {
      try {
        return [postIdFromKey(r.key)];
      } catch {
        return [];
      }
    });
  }

  async tracesOn(postId: string, limit: number): Promise<TraceOnPost[]> {
    const post = postKeyOf(postId);
    const reactors: HBaseRow[] = [];
    for await (const row of this.client.scan(this.t.reactors, { prefix: post, limit, columns: [ENTRY] }))
      reactors.push(row);
    const bookmarks = await this.client.scanText(this.t.lists, {
      prefix: listPrefix(postId, 'k'),
      limit,
      columns: [ENTRY],
    });
    const out: TraceOnPost[] = [];
    for (const r of reactors) {
      const kind = r.key[post.length];
      const rest = r.key.subarray(post.length + 1);
      const at = since(cellText(r, ENTRY)) ?? 0;
      try {
        if (kind === 0x4c /* L */) out.push({ kind: 'like', user: userOfKey(rest), since: at });
        else if (kind === 0x52 /* R */) {
          const repostId = postIdFromKey(rest);
          out.push({ kind: 'repost', user: parsePostKey(rest).author, since: at, repostId });
        }
      } catch {
        // Not of the layout: skipped (dropPost removes the whole prefix anyway).
      }
    }
    const prefix = listPrefix(postId, 'k');
    for (const r of bookmarks) {
      const e = parseAnyListRowKey(prefix, bytesToString(r.key));
      if (e) out.push({ kind: 'bookmark', user: e.other, since: e.since });
    }
    return out.slice(0, limit);
  }

  async commentsOn(postId: string, limit: number): Promise<CommentTrace[]> {
    const prefix = commentPrefix(postId);
    const rows = await this.client.scanText(this.t.comments, { prefix, limit, columns: ['m'] });
    return rows.map((row) => {
      const commentId = bytesToString(row.key).slice(prefix.length);
      const c = commentFromRow(postId, row);
      return {
        commentId,
        author: c?.author ?? null,
        createdAt: c?.createdAt ?? since(cellText(row, 'm:t')) ?? 0,
        ...(c?.replyTo ? { replyTo: c.replyTo } : {}),
        mentions: c?.mentions ? mentionedHandles(c.mentions) : [],
      };
    });
  }

  async dropPost(postId: string): Promise<void> {
    const post = postKeyOf(postId);
    // Whom it and its comments name: the named users' entries first, then its own (kind n).
    for (;;) {
      const rows = await this.client.scanText(this.t.lists, {
        prefix: listPrefix(postId, 'n'),
        limit: 1000,
        columns: [ENTRY],
      });
      await forEachLimit(rows, DELETES_AT_ONCE, async (r) => {
        const m = parseNamesRowKey(postId, bytesToString(r.key));
        if (m) await this.client.deleteRow(this.t.lists, mentionRowKeys(m.handle, m.place, m.since)[0]);
        await this.client.deleteRow(this.t.lists, r.key);
      });
      if (rows.length < 1000) break;
    }
    await Promise.all([
      this.dropPrefix(this.t.reactors, post),
      this.dropText(this.t.lists, listPrefix(postId, 'L')),
      this.dropText(this.t.lists, listPrefix(postId, 'k')),
      this.dropText(this.t.comments, commentPrefix(postId)),
    ]);
    await this.client.deleteRow(this.t.content, post);
  }

  async dropTrace(postId: string, trace: TraceOnPost): Promise<void> {
    const post = postKeyOf(postId);
    const entries =
      trace.kind === 'like'
        ? [listRowKey(postId, 'L', trace.since, trace.user)]
        : trace.kind === 'bookmark'
          ? [listRowKey(trace.user, 'K', trace.since, postId), listRowKey(postId, 'k', trace.since, trace.user)]
          : [];
    await Promise.all([
      this.client.deleteRow(this.t.reactions, reactionKey(trace.user, post)),
      ...(trace.kind === 'like'
        ? [this.client.deleteRow(this.t.reactors, concatBytes(reactorPrefix(post, 'L'), userKey(trace.user)))]
        : []),
      ...(trace.repostId
        ? [this.client.deleteRow(this.t.reactors, concatBytes(reactorPrefix(post, 'R'), postKeyOf(trace.repostId)))]
        : []),
      ...entries.map((k) => this.client.deleteRow(this.t.lists, k)),
    ]);
  }

  async dropComment(postId: string, comment: Pick<CommentTrace, 'commentId' | 'author' | 'createdAt'>): Promise<void> {
    await Promise.all([
      this.client.deleteRow(this.t.comments, commentRowKey(postId, comment.commentId)),
      comment.author
        ? this.client.deleteRow(
            this.t.lists,
            writtenRowKey(comment.author, comment.createdAt, postId, comment.commentId),
          )
        : undefined,
    ]);
  }

  async reactions(handle: string, limit: number): Promise<OwnReaction[]> {
    const prefix = userKey(handle);
    const out: OwnReaction[] = [];
    for await (const row of this.client.scan(this.t.reactions, { prefix, limit })) {
      let postId: string;
      try {
        postId = postIdFromKey(row.key.subarray(prefix.length));
      } catch {
        continue;
      }
      out.push({ postId, likedAt: since(cellText(row, 'l:t')), bookmarkedAt: since(cellText(row, 'b:t')) });
    }
    return out;
  }

  async dropReaction(handle: string, postId: string): Promise<void> {
    await this.client.deleteRow(this.t.reactions, reactionKey(handle, postKeyOf(postId)));
  }

  async written(handle: string, limit: number): Promise<{ postId: string; commentId: string; since: number }[]> {
    const prefix = listPrefix(handle, 'W');
    const rows = await this.client.scanText(this.t.lists, { prefix, limit, columns: [ENTRY] });
    return rows.flatMap((r) => {
      const e = parseAnyListRowKey(prefix, bytesToString(r.key));
      const at = e?.other.lastIndexOf('~') ?? -1;
      return e && at > 0 ? [{ postId: e.other.slice(0, at), commentId: e.other.slice(at + 1), since: e.since }] : [];
    });
  }

  async mentionsOf(handle: string, limit: number): Promise<{ place: MentionPlace; since: number }[]> {
    const prefix = listPrefix(handle, 'N');
    const rows = await this.client.scanText(this.t.lists, { prefix, limit, columns: [ENTRY] });
    return rows.flatMap((r) => parseNamedInRowKey(prefix, bytesToString(r.key)) ?? []);
  }

  async unlinkMention(handle: string, place: MentionPlace): Promise<void> {
    const [table, key] =
      place.commentId === undefined
        ? [this.t.content, postKeyOf(place.postId)]
        : [this.t.comments, commentRowKey(place.postId, place.commentId)];
    for (let attempt = 0; attempt < UNLINK_ATTEMPTS; attempt++) {
      const row = await this.client.getRow(table, key, {
        columns: place.commentId === undefined ? [ENTITIES, HISTORY] : [COMMENT, REPLY],
      });
      const column = place.commentId === undefined ? ENTITIES : cellText(row, REPLY) !== undefined ? REPLY : COMMENT;
      const read = cellText(row, column);
      const cells = (row?.cells ?? []).flatMap((cell) => {
        const name = bytesToString(cell.column);
        const history = place.commentId === undefined && cell.family === HISTORY;
        const unlinked = name === column || history ? withoutLinkTo(handle, bytesToString(cell.value), history) : null;
        return unlinked === null ? [] : [{ column: name, value: unlinked }];
      });
      // The text is gone (deleted, purged) or no longer names the account: nothing to unlink.
      if (cells.length === 0) return;
      // On the cell read (absent: null), so an edit that lands first is read again.
      if (await this.client.checkAndPut(table, key, cells, { column, value: read ?? null })) return;
    }
    throw new Error(`the text at ${JSON.stringify(place)} kept moving while its link to ${handle} was taken out`);
  }

  async dropMention(handle: string, place: MentionPlace, at: number): Promise<void> {
    await Promise.all(mentionRowKeys(handle, place, at).map((k) => this.client.deleteRow(this.t.lists, k)));
  }

  async blockedBy(handle: string, limit: number): Promise<{ kind: 'block' | 'mute'; user: string; since: number }[]> {
    const [blocks, mutes] = await Promise.all((['b', 'm'] as const).map((k) => this.listed(handle, k, limit)));
    return [
      ...blocks!.map((e) => ({ kind: 'block' as const, user: e.other, since: e.since })),
      ...mutes!.map((e) => ({ kind: 'mute' as const, user: e.other, since: e.since })),
    ].slice(0, limit);
  }

  async blocking(handle: string, limit: number): Promise<{ kind: 'block' | 'mute'; user: string; since: number }[]> {
    const [blocks, mutes] = await Promise.all((['B', 'M'] as const).map((k) => this.listed(handle, k, limit)));
    const edges: { kind: 'block' | 'mute'; user: string; since: number }[] = [];
    // The edges too, not only the entries: an edge whose entry a crash lost still goes.
    for (const [kind, letter] of [
      ['block', 'B'],
      ['mute', 'M'],
    ] as const) {
      for await (const row of this.client.scan(this.t.blocks, {
        prefix: blockPrefix(handle, letter),
        limit,
        columns: [ENTRY],
      })) {
        try {
          edges.push({
            kind,
            user: userOfKey(row.key.subarray(blockPrefix(handle, letter).length)),
            since: since(cellText(row, ENTRY)) ?? 0,
          });
        } catch {
          // not of the layout
        }
      }
    }
    return [
      ...blocks!.map((e) => ({ kind: 'block' as const, user: e.other, since: e.since })),
      ...mutes!.map((e) => ({ kind: 'mute' as const, user: e.other, since: e.since })),
      ...edges,
    ].slice(0, limit);
  }

  async dropBlock(kind: 'block' | 'mute', from: string, to: string, at: number): Promise<void> {
    const [forward, reverse] = kind === 'block' ? (['B', 'b'] as const) : (['M', 'm'] as const);
    await Promise.all([
      this.client.deleteRow(this.t.blocks, blockKey(from, forward, to)),
      this.client.deleteRow(this.t.lists, listRowKey(from, forward, at, to)),
      this.client.deleteRow(this.t.lists, listRowKey(to, reverse, at, from)),
    ]);
  }

  async forgetMember(recipient: string, groupKey: string, member: string): Promise<void> {
    await Promise.all([
      this.client.deleteRow(this.t.notifications, notificationMemberKey(recipient, groupKey, member)),
      this.client.deleteColumn(this.t.notifications, notificationGroupKey(recipient, groupKey), `n:m.${member}`),
    ]);
  }

  async forgetGroup(recipient: string, groupKey: string): Promise<void> {
    const group = notificationGroupKey(recipient, groupKey);
    const row = await this.client.getRow(this.t.notifications, group, { columns: ['n:s', 'n:t'] });
    const state = cellText(row, 'n:s');
    let at: number | null = since(cellText(row, 'n:t'));
    try {
      at = state ? ((JSON.parse(state) as { t?: number }).t ?? at) : at;
    } catch {
      // an unreadable state: no entry to find
    }
    // The group row and its members: the group key + 0x00 + member; a longer group key (another
    // group) never continues with 0x00, so only this group's rows are taken.
    const members: HBaseRow[] = [];
    for await (const r of this.client.scan(this.t.notifications, {
      prefix: concatBytes(group, Uint8Array.of(0)),
      limit: 1000,
      columns: ['m:t'],
    }))
      members.push(r);
    await Promise.all([
      ...(typeof at === 'number' && Number.isSafeInteger(at)
        ? [this.client.deleteRow(this.t.notifications, notificationEntryKey(recipient, at, groupKey))]
        : []),
      forEachLimit(members, DELETES_AT_ONCE, (r) => this.client.deleteRow(this.t.notifications, r.key)),
    ]);
    await this.client.deleteRow(this.t.notifications, group);
  }

  async dropOwnRows(handle: string, limit: number): Promise<number> {
    let left = limit;
    for (const table of KEYED_BY_USER) {
      if (left <= 0) break;
      left -= await this.dropPrefix(this.t[table], userKey(handle), left);
    }
    for (const prefix of [notificationEntryPrefix(handle), ...OWN_KINDS.map((k) => listPrefix(handle, k))]) {
      if (left <= 0) break;
      left -= await this.dropText(prefix.includes('/T/') ? this.t.notifications : this.t.lists, prefix, left);
    }
    return limit - left;
  }

  /** Deletes up to `limit` rows under a binary prefix; returns how many. */
  private async dropPrefix(table: string, prefix: Uint8Array, limit = 1000): Promise<number> {
    const rows: HBaseRow[] = [];
    for await (const row of this.client.scan(table, { prefix, limit })) rows.push(row);
    await forEachLimit(rows, DELETES_AT_ONCE, (r) => this.client.deleteRow(table, r.key));
    return rows.length;
  }

  /** Deletes up to `limit` rows under a text prefix; returns how many. */
  private async dropText(table: string, prefix: string, limit = 1000): Promise<number> {
    const rows = await this.client.scanText(table, { prefix, limit });
    await forEachLimit(rows, DELETES_AT_ONCE, (r) => this.client.deleteRow(table, r.key));
    return rows.length;
  }

  private async listed(owner: string, kind: ListKind, limit: number): Promise<{ since: number; other: string }[]> {
    const prefix = listPrefix(owner, kind);
    const rows = await this.client.scanText(this.t.lists, { prefix, limit, columns: [ENTRY] });
    return rows.flatMap((r) => parseAnyListRowKey(prefix, bytesToString(r.key)) ?? []);
  }
}

/**
 * A stored text's JSON without its mention spans of `handle` ([[handle, start, end]…] under `m`:
 * a post's entities, a comment's value), or under `e` as an entities string for a post's
 * history entry (`nested`); null when it names no such span (or is not of the layout). The text
 * itself is kept: only the link goes.
 */
function withoutLinkTo(handle: string, text: string, nested: boolean): string | null {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  if (nested) {
    if (typeof value.e !== 'string') return null;
    const e = withoutLinkTo(handle, value.e, false);
    if (e === null) return null;
    const { e: _old, ...rest } = value;
    return JSON.stringify(e === '' ? rest : { ...rest, e });
  }
  const spans = Array.isArray(value.m) ? (value.m as unknown[]) : [];
  const kept = spans.filter((s) => !(Array.isArray(s) && s[0] === handle));
  if (kept.length === spans.length) return null;
  const { m: _old, ...rest } = value;
  const next = kept.length ? { ...rest, m: kept } : rest;
  return Object.keys(next).length ? JSON.stringify(next) : '';
}

/** The handle of a user key (the rest of a reactors or blocks key). */
const userOfKey = (key: Uint8Array): string => handleFromKey(key).handle;
