// shared/validation/feed.schema.ts — edge validation for posts, relations and timelines.
import { z } from 'zod';
import { POST_ID_PATTERN, POST_MAX_CODE_POINTS } from '../domain/post.js';
import { handleSchema } from './accounts.schema.js';
import { humanText } from './text.js';

export const publishBody = z.strictObject({
  body: humanText({ min: 1, max: POST_MAX_CODE_POINTS, allowNewlines: true, label: 'body' }),
});

/** Retried publishes with the same key return the same post (kept for 24 h). */
export const publishHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Idempotency-Key: 1–64 of A–Z a–z 0–9 _ -')
    .optional()
    .meta({ description: 'Makes a retry safe: the same key with the same body returns the first outcome (kept 24 h)' }),
});

export const postPath = z.object({ postId: z.string().regex(POST_ID_PATTERN, 'postId: not a post id') });

export const relationPath = z.object({ handle: handleSchema, target: handleSchema });

export const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Page size' }),
  cursor: z.string().max(600).optional().meta({ description: 'The `nextCursor` of the previous page; omit for the first page' }),
});
