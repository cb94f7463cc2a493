// shared/schema/row-keys.ts — the only place row keys are built or parsed. The layout and the
// access patterns that rely on it are written in ./tables.ts.
// Identifiers belong to the domain (handle format, post-id format, feed order); keys are built
// from them and never the other way round.
import { createHash, randomBytes } from 'node:crypto';
import { concatBytes } from '../hbase/codec.js';
import { HANDLE_PATTERN } from '../domain/handle.js';
import { normalizeTopic, type MentionPlace } from '../domain/text-entities.js';
import { formatPostId, isPostId, parsePostId, POST_SUFFIX_BYTES } from '../domain/post.js';
import { COMMENT_ID_PATTERN } from '../domain/comment.js';
import { mediaIdBytes } from '../domain/media-id.js';
import { isNaming } from '../domain/people-search.js';
import type { DepartureStage } from '../domain/leaving.js';
import { SESSION_ID_BYTES } from '../domain/limits.js';
import { md5Salt } from './salt.js';

const SALT_BYTES = 2;
const USER_TERMINATOR = 0x00;
export const REV_TS_BYTES = 8;
const MAX_LONG = (1n << 63n) - 1n;

const utf8 = new TextEncoder();

function assertHandle(handle: string): void {
  if (!HANDLE_PATTERN.test(handle)) throw new RangeError(`invalid handle for a row key: ${JSON.stringify(handle)}`);
}

/**
 * salt2 + handle + 0x00. The salt spreads users over regions; the terminator makes every
 * user's key range disjoint from every other user's (`1\0…` is not a prefix of `10\0…`).
 */
export function userKey(handle: string): Uint8Array {
  assertHandle(handle);
  // One allocation and the salt computed in place (./salt.ts): the fan-out builds 1,000 of
  // these per inbox put, and handles are ASCII (HANDLE_PATTERN), one byte per character.
  const key = new Uint8Array(SALT_BYTES + handle.length + 1);
  md5Salt(handle, key);
  utf8.encodeInto(handle, key.subarray(SALT_BYTES));
  key[SALT_BYTES + handle.length] = USER_TERMINATOR;
  return key;
}

/** Reads the handle back out of any key that starts with a userKey. */
export function handleFromKey(key: Uint8Array, offset = 0): { handle: string; end: number } {
  const start = offset + SALT_BYTES;
  const end = key.indexOf(USER_TERMINATOR, start);
  if (end < 0) throw new RangeError('not a user key: no terminator');
  return { handle: new TextDecoder().decode(key.subarray(start, end)), end: end + 1 };
}

/** 8 bytes big-endian of (2^63-1 − millis): ascending byte order = newest first. */
export function reversedTimestamp(millis: number): Uint8Array {
  const out = new Uint8Array(REV_TS_BYTES);
  new DataView(out.buffer).setBigUint64(0, MAX_LONG - BigInt(millis));
  return out;
}

export function timestampFromReversed(bytes: Uint8Array, offset = 0): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, REV_TS_BYTES);
  return Number(MAX_LONG - view.getBigUint64(0));
}

/**
 * userKey(author) + revTs8 + suffix6: a post's row key. The key's order within a millisecond is
 * the domain's feed order (domain/post.ts feedOrderKey): salt, handle, then suffix.
 */
export function postKey(
  author: string,
  millis: number,
  suffix: Uint8Array = randomBytes(POST_SUFFIX_BYTES),
): Uint8Array {
  if (suffix.length !== POST_SUFFIX_BYTES) throw new RangeError('post suffix must be 6 bytes');
  return concatBytes(userKey(author), reversedTimestamp(millis), suffix);
}

export function parsePostKey(key: Uint8Array): { author: string; millis: number; suffix: Uint8Array } {
  const { handle, end } = handleFromKey(key);
  if (key.length !== end + REV_TS_BYTES + POST_SUFFIX_BYTES) throw new RangeError('not a post key: wrong length');
  return { author: handle, millis: timestampFromReversed(key, end), suffix: key.slice(end + REV_TS_BYTES) };
}

/** The row key of a post id; null when the id is not one we could have issued. */
export function keyFromPostId(id: string): Uint8Array | null {
  const parts = parsePostId(id);
  if (!parts) return null;
  return postKey(parts.author, parts.millis, Uint8Array.from(Buffer.from(parts.suffix, 'hex')));
}

/** The post id of a post's row key (the inverse of keyFromPostId). */
export function postIdFromKey(key: Uint8Array): string {
  const { author, millis, suffix } = parsePostKey(key);
  return formatPostId({ author, millis, suffix: Buffer.from(suffix).toString('hex') });
}

export type EdgeDirection = 'F' | 'R';

/** 'F': `from` follows `to` (source of truth). 'R': `from` is followed by `to`. */
export function relationKey(from: string, direction: EdgeDirection, to: string): Uint8Array {
  return concatBytes(relationPrefix(from, direction), userKey(to));
}

