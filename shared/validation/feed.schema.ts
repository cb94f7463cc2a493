// shared/validation/feed.schema.ts — edge validation for posts, relations and timelines.
import * as z from 'zod';
import { COMMENT_ID_PATTERN } from '../domain/comment.js';
import { NOTIFICATION_FILTERS } from '../domain/notification.js';
import { POST_ID_PATTERN } from '../domain/post.js';
import { handleSchema } from './accounts.schema.js';
import { visibleLength } from '../domain/text-rules.js';
import { humanText } from './text.js';
import { topicPrefixForm, TOPIC_MAX_CODE_POINTS } from '../domain/text-entities.js';
import {
  COMMENT_MAX_CODE_POINTS,
  MAX_ALT_LENGTH,
  MAX_MEDIA_PER_POST,
  POST_MAX_CODE_POINTS,
  SUGGESTIONS_DEFAULT,
  SUGGESTIONS_MAX,
} from '../domain/limits.js';

const pictureRef = z.strictObject({
  id: z.string().min(1).max(64).meta({ description: 'A media id of yours, `ready` (`POST /media`, then `/complete`)' }),
  alt: humanText({ min: 0, max: MAX_ALT_LENGTH, allowNewlines: true, label: 'alt' })
    .optional()
    .meta({ description: `Alt text for screen readers, at most ${MAX_ALT_LENGTH} characters` }),
});

export const publishBody = z
  .strictObject({
    body: humanText({ min: 0, max: POST_MAX_CODE_POINTS, allowNewlines: true, label: 'body' }),
    media: z
      .array(pictureRef)
      .max(MAX_MEDIA_PER_POST)
      .refine((m) => new Set(m.map((p) => p.id)).size === m.length, 'media: each picture once')
      .optional()
      .meta({
        description: `Up to ${MAX_MEDIA_PER_POST} pictures (Weibo's 九宫格), in this order; each in one post only`,
      }),
  })
  .refine((p) => visibleLength(p.body) >= 1 || (p.media?.length ?? 0) > 0, {
    path: ['body'],
    message: 'body must have at least 1 visible character, unless the post has pictures',
  });

/**
 * Every create takes it (publish, repost, comment, upload): a retry with the same key and body
 * answers the first outcome (keys kept for 24 h; shared/use-cases/idempotency.ts).
 */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Idempotency-Key: 1–64 of A–Z a–z 0–9 _ -')
    .optional()
    .meta({ description: 'Makes a retry safe: the same key with the same body returns the first outcome (kept 24 h)' }),
});

export const editBody = z.strictObject({
  body: humanText({ min: 0, max: POST_MAX_CODE_POINTS, allowNewlines: true, label: 'body' }),
});

/** An edit names the version it was made on (the post's `version`), as an entity tag. */
export const editHeaders = z.object({
  'if-match': z
    .string()
    .regex(/^"?\d{1,4}"?$/, 'If-Match: the post’s version, e.g. "0"')
    .optional()
    .meta({
      description:
        'The post’s `version` as you read it, e.g. `"0"` (quotes optional). Required: without it 428 `version_required`; another version than the current one is 412 `version_mismatch`',
    }),
});

export const postPath = z.object({ postId: z.string().regex(POST_ID_PATTERN, 'postId: not a post id') });

export const relationPath = z.object({ handle: handleSchema, target: handleSchema });

export const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Page size' }),
  cursor: z
    .string()
    .max(600)
    .optional()
    .meta({ description: 'The `nextCursor` of the previous page; omit for the first page' }),
});

export const commentBody = z.strictObject({
  body: humanText({ min: 1, max: COMMENT_MAX_CODE_POINTS, allowNewlines: true, label: 'body' }),
  replyTo: z
    .string()
    .regex(COMMENT_ID_PATTERN, 'replyTo: not a comment id')
    .optional()
    .meta({ description: 'Answer another comment on the same post (shown as "reply to @author")' }),
});

export const commentPath = z.object({
  postId: z.string().regex(POST_ID_PATTERN, 'postId: not a post id'),
  commentId: z.string().regex(COMMENT_ID_PATTERN, 'commentId: not a comment id'),
});

export const notificationsQuery = pageQuery.extend({
  filter: z.enum(NOTIFICATION_FILTERS).default('all').meta({
    description:
      'A tab: all (default); mentions (@我的: you, in a post or comment); comments (评论: on your posts, and replies to your comments); likes (赞)',
  }),
});

export const commentsQuery = pageQuery.extend({
  order: z.enum(['newest', 'oldest']).default('newest').meta({ description: 'newest first (default) or oldest first' }),
});

export const likePath = z.object({
  handle: handleSchema,
  postId: z.string().regex(POST_ID_PATTERN, 'postId: not a post id'),
});

export const repostBody = z.strictObject({
  comment: humanText({ min: 1, max: POST_MAX_CODE_POINTS, allowNewlines: true, label: 'comment' }).optional().meta({
    description: 'Your words on it (转发理由). Without one, reposting the same post again returns your earlier repost.',
  }),
});

export const blockPath = relationPath;

export const topicPath = z.object({
  topic: z.string().min(1).max(200).meta({
    description: 'A topic name as written (`#` signs left out); it is normalised like the posts’ topics (case, width)',
    example: '今天天气',
  }),
});

/** The most topic names one suggestion answer holds. */
export const TOPIC_SUGGESTIONS_MAX = 20;

export const topicSearchQuery = z.strictObject({
  q: humanText({ min: 1, max: TOPIC_MAX_CODE_POINTS + 1, label: 'q' })
    .refine((q) => topicPrefixForm(q) !== null, 'q: the start of a topic name (no # / ? % inside)')
    .meta({
      description:
        'The start of a topic name (a leading # is ignored); compared in the names’ own form (NFKC, case-insensitive)',
      example: '今天',
    }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(TOPIC_SUGGESTIONS_MAX)
    .default(8)
    .meta({ description: 'How many names, at most' }),
});

/** Post search: what to look for (its bounds are the use case's, so each has its own error code) and a page. */
export const postSearchQuery = z.strictObject({
  q: humanText({ min: 1, max: 1000, label: 'q' }).meta({
    description:
      'Words to find, all of them: Chinese by the characters as written (北京大学 finds posts holding 北京大学), other languages by whole words, case- and accent-insensitive; `#话题#` and `@handle` as themselves. At most 100 characters and 10 words',
    example: '微博 hello world',
  }),
  limit: z.coerce.number().int().min(1).max(50).default(20).meta({ description: 'Page size' }),
  cursor: pageQuery.shape.cursor,
});

/** The hot feed: a page of the ranking (at most 50 posts). */
export const hotQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(50).default(20).meta({ description: 'Page size' }),
  cursor: pageQuery.shape.cursor,
});

export const markReadBody = z.strictObject({
  upTo: z
    .string()
    .min(1)
    .max(200)
    .meta({ description: 'The id of the newest notification you have shown: it and everything older become read' }),
});

export const newerQuery = z.strictObject({
  after: z.string().regex(POST_ID_PATTERN, 'after: not a post id').meta({
    description: 'The id of the newest post you show (the first of the first page)',
    example: 'ann.1764000000000.a1b2c3d4e5f6',
  }),
});

export const suggestionsQuery = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SUGGESTIONS_MAX)
    .default(SUGGESTIONS_DEFAULT)
    .meta({ description: 'How many people, at most' }),
});
