// shared/domain/post.ts — what a post is, and its public id. The id is readable and path-safe:
// `<author>.<millis>.<12 hex>`; it maps 1:1 onto the post's row key (shared/schema/row-keys.ts).
import { postKey as buildPostKey, inboxQualifier, parsePostKey, POST_SUFFIX_BYTES } from '../schema/row-keys.js';
import type { MentionSpan, TopicSpan } from './text-entities.js';

/** The documented limit on a post body, in Unicode code points. */
export const POST_MAX_CODE_POINTS = 500;

export interface Post {
  id: string;
  author: string;
  body: string;
  createdAt: number;
  /** A repost (转发): the id of the original it points at — always a root original, never a repost. */
  repostOf?: string;
  /** @mentions of registered users, parsed once at write time (code-point offsets into body). */
  mentions?: MentionSpan[];
  /** #topics#, parsed once at write time (normalised names, code-point offsets into body). */
  topics?: TopicSpan[];
}

/** Exact counts kept on the post row by server-side increments (shared/schema/tables.ts, content). */
export interface PostCounts {
  likes: number;
  comments: number;
  reposts: number;
}

export const NO_COUNTS: PostCounts = Object.freeze({ likes: 0, comments: 0, reposts: 0 });

/** A post as storage reads it back: the post and its counts. */
export interface StoredPost extends Post {
  counts: PostCounts;
}

/** An entry of a feed-ordered list (inbox, outbox): the post, and the original if it is a repost. */
export interface FeedEntry {
  id: string;
  repostOf?: string;
}

export const POST_ID_PATTERN = /^([a-z0-9_]{1,30})\.(\d{1,16})\.([0-9a-f]{12})$/;

export function postIdFromKey(key: Uint8Array): string {
  const { author, millis, suffix } = parsePostKey(key);
  return `${author}.${millis}.${Buffer.from(suffix).toString('hex')}`;
}

/** Row key for a post id; null when the id is not one we could have issued. */
export function keyFromPostId(id: string): Uint8Array | null {
  const m = POST_ID_PATTERN.exec(id);
  if (!m) return null;
  const millis = Number(m[2]);
  if (!Number.isSafeInteger(millis)) return null;
  const suffix = Uint8Array.from(Buffer.from(m[3]!, 'hex'));
  if (suffix.length !== POST_SUFFIX_BYTES) return null;
  return buildPostKey(m[1]!, millis, suffix);
}

export function authorOfPostId(id: string): string | null {
  return POST_ID_PATTERN.exec(id)?.[1] ?? null;
}

/**
 * Feed order: newest first, and among posts of the same millisecond a fixed order — exactly the
 * order of inbox and outbox cells in HBase (qualifier = reversed time + post key), so a merge
 * of an inbox with outboxes gives the same order a single inbox would.
 */
export function feedOrderKey(id: string): string {
  const key = keyFromPostId(id);
  if (!key) throw new RangeError(`not a post id: ${JSON.stringify(id)}`);
  return Buffer.from(inboxQualifier(key)).toString('hex');
}

/** Merges post-id lists into one feed-ordered list without duplicates. */
export function mergeFeed(...lists: string[][]): string[] {
  const byKey = new Map<string, string>();
  for (const list of lists) for (const id of list) if (keyFromPostId(id)) byKey.set(feedOrderKey(id), id);
  return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
}