/** Bounds a following ('F') or followers ('R') list scan to one user's rows. */
export function relationPrefix(user: string, direction: EdgeDirection): Uint8Array {
  return concatBytes(userKey(user), utf8.encode(direction));
}

/** The salt's value space (2 bytes) that segments divide. */
const SALT_VALUES = 1 << (8 * SALT_BYTES);

/**
 * Segment `index` of `of` of one user's edge rows of a direction: the rows whose OTHER user's
 * salt v has floor(v·of/65536) = index. The salt is uniform (md5), so segments hold
 * about equal shares of a big follower list, and a big post's fan-out runs one message per
 * segment, side by side. `stopRow` is absent for the last segment (the prefix bounds it).
 */
export function relationSegment(
  user: string,
  direction: EdgeDirection,
  index: number,
  of: number,
): { startRow: Uint8Array; stopRow?: Uint8Array } {
  return saltRows(relationPrefix(user, direction), segmentSalts(index, of));
}

/** The rows under `prefix` whose next two bytes (a user key's salt) are in [lo, hi). */
function saltRows(
  prefix: Uint8Array,
  { lo, hi }: { lo: number; hi: number },
): { startRow: Uint8Array; stopRow?: Uint8Array } {
  const saltBytes = (v: number) => Uint8Array.of(v >> 8, v & 0xff);
  return hi >= SALT_VALUES
    ? { startRow: concatBytes(prefix, saltBytes(lo)) }
    : { startRow: concatBytes(prefix, saltBytes(lo)), stopRow: concatBytes(prefix, saltBytes(hi)) };
}

/** The salts [lo, hi) of segment `index` of `of` (relationSegment's row range, as salt values). */
export function segmentSalts(index: number, of: number): { lo: number; hi: number } {
  if (!Number.isInteger(of) || of < 1 || of > SALT_VALUES || !Number.isInteger(index) || index < 0 || index >= of) {
    throw new RangeError(`invalid segment ${index} of ${of}`);
  }
  // ceil: salt v is in segment floor(v·of/65536) exactly when v ≥ ceil(index·65536/of) (segmentOf).
  return { lo: Math.ceil((index * SALT_VALUES) / of), hi: Math.ceil(((index + 1) * SALT_VALUES) / of) };
}

/** The salt of a user key (its first two bytes) as a number, 0..65535. */
export function saltOfKey(key: Uint8Array, offset = 0): number {
  return (key[offset]! << 8) | key[offset + 1]!;
}

/**
 * The packed audience (tables.ts, relations): a user's followers side is also kept as one cell
 * per block of followers, block = the follower's salt's top 4 bits, in the row
 * userKey(user) + 'P' + block byte. 'P' sorts between 'F' and 'R', so no edge scan meets it.
 */
export const AUDIENCE_BLOCKS = 16;
const BLOCK_SALTS = SALT_VALUES / AUDIENCE_BLOCKS;

/** The block a salt falls in, and a block's salts [lo, hi). */
export const audienceBlockOf = (salt: number): number => Math.floor(salt / BLOCK_SALTS);
export const audienceBlockSalts = (block: number): { lo: number; hi: number } => ({
  lo: block * BLOCK_SALTS,
  hi: (block + 1) * BLOCK_SALTS,
});

export function audiencePackKey(user: string, block: number): Uint8Array {
  if (!Number.isInteger(block) || block < 0 || block >= AUDIENCE_BLOCKS)
    throw new RangeError(`invalid audience block ${block}`);
  return concatBytes(userKey(user), utf8.encode('P'), Uint8Array.of(block));
}

/** A block's rows of the followers side: userKey(user) + 'R' + salt(lo) up to salt(hi) (none past the prefix for the last). */
export function audienceBlockRows(user: string, block: number): { startRow: Uint8Array; stopRow?: Uint8Array } {
  return saltRows(relationPrefix(user, 'R'), audienceBlockSalts(block));
}

/** Which of `of` segments a user's key falls in (the inverse of relationSegment, for tests and fakes). */
export function segmentOf(handle: string, of: number): number {
  return Math.floor((saltOfKey(userKey(handle)) * of) / SALT_VALUES);
}

/** Inbox qualifier: revTs of the post, then the post key — newest first across followees. */
export function inboxQualifier(post: Uint8Array): Uint8Array {
  const { millis } = parsePostKey(post);
  return concatBytes(reversedTimestamp(millis), post);
}

export function postKeyFromInboxQualifier(qualifier: Uint8Array): Uint8Array {
  return qualifier.slice(REV_TS_BYTES);
}

export function idempotencyKey(author: string, clientKey: string): Uint8Array {
  return concatBytes(userKey(author), utf8.encode(clientKey));
}

/** The smallest key sorting after `key`: a scan's start row for "strictly after this row". */
export function keyAfter(key: Uint8Array): Uint8Array {
  return concatBytes(key, Uint8Array.of(0x00));
}

