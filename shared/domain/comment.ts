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
  /** One level of reply-to: the comment this one answers, on the same post ("reply to @author"). */
  replyTo?: { id: string; author: string };
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
