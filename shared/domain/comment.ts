// shared/domain/comment.ts — what a comment (评论) is, and its id. A comment belongs to one post;
// its id is unique within that post and sorts by creation time: `<13-digit millis>-<8 hex>`.
import { randomBytes } from 'node:crypto';
import type { MentionSpan } from './text-entities.js';

export const COMMENT_ID_PATTERN = /^(\d{13})-([0-9a-f]{8})$/;

export interface Comment {
  id: string;
  postId: string;
  author: string;
  body: string;
  createdAt: number;
  /** The comment this one answers, on the same post ("reply to @author"). */
  replyTo?: { id: string; author: string };
  /**
   * A reply's thread (楼中楼): the top-level comment it lives under. A reply to a reply keeps the
   * same root, so a thread is one level deep however the replies answer each other.
   */
  root?: string;
  /** @mentions of registered users, parsed once at write time (code-point offsets into body). */
  mentions?: MentionSpan[];
  /** Its likes (赞) as read with it: how many, and whether the reader is one of them. */
  likes?: CommentLikes;
}

export interface CommentLikes {
  count: number;
  liked: boolean;
}

export function newCommentId(millis: number, suffix: Uint8Array = randomBytes(4)): string {
  return `${String(millis).padStart(13, '0')}-${Buffer.from(suffix).toString('hex')}`;
}

export function commentCreatedAt(id: string): number {
  return Number(COMMENT_ID_PATTERN.exec(id)?.[1] ?? NaN);
}

/** A reply as a thread's summary names it: enough to read its row and its author's face. */
export interface ThreadEntry {
  id: string;
  author: string;
}

/** How many live replies a thread has and its oldest two (the preview under the top-level comment). */
export interface ThreadSummary {
  count: number;
  preview: ThreadEntry[];
}

/** How many replies a top-level comment shows under it before "共 N 条回复" opens the thread. */
export const THREAD_PREVIEW = 2;

/** The oldest `THREAD_PREVIEW` of `entries` (ids sort by creation time), without repeats. */
export function previewOf(entries: ThreadEntry[]): ThreadEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, THREAD_PREVIEW);
}