/**
 * userKey(author) + revTs8(millis). Keys are newest first, so as a scan's stop row this keeps
 * exactly the author's posts created strictly after `millis` (a post at `millis` sorts after it).
 */
export function authorPostsBoundary(author: string, millis: number): Uint8Array {
  return concatBytes(userKey(author), reversedTimestamp(millis));
}

/** reactions: the user side (truth) of the user's like / reposts of one post. */
export function reactionKey(user: string, post: Uint8Array): Uint8Array {
  return concatBytes(userKey(user), post);
}

export type ReactorKind = 'L' | 'R';

/** reactors: the post side — 'L' + userKey(liker) or 'R' + postKey(repost). */
export function reactorPrefix(post: Uint8Array, kind: ReactorKind): Uint8Array {
  return concatBytes(post, utf8.encode(kind));
}

export function reactorKey(post: Uint8Array, kind: ReactorKind, suffix: Uint8Array): Uint8Array {
  return concatBytes(reactorPrefix(post, kind), suffix);
}

/**
 * comments: ASCII on purpose (the REST stateless scan, the only reverse scan, takes string
 * rows). hex4(md5(postId)) spreads posts over regions; '/' ends the post id.
 */
export function commentPrefix(postId: string): string {
  return `${createHash('md5').update(postId).digest('hex').slice(0, 4)}${postId}/`;
}

export function commentRowKey(postId: string, commentId: string): string {
  return commentPrefix(postId) + commentId;
}

/** quota: userKey + action + 0x00 + window4 (the window's number: minutes since the epoch, domain/quota.ts). */
export function quotaKey(user: string, action: string, window: number): Uint8Array {
  const m = new Uint8Array(4);
  new DataView(m.buffer).setUint32(0, window);
  return concatBytes(userKey(user), utf8.encode(action), Uint8Array.of(0), m);
}

/** notifications, group row: userKey(recipient) + 'G' + groupKey (ASCII). */
export function notificationGroupKey(recipient: string, groupKey: string): Uint8Array {
  return concatBytes(userKey(recipient), utf8.encode('G'), utf8.encode(groupKey));
}

/** notifications, member row: the group row's key + 0x00 + member (a group key never holds 0x00). */
export function notificationMemberKey(recipient: string, groupKey: string, member: string): Uint8Array {
  return concatBytes(notificationGroupKey(recipient, groupKey), Uint8Array.of(0), utf8.encode(member));
}

/**
 * notifications, list entry — TEXT on purpose, like comment keys: the REST gateway's stateless
 * scan, the only one that runs in reverse and the only one-request scan, takes text rows.
 * hex4(md5(handle)) + handle + '/T/' + 13-digit millis + '/' + groupKey; newest first = reversed.
 * A handle never holds '/', so no user's range contains another's; binary keys of the same
 * table (userKey + 0x00 …) never fall inside it.
 */
export function notificationEntryPrefix(recipient: string): string {
  assertHandle(recipient);
  return `${createHash('md5').update(recipient).digest('hex').slice(0, 4)}${recipient}/T/`;
}

export function notificationEntryKey(recipient: string, at: number, groupKey: string): string {
  return `${notificationEntryPrefix(recipient)}${String(at).padStart(13, '0')}/${groupKey}`;
}

/** The time and group key of a list entry row (the inverse of notificationEntryKey). */
export function parseNotificationEntryKey(recipient: string, key: string): { at: number; groupKey: string } {
  const rest = key.slice(notificationEntryPrefix(recipient).length);
  return { at: Number(rest.slice(0, 13)), groupKey: rest.slice(14) };
}

export function notificationMarkerKey(recipient: string): Uint8Array {
  return concatBytes(userKey(recipient), utf8.encode('M'));
}

/**
 * topics: hex4(md5(name)) + name + '/' — one topic's rows. TEXT, like the list keys, so a page is
 * ONE stateless scan; a name never holds '/' (text-entities.ts), so "ab" never lists "ab c".
 */
export function topicPrefix(name: string): string {
  return `${createHash('md5').update(name).digest('hex').slice(0, 4)}${name}/`;
}

/** topics: topicPrefix + inv13(post time) + '/' + post id — a topic's posts newest first. */
export function topicEntryKey(name: string, postId: string): string {
  const parts = parsePostId(postId);
  if (!parts) throw new RangeError(`invalid post id for a topic key: ${JSON.stringify(postId)}`);
  // No post is that far in the future; a cursor naming such a time reads from the newest.
  return `${topicPrefix(name)}${inverted13(Math.min(parts.millis, LIST_TIME_MAX))}/${postId}`;
}

/**
 * search: hex4(md5(term)) + term + '/' — one term's rows (domain/post-search.ts indexTerms). TEXT,
 * like the topic index, so a term's page is ONE stateless scan; a term never holds '/' (letters,
 * digits, CJK characters, '#' + a topic name, '@' + a handle), so "ab" never lists "ab c".
 */
