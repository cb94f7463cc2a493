// shared/http/views.ts — how domain objects look on the wire, as zod schemas (the OpenAPI
// document's response schemas are generated from these: docs/openapi.json) and the functions
// that build them. Times are ISO 8601 strings whatever the storage keeps. Every schema is
// strict: a field the contract does not name is a contract-test failure, not a silent extra.
import { z } from 'zod';
import { POST_ID_PATTERN, POST_MAX_CODE_POINTS, type Post } from '../domain/post.js';
import type { Edge, Page } from '../ports/feed-store.js';
import { HANDLE_PATTERN } from '../schema/row-keys.js';

const instant = z.iso.datetime().meta({ description: 'ISO 8601 instant (UTC)', example: '2026-11-22T08:30:00.000Z' });
export const handleString = z.string().regex(HANDLE_PATTERN).meta({ description: 'A user handle: 1–30 of a–z, 0–9, _', example: 'ann' });
export const postIdString = z.string().regex(POST_ID_PATTERN).meta({
  description: 'A post id: `<author>.<reversed time>.<random>`; opaque to clients',
  example: 'ann.8230174987654321.a1b2c3d4e5f6',
});

/**
 * Cursor semantics, shared by every list: the first page has no cursor; each page returns
 * `nextCursor`, or `null` on the last page. A cursor is opaque, tied to its list, and stays valid
 * while items are added above it (newer items never shift a later page).
 */
const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` to get the next page; `null` on the last page. Opaque: only this API makes cursors.' });

export const PostSchema = z
  .strictObject({
    id: postIdString,
    author: handleString,
    body: z.string().meta({ description: `The text as published: at most ${POST_MAX_CODE_POINTS} Unicode code points` }),
    createdAt: instant,
  })
  .meta({ id: 'Post' });

export const PostPageSchema = z.strictObject({ posts: z.array(PostSchema), nextCursor }).meta({ id: 'PostPage' });

export const TimelinePageSchema = z
  .strictObject({
    posts: z.array(PostSchema),
    nextCursor,
    regenerating: z.boolean().meta({
      description: 'true (with status 206) while the inbox of a returning inactive reader is rebuilt: the page is correct but may be incomplete; ask again in a few seconds',
    }),
  })
  .meta({ id: 'TimelinePage' });

export const EdgeSchema = z
  .strictObject({ handle: handleString, since: instant.meta({ description: 'When the follow began' }) })
  .meta({ id: 'RelationEdge' });

export const UserPageSchema = z.strictObject({ users: z.array(EdgeSchema), nextCursor }).meta({ id: 'UserPage' });

export const ProfileSchema = z
  .strictObject({
    handle: handleString,
    displayName: z.string(),
    createdAt: instant,
    followers: z.int().min(0),
    following: z.int().min(0),
    posts: z.int().min(0),
  })
  .meta({ id: 'Profile' });

export const RegisteredUserSchema = z
  .strictObject({ handle: handleString, displayName: z.string(), createdAt: instant })
  .meta({ id: 'RegisteredUser' });

export const SessionSchema = z
  .strictObject({
    handle: handleString,
    token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>`' }),
    expiresAt: instant.meta({ description: 'After this instant the token is refused with 401 `token_expired`: log in again' }),
    tokenType: z.literal('Bearer'),
  })
  .meta({ id: 'Session' });

export const FollowStateSchema = z
  .strictObject({ follower: handleString, followee: handleString, following: z.boolean() })
  .meta({ id: 'FollowState' });

export const ErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.string().meta({ description: 'Stable machine-readable code, e.g. `handle_taken`; clients branch on this' }),
      message: z.string().meta({ description: 'A human-readable English sentence; never echoes secrets or input' }),
    }),
  })
  .meta({ id: 'Error' });

export type PostView = z.output<typeof PostSchema>;
export type ProfileView = z.output<typeof ProfileSchema>;

export const postView = (p: Post): PostView => ({ id: p.id, author: p.author, body: p.body, createdAt: new Date(p.createdAt).toISOString() });

export const edgeView = (e: Edge): z.output<typeof EdgeSchema> => ({ handle: e.handle, since: new Date(e.since).toISOString() });

export const pageView = <T, V, K extends string>(page: Page<T>, key: K, view: (t: T) => V) =>
  ({ [key]: page.items.map(view), nextCursor: page.nextCursor ?? null }) as { [P in K]: V[] } & { nextCursor: string | null };
