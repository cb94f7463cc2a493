// shared/domain/post.ts — domain: what a post is, its public id and feed order. The id is
// readable and path-safe: `<author>.<millis>.<12 hex>`. Storage maps it 1:1 onto a row key
// (shared/schema/row-keys.ts imports this module, never the other way round).
import { createHash, randomBytes } from 'node:crypto';
import type { MentionSpan, TopicSpan } from './text-entities.js';

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
  /** Its pictures (up to nine, in order), stored with the post so a timeline page reads them in its one multi-get. */
  media?: PostMedia[];
  /** How many times it was edited (编辑); absent: never. The `If-Match` an edit must name. */
  version?: number;
  /** When it was last edited; absent: never. */
  editedAt?: number;
}

/** An edit is allowed this long after publishing (Weibo's rule: 24 hours). */
export const EDIT_WINDOW_MS = 24 * 3_600_000;
/** At most this many edits a post. */
export const MAX_EDITS = 10;

/** One version of a post's text, as its history shows it. */
export interface PostVersion {
  /** 0 for the text as published, n after the n-th edit. */
  version: number;
  body: string;
  mentions?: MentionSpan[];
  topics?: TopicSpan[];
  /** When this version became the post's text (published, or edited). */
  at: number;
}

/** A picture as a post carries it: what a reader needs to reserve its space and fetch it. */
export interface PostMedia {
  id: string;
  /** Alt text (for screen readers), at most 1,500 characters; absent when none was given. */
  alt?: string;
  width: number;
  height: number;
  animated: boolean;
  /** `#rrggbb`, shown until the bytes arrive. */
  placeholder: string;
  /** By name (thumb, feed, large): each variant's size and URL. */
  variants: Record<string, { width: number; height: number; url: string }>;
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

/** The random part of a post id, in bytes: it makes two posts of one author in one millisecond distinct. */
export const POST_SUFFIX_BYTES = 6;

export const POST_ID_PATTERN = /^([a-z0-9_]{1,30})\.(\d{1,16})\.([0-9a-f]{12})$/;

export interface PostIdParts {
  author: string;
  millis: number;
  /** POST_SUFFIX_BYTES bytes as lowercase hex. */
  suffix: string;
}

/** The parts of a post id; null when the id is not one we could have issued. */
export function parsePostId(id: string): PostIdParts | null {
  const m = POST_ID_PATTERN.exec(id);
  if (!m) return null;
  const millis = Number(m[2]);
  if (!Number.isSafeInteger(millis)) return null;
  return { author: m[1]!, millis, suffix: m[3]! };
}

export function isPostId(id: string): boolean {
  return parsePostId(id) !== null;
}

export function formatPostId({ author, millis, suffix }: PostIdParts): string {
  return `${author}.${millis}.${suffix}`;
}

/** A fresh id for a post `author` publishes at `millis`. */
export function newPostId(author: string, millis: number): string {
  return formatPostId({ author, millis, suffix: randomBytes(POST_SUFFIX_BYTES).toString('hex') });
}

export function authorOfPostId(id: string): string | null {
  return POST_ID_PATTERN.exec(id)?.[1] ?? null;
}

export function millisOfPostId(id: string): number | null {
  return parsePostId(id)?.millis ?? null;
}

const MAX_LONG = (1n << 63n) - 1n;

/**
 * Feed order: newest first; among posts of the same millisecond a fixed order — by
 * md5(author)'s first two bytes, then the author, then the suffix. Storage lays inbox, outbox and
 * topic cells out in exactly this order (row-keys.ts: reversed time, then the post key, whose
 * user part starts with that md5 salt), so a merge of an inbox with outboxes gives the order a
 * single inbox would; test/unit/row-keys.test.ts holds the two orders together.
 */
export function feedOrderKey(id: string): string {
  const parts = parsePostId(id);
  if (!parts) throw new RangeError(`not a post id: ${JSON.stringify(id)}`);
  const reversed = (MAX_LONG - BigInt(parts.millis)).toString(16).padStart(16, '0');
  const salt = createHash('md5').update(parts.author).digest('hex').slice(0, 4);
  // '\0' ends the author as the key's 0x00 terminator does: "ab" sorts before "abc".
  return `${reversed}${salt}${parts.author}\u0000${parts.suffix}`;
}

/** Merges post-id lists into one feed-ordered list without duplicates. */
export function mergeFeed(...lists: string[][]): string[] {
  const byKey = new Map<string, string>();
  for (const list of lists) for (const id of list) if (isPostId(id)) byKey.set(feedOrderKey(id), id);
  return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
}