export function searchPrefix(term: string): string {
  if (term.length === 0 || term.includes('/')) throw new RangeError(`invalid search term: ${JSON.stringify(term)}`);
  return `${createHash('md5').update(term).digest('hex').slice(0, 4)}${term}/`;
}

/** search: searchPrefix + inv13(post time) + '/' + post id — a term's posts newest first. */
export function searchEntryKey(term: string, postId: string): string {
  const parts = parsePostId(postId);
  if (!parts) throw new RangeError(`invalid post id for a search key: ${JSON.stringify(postId)}`);
  return `${searchPrefix(term)}${inverted13(Math.min(parts.millis, LIST_TIME_MAX))}/${postId}`;
}

/** The post id of a search row (the inverse of searchEntryKey), or null for a row not of that shape. */
export const postIdOfSearchKey = postIdOfTopicKey;

/**
 * topics: '#' + name — the name row, one per topic in use: the names a prefix starts are ONE
 * key range. '#' is never the first character of a hex salt, so these rows never fall inside a
 * topic's entries, and never a character of a name (text-entities.ts), so the name is the rest.
 */
export const topicNameKey = (name: string): string => `#${name}`;

/** The name of a name row (the inverse of topicNameKey), or null for a row not of that shape. */
export function topicNameOfKey(key: string): string | null {
  if (!key.startsWith('#')) return null;
  const name = key.slice(1);
  return normalizeTopic(name) === name ? name : null;
}

/** The post id of a topic row (the inverse of topicEntryKey), or null for a row not of that shape. */
export function postIdOfTopicKey(prefix: string, key: string): string | null {
  if (!key.startsWith(prefix) || key[prefix.length + 13] !== '/') return null;
  const id = key.slice(prefix.length + 14);
  return isPostId(id) ? id : null;
}

/**
 * people: term + 0x00 + handle + 0x00 + naming version — one row per findable term of a user's
 * naming (domain/people-search.ts). UNSALTED: a query is a prefix of the term, so the rows of
 * every term it prefixes must be one key range. 0x00 sorts below every character a term can hold
 * (names have no control characters), so the rows of a term equal to the query come first.
 */
export function peopleKey(term: string, handle: string, naming: string): Uint8Array {
  assertHandle(handle);
  if (term.length === 0 || term.includes('\0') || !isNaming(naming))
    throw new RangeError(`invalid people index entry: ${JSON.stringify([term, naming])}`);
  return concatBytes(utf8.encode(term), Uint8Array.of(0), utf8.encode(handle), Uint8Array.of(0), utf8.encode(naming));
}

/** The parts of a people row (the inverse of peopleKey), or null for a row not of that shape. */
export function parsePeopleKey(key: Uint8Array): { term: string; handle: string; naming: string } | null {
  const last = key.lastIndexOf(0);
  const middle = last > 0 ? key.lastIndexOf(0, last - 1) : -1;
  if (middle < 1) return null;
  const text = new TextDecoder();
  const handle = text.decode(key.subarray(middle + 1, last));
  const naming = text.decode(key.subarray(last + 1));
  if (!HANDLE_PATTERN.test(handle) || !isNaming(naming)) return null;
  return { term: text.decode(key.subarray(0, middle)), handle, naming };
}

/** trends: the counters of one bucket are spread over this many rows (shards), by topic name. */
export const TREND_SHARDS = 8;

/** The shard a topic's trend counters live in: md5(name)[0] mod TREND_SHARDS. */
export function trendShardOf(name: string): number {
  return createHash('md5').update(name).digest()[0]! % TREND_SHARDS;
}

/**
 * trends: shard1 + bucket4 (the bucket number big-endian). The shard leads so the current
 * bucket's increments — every write to this table — spread over TREND_SHARDS regions
 * (trendShardSplitPoints) instead of landing on the one region that holds the newest bucket.
 */
export function trendKey(shard: number, bucket: number): Uint8Array {
  if (!Number.isInteger(shard) || shard < 0 || shard >= TREND_SHARDS)
    throw new RangeError(`invalid trend shard ${shard}`);
  const out = new Uint8Array(5);
  out[0] = shard;
  new DataView(out.buffer).setUint32(1, bucket);
  return out;
}

/** hot: the engagements of one hour are spread over this many rows (shards), by post id. */
export const HOT_SHARDS = TREND_SHARDS;

/** The shard a post's engagements are filed in: md5(post id)[0] mod HOT_SHARDS. */
export function hotShardOf(postId: string): number {
  return createHash('md5').update(postId).digest()[0]! % HOT_SHARDS;
}

/**
 * hot: shard1 + hour bucket4 (big-endian) — one hour's engagements of the posts of one shard.
 * The shard leads, as in trends, so the current hour's writes spread over HOT_SHARDS regions
 * (the table splits as trends does, SPLITS 'shard').
 */
export function hotEngagementKey(shard: number, bucket: number): Uint8Array {
  if (!Number.isInteger(shard) || shard < 0 || shard >= HOT_SHARDS) throw new RangeError(`invalid hot shard ${shard}`);
  const out = new Uint8Array(5);
  out[0] = shard;
  new DataView(out.buffer).setUint32(1, bucket);
  return out;
}

/** hot: the ranking row — 0xff + 'ranking', above every shard's rows (in the last region). */
export const HOT_RANKING_KEY = concatBytes(Uint8Array.of(0xff), new TextEncoder().encode('ranking'));

/** hot: an engagement's qualifier, post id + '/' + handle (neither holds '/'): a person counts once a post an hour. */
export const hotEngagementQualifier = (postId: string, handle: string): string => `${postId}/${handle}`;

/** The post id and handle of an engagement qualifier, or null for one not of that shape. */
export function parseHotEngagementQualifier(qualifier: string): { postId: string; handle: string } | null {
  const slash = qualifier.lastIndexOf('/');
  const postId = qualifier.slice(0, slash);
  const handle = qualifier.slice(slash + 1);
  return slash > 0 && isPostId(postId) && HANDLE_PATTERN.test(handle) ? { postId, handle } : null;
}

export type BlockKind = 'B' | 'M';

/** blocks: userKey(a) + 'B' (a blocks b) or 'M' (a mutes b) + userKey(b). */
export function blockKey(from: string, kind: BlockKind, to: string): Uint8Array {
  return concatBytes(blockPrefix(from, kind), userKey(to));
}

export function blockPrefix(from: string, kind: BlockKind): Uint8Array {
  return concatBytes(userKey(from), utf8.encode(kind));
}

/**
 * lists: the newest-first index beside an edge (tables.ts, lists) — TEXT on purpose, like comment
 * and notification-entry keys: the REST gateway's stateless scan takes text rows and reads a page
 * in ONE request. hex4(md5(owner)) + owner + '/' + kind + '/' + 13 digits of (LIST_TIME_MAX −
 * since) + '/' + the other user's handle: ascending = newest first, one since's entries by
 * handle, so (since, handle) is a position no later entry can take. The owner is a handle for
 * 'F' following, 'R' followers, 'B' blocked, 'M' muted, and a post id for 'L' its likers; neither
 * ever holds '/', so no owner's rows fall inside another's. 'K' (收藏, bookmarks) is the one kind
 * whose other is a post id, not a handle: the owner's bookmarked posts. 'N' and 'n' index
 * mentions (mentionRowKeys).
 */
export type ListKind = 'F' | 'R' | 'B' | 'M' | 'L' | 'K' | 'W' | 'b' | 'm' | 'k' | 'N' | 'n';

/** The kinds whose owner is a post id, not a handle: 'L' its likers, 'k' who bookmarked it, 'n' whom it (or a comment on it) names. */
const POST_OWNED = new Set<ListKind>(['L', 'k', 'n']);

/** A kind W entry's other: the post and the comment written on it (neither holds '/' or '~'). */
const writtenOther = (postId: string, commentId: string) => `${postId}~${commentId}`;
function parseWrittenOther(other: string): { postId: string; commentId: string } | null {
  const at = other.lastIndexOf('~');
  const postId = other.slice(0, at);
  const commentId = other.slice(at + 1);
  return at > 0 && isPostId(postId) && COMMENT_ID_PATTERN.test(commentId) ? { postId, commentId } : null;
}
const isWrittenOther = (other: string) => parseWrittenOther(other) !== null;

/** The row key of `author`'s entry for the comment `commentId` on `postId`, written at `at` (kind W). */
export const writtenRowKey = (author: string, at: number, postId: string, commentId: string) =>
  listRowKey(author, 'W', at, writtenOther(postId, commentId));

/** A kind W row's comment (the inverse of writtenRowKey), or null. */
export function parseWrittenRowKey(
  prefix: string,
  key: string,
): { since: number; postId: string; commentId: string } | null {
  const row = parseListRow(prefix, key, isWrittenOther);
  const written = row && parseWrittenOther(row.other);
  return row && written ? { since: row.since, ...written } : null;
}

/** A kind N entry's other: the place (a post id, or post id + '~' + comment id as for W). */
const placeOther = (p: MentionPlace) => (p.commentId === undefined ? p.postId : writtenOther(p.postId, p.commentId));
/** A kind n entry's other: the named handle, + '~' + the comment id for a comment's mention. */
const namedOther = (handle: string, p: MentionPlace) =>
  p.commentId === undefined ? handle : `${handle}~${p.commentId}`;
const isNamedOther = (other: string) => {
  const [handle, commentId, ...rest] = other.split('~');
  return (
    rest.length === 0 && HANDLE_PATTERN.test(handle!) && (commentId === undefined || COMMENT_ID_PATTERN.test(commentId))
  );
};

/**
 * The two entries of one mention (@handle in a post or comment, written at `since`): kind N under
 * the named user (where they are named: the erasure of that user unlinks each) and kind n under
 * the post (whom it and its comments name: the erasure of the post's author finds the N entries
 * naming its posts there). Written in one put, before the text names the user.
 */
export const mentionRowKeys = (handle: string, place: MentionPlace, since: number): [string, string] => [
  listRowKey(handle, 'N', since, placeOther(place)),
  listRowKey(place.postId, 'n', since, namedOther(handle, place)),
];

/** A kind N row's place (the inverse of mentionRowKeys' first), or null. */
export function parseNamedInRowKey(prefix: string, key: string): { since: number; place: MentionPlace } | null {
  const row = parseListRow(prefix, key, (o) => isPostId(o) || isWrittenOther(o));
  if (!row) return null;
  const comment = parseWrittenOther(row.other);
  return {
    since: row.since,
    place: comment ? { postId: comment.postId, commentId: comment.commentId } : { postId: row.other },
  };
}

/** A kind n row of `postId` (the inverse of mentionRowKeys' second): who is named, and where; or null. */
export function parseNamesRowKey(
  postId: string,
  key: string,
): { since: number; handle: string; place: MentionPlace } | null {
  const row = parseListRow(listPrefix(postId, 'n'), key, isNamedOther);
  if (!row) return null;
  const [handle, commentId] = row.other.split('~');
  return { since: row.since, handle: handle!, place: commentId === undefined ? { postId } : { postId, commentId } };
}

/** The latest since a list key holds (13 digits: the year 2286). */
export const LIST_TIME_MAX = 9_999_999_999_999;

export function listPrefix(owner: string, kind: ListKind): string {
  if (POST_OWNED.has(kind) ? !isPostId(owner) : !HANDLE_PATTERN.test(owner))
    throw new RangeError(`invalid list owner for a row key: ${JSON.stringify(owner)}`);
  return `${createHash('md5').update(owner).digest('hex').slice(0, 4)}${owner}/${kind}/`;
}

/** 13 digits of LIST_TIME_MAX − millis: ascending = newest first. */
const inverted13 = (millis: number): string => String(LIST_TIME_MAX - millis).padStart(13, '0');

export function listRowKey(owner: string, kind: ListKind, since: number, other: string): string {
  if (!Number.isSafeInteger(since) || since < 0 || since > LIST_TIME_MAX)
    throw new RangeError(`since out of a list key's range: ${since}`);
  const valid =
    kind === 'K'
      ? isPostId(other)
      : kind === 'W'
        ? isWrittenOther(other)
        : kind === 'N'
          ? isPostId(other) || isWrittenOther(other)
          : kind === 'n'
            ? isNamedOther(other)
            : HANDLE_PATTERN.test(other);
  if (!valid) throw new RangeError(`invalid list entry for a row key: ${JSON.stringify(other)}`);
  return `${listPrefix(owner, kind)}${inverted13(since)}/${other}`;
}

/** The since and the other of a list row (the inverse of listRowKey), if `valid` takes the other; else null. */
function parseListRow(
  prefix: string,
  key: string,
  valid: (other: string) => boolean,
): { since: number; other: string } | null {
  if (!key.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length);
  const other = rest.slice(14);
  if (!/^\d{13}\/$/.test(rest.slice(0, 14)) || !valid(other)) return null;
  return { since: LIST_TIME_MAX - Number(rest.slice(0, 13)), other };
}

/** The since and the other user of a list row (the inverse of listRowKey); null for a row not of that prefix's shape. */
export function parseListRowKey(prefix: string, key: string): { since: number; handle: string } | null {
  const row = parseListRow(prefix, key, (h) => HANDLE_PATTERN.test(h));
  return row && { since: row.since, handle: row.other };
}

/** Any list row of `prefix` (whatever its kind): its since and its other, as text; null for a row not of the layout. */
export function parseAnyListRowKey(prefix: string, key: string): { since: number; other: string } | null {
  return parseListRow(prefix, key, (other) => other.length > 0);
}

/** The since and the post of a bookmark row (kind 'K'); null for a row not of that prefix's shape. */
export function parseBookmarkRowKey(prefix: string, key: string): { since: number; postId: string } | null {
  const row = parseListRow(prefix, key, isPostId);
  return row && { since: row.since, postId: row.other };
}

/**
 * Any follow entry of the lists table (kind F or R), whoever owns it: the edge it indexes as
 * follower → followee; null for another kind or a row not of the layout. For reads that meet
 * rows of many owners at once (a sample of the graph).
 */
export function parseFollowListRowKey(key: string): { follower: string; followee: string; since: number } | null {
  const m = /^[0-9a-f]{4}([a-z0-9_]{1,30})\/([FR])\/(\d{13})\/([a-z0-9_]{1,30})$/.exec(key);
  if (!m || createHash('md5').update(m[1]!).digest('hex').slice(0, 4) !== key.slice(0, 4)) return null;
  const since = LIST_TIME_MAX - Number(m[3]);
  return m[2] === 'F' ? { follower: m[1]!, followee: m[4]!, since } : { follower: m[4]!, followee: m[1]!, since };
}

/** The list rows' key space (hex4 salts, 16^4 of them) at `at` in [0, 1): where a sample starts. */
export function listKeyAt(at: number): string {
  if (!(at >= 0 && at < 1)) throw new RangeError(`a point of the key space is in [0, 1), got ${at}`);
  return Math.floor(at * 0x10000)
    .toString(16)
    .padStart(4, '0');
}

/**
 * lists, the departures (注销): accounts on their way out, by the time their next stage is due —
 * 'erase' (deactivated; due RESTORE_WINDOW_MS after the leave) and 'release' (erased; the handle
 * is free again from then). TEXT: '~departures/' + stage + '/' + 13-digit due + '/' + handle, so
 * oldest due first and ONE stateless scan reads what is due. '~' sorts above every hex4 salt:
 * no owner's list ever meets these rows (they all fall in the table's last region: a few a day).
 */

export function departurePrefix(stage: DepartureStage): string {
  return `~departures/${stage}/`;
}

export function departureRowKey(stage: DepartureStage, due: number, handle: string): string {
  assertHandle(handle);
  if (!Number.isSafeInteger(due) || due < 0 || due > LIST_TIME_MAX)
    throw new RangeError(`due out of a departure key's range: ${due}`);
  return `${departurePrefix(stage)}${String(due).padStart(13, '0')}/${handle}`;
}

/** The due time and handle of a departure row (the inverse of departureRowKey), or null. */
export function parseDepartureRowKey(stage: DepartureStage, key: string): { due: number; handle: string } | null {
  const m = /^(\d{13})\/([a-z0-9_]{1,30})$/.exec(key.slice(departurePrefix(stage).length));
  return key.startsWith(departurePrefix(stage)) && m && HANDLE_PATTERN.test(m[2]!)
    ? { due: Number(m[1]), handle: m[2]! }
    : null;
}

/**
 * throttle, one source's attempts at a handle: userKey(handle) + 'S' + source (an IPv4 address,
 * an IPv6 /64 prefix, or 'unknown'; printable ASCII, never 0x00).
 */
export function throttleSourceKey(handle: string, source: string): Uint8Array {
  return concatBytes(userKey(handle), utf8.encode('S'), utf8.encode(source));
}

/** throttle, every source's attempts at a handle in one fixed window: userKey(handle) + 'G' + window4. */
export function throttleGlobalKey(handle: string, window: number): Uint8Array {
  const w = new Uint8Array(4);
  new DataView(w.buffer).setUint32(0, window);
  return concatBytes(userKey(handle), utf8.encode('G'), w);
}

/** sessions: the session id itself (16 random bytes: already spread over regions, no salt needed). */
export function sessionKey(sessionId: Uint8Array): Uint8Array {
  if (sessionId.length !== SESSION_ID_BYTES) throw new RangeError(`session id must be ${SESSION_ID_BYTES} bytes`);
  return sessionId;
}

/** media: the media id's 16 random bytes (spread over regions like session ids); throws for a non-id. */
export function mediaKey(id: string): Uint8Array {
  const bytes = mediaIdBytes(id);
  if (!bytes) throw new RangeError(`invalid media id for a row key: ${JSON.stringify(id)}`);
  return bytes;
}

// --- pre-split points ----------------------------------------------------------------------
// Where a table's regions start when it is created with `regions` regions (tables.ts says which
// scheme each table's keys follow). The schemes spread keys whose leading bytes are uniform:
// an MD5 salt or random bytes. Every region gets 1/regions of that space.

/** The most regions a table is pre-split into: the first-byte scheme has 256 distinct points. */
export const MAX_REGIONS_PER_TABLE = 256;

function assertRegions(regions: number): void {
  if (!Number.isInteger(regions) || regions < 1 || regions > MAX_REGIONS_PER_TABLE) {
    throw new RangeError(`regions per table must be an integer from 1 to ${MAX_REGIONS_PER_TABLE} (got ${regions})`);
  }
}

/** The region boundaries i/regions of a 2^bits space (i = 1 … regions−1), ascending. */
function boundaries(regions: number, bits: number): number[] {
  assertRegions(regions);
  return Array.from({ length: regions - 1 }, (_, i) => Math.floor(((i + 1) * 2 ** bits) / regions));
}

/** userKey's binary salt (2 bytes of MD5): split keys of 2 bytes, e.g. 0x1000, 0x2000, … for 16. */
export function saltSplitPoints(regions: number): Uint8Array[] {
  return boundaries(regions, 8 * SALT_BYTES).map((b) => Uint8Array.of(b >> 8, b & 0xff));
}

/** Text keys salted with hex4(md5(…)) (comments, notification entries): "1000", "2000", … for 16. */
export function hexSaltSplitPoints(regions: number): Uint8Array[] {
  return boundaries(regions, 16).map((b) => utf8.encode(b.toString(16).padStart(4, '0')));
}

/**
 * trends (keys start with the shard byte): one region per shard at most, so `regions` beyond
 * TREND_SHARDS gives TREND_SHARDS regions; fewer regions take whole shards each.
 */
export function trendShardSplitPoints(regions: number): Uint8Array[] {
  assertRegions(regions);
  const used = Math.min(regions, TREND_SHARDS);
  return Array.from({ length: used - 1 }, (_, i) => Uint8Array.of(Math.floor(((i + 1) * TREND_SHARDS) / used)));
}

/**
 * notifications holds two key shapes: group / member / marker rows start with userKey's binary
 * salt, list entries with a hex4 text salt (first byte '0'–'9' or 'a'–'f'). The table's split
 * points are the union of both schemes, each cutting its space into about half the regions, so
 * both kinds of rows spread (the hex points fall inside the binary space too, and only cut it
 * finer there). `regions` − 1 points in all.
 */
export function saltAndHexSplitPoints(regions: number): Uint8Array[] {
  assertRegions(regions);
  if (regions === 1) return [];
  const salt = Math.ceil(regions / 2);
  const text = regions + 1 - salt;
  const points = [...saltSplitPoints(salt), ...hexSaltSplitPoints(text)];
  return points.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/**
 * people (keys start with a term's first character): 2-byte points spread evenly from '0' (0x30)
 * to past the last CJK lead byte (0xEA): every letter, digit, Latin and CJK start falls inside.
 * Even per first byte, not per user (a language's names crowd a few first bytes); HBase splits
 * a region that grows past its size by itself.
 */
export function termSplitPoints(regions: number): Uint8Array[] {
  assertRegions(regions);
  const lo = 0x3000;
  const hi = 0xeb00;
  return Array.from({ length: regions - 1 }, (_, i) => {
    const b = lo + Math.floor(((i + 1) * (hi - lo)) / regions);
    return Uint8Array.of(b >> 8, b & 0xff);
  });
}

/** Keys that start with random bytes (session ids): split keys of 1 byte. */
export function firstByteSplitPoints(regions: number): Uint8Array[] {
  return boundaries(regions, 8).map((b) => Uint8Array.of(b));
}

/** The watchers row of an author: its userKey + 'w' (shared/schema/tables.ts live). */
export function watchersKey(author: string): Uint8Array {
  const user = userKey(author);
  const key = new Uint8Array(user.length + 1);
  key.set(user);
  key[user.length] = 0x77; // 'w'
  return key;
}

/** A connection's row: salt2(id) + '~' + id ('~' is never a handle's first byte, so no user row starts so). */
export function connectionKey(id: string): Uint8Array {
  const text = utf8.encode(`~${id}`);
  const key = new Uint8Array(SALT_BYTES + text.length);
  md5Salt(id, key);
  key.set(text, SALT_BYTES);
  return key;
}

/**
 * A conversation's row (tables.ts messages): salt2 of the pair + '!' + the lower handle + 0x00 +
 * the higher one. Either side names the same row; '!' is never a handle's first byte, so no
 * user's index row (userKey + 'i') starts so.
 */
export function conversationKey(a: string, b: string): Uint8Array {
  assertHandle(a);
  assertHandle(b);
  const [low, high] = a < b ? [a, b] : [b, a];
  const text = utf8.encode(`!${low}\u0000${high}`);
  const key = new Uint8Array(SALT_BYTES + text.length);
  md5Salt(`${low}|${high}`, key);
  key.set(text, SALT_BYTES);
  return key;
}

/** A user's index of conversations (tables.ts messages): their userKey + 'i'. */
export function conversationIndexKey(owner: string): Uint8Array {
  const user = userKey(owner);
  const key = new Uint8Array(user.length + 1);
  key.set(user);
  key[user.length] = 0x69; // 'i'
  return key;
}

/** groups: an owner's book of groups (tables.ts groups) is the owner's userKey. */
export const groupBookKey = (owner: string): Uint8Array => userKey(owner);

/** groups: who holds the member in a group — the member's userKey + 'H'. */
export function groupHoldersKey(member: string): Uint8Array {
  return concatBytes(userKey(member), utf8.encode('H'));
}

/** groups: the 特别关注 notices an author's posts may have sent — the author's userKey + 'N'. */
export function groupToldKey(author: string): Uint8Array {
  return concatBytes(userKey(author), utf8.encode('N'));
}

/** meta: the row that records the namespace's layout version. */
export const LAYOUT_ROW = 'layout';

/** meta: the progress row of the migration to layout `to`. */
export const migrationRowKey = (to: number): string => `migration/${to}`;
