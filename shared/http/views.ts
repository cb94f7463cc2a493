// shared/http/views.ts — how domain objects look on the wire, as zod schemas (the OpenAPI
// document's response schemas are generated from these: docs/openapi.json) and the functions
// that build them. Times are ISO 8601 strings whatever the storage keeps. Every schema is
// strict: a field the contract does not name is a contract-test failure, not a silent extra.
import * as z from 'zod';
import type { Comment } from '../domain/comment.js';
import { POST_ID_PATTERN, type PostVersion } from '../domain/post.js';
import { variantAccess } from '../domain/media.js';
import type { Liker } from '../ports/reaction-store.js';
import type { BlockEdge } from '../ports/social-store.js';
import type { NotificationGroup } from '../use-cases/notifications.js';
import type { PostDetail, PostWithViewer } from '../use-cases/post-details.js';
import type { Face } from '../use-cases/faces.js';
import type { ConversationSummary, ConversationView, MessageView } from '../use-cases/messages.js';
import type { ListedThread } from '../use-cases/comments.js';
import type { Suggestion } from '../use-cases/suggestions.js';
import type { PersonView } from '../use-cases/people.js';
import type { GroupSummary } from '../use-cases/groups.js';
import type { Grant } from '../use-cases/sessions.js';
import type { Departure } from '../use-cases/leave.js';
import type { ExportAnswer } from '../use-cases/export-data.js';
import type { Edge, Page } from '../ports/feed-store.js';
import type { PresignedUpload } from '../ports/media-objects.js';
import type { MediaRecord } from '../ports/media-store.js';
import { HANDLE_PATTERN } from '../domain/handle.js';
import { COMMENT_MAX_CODE_POINTS, NEWER_COUNT_MAX, POST_MAX_CODE_POINTS } from '../domain/limits.js';

const instant = z.iso.datetime().meta({ description: 'ISO 8601 instant (UTC)', example: '2026-11-22T08:30:00.000Z' });
export const handleString = z
  .string()
  .regex(HANDLE_PATTERN)
  .meta({ description: 'A user handle: 1–30 of a–z, 0–9, _', example: 'ann' });
export const postIdString = z.string().regex(POST_ID_PATTERN).meta({
  description: 'A post id: `<author>.<reversed time>.<random>`; opaque to clients',
  example: 'ann.8230174987654321.a1b2c3d4e5f6',
});

/**
 * Cursor semantics, shared by every list: the first page has no cursor; each page returns
 * `nextCursor`, or `null` on the last page. A cursor is opaque, tied to its list, and stays valid
 * while items are added above it (newer items never shift a later page).
 */
const nextCursor = z.string().nullable().meta({
  description: 'Pass as `cursor` to get the next page; `null` on the last page. Opaque: only this API makes cursors.',
});

const count = (what: string) =>
  z
    .int()
    .min(0)
    .meta({ description: `Exact number of ${what}` });

/** Counts (read with the post, from its row) and the reading user's own state. */
const reactionFields = {
  likeCount: count('likes'),
  commentCount: count('live comments'),
  repostCount: count('live reposts of this post'),
  liked: z.boolean().meta({ description: 'The reading user likes this post (always false without a token)' }),
  reposted: z
    .boolean()
    .meta({ description: 'The reading user has a live repost of this post (always false without a token)' }),
  bookmarked: z
    .boolean()
    .meta({ description: 'The reading user has bookmarked (收藏) this post (always false without a token)' }),
};

const offsets = {
  start: z.int().min(0).meta({ description: 'Unicode code point index of the token’s first character (inclusive)' }),
  end: z.int().min(0).meta({ description: 'Unicode code point index just past the token (exclusive)' }),
};

export const MentionSchema = z.strictObject({ handle: handleString, ...offsets }).meta({
  id: 'Mention',
  description: 'An `@handle` of a registered user in the text (link it to the profile); other `@words` are plain text',
});

export const TopicSpanSchema = z
  .strictObject({
    name: z.string().meta({
      description: 'The normalised topic name (NFKC, lowercase, spaces collapsed): the `{topic}` of its topic page',
    }),
    ...offsets,
  })
  .meta({ id: 'TopicSpan', description: 'A `#话题#` or `#tag` in the text, `#` signs included' });

/** Parsed once at write time and stored with the text (the client links, never parses). */
const mentionsField = z.array(MentionSchema).meta({ description: 'The text’s @mentions, in text order' });

const PostMediaSchema = z
  .strictObject({
    id: z.string(),
    alt: z.string().nullable().meta({ description: 'Alt text for screen readers; null when none was given' }),
    width: z.int().min(1),
    height: z.int().min(1),
    animated: z.boolean(),
    placeholder: z
      .string()
      .regex(/^#[0-9a-f]{6}$/)
      .meta({ description: 'Fill the reserved space with this colour until the bytes arrive' }),
    variants: z
      .record(z.string(), z.strictObject({ width: z.int().min(1), height: z.int().min(1), url: z.string() }))
      .meta({
        description: '`thumb` (360 × 360, the grid), `feed` (about 690 px wide) and `large` (at most 2048 px), WebP',
      }),
  })
  .meta({ id: 'PostMedia' });

/** Where a user's small avatar is served (96 px square WebP), or null: draw initials instead. */
const avatarField = z
  .string()
  .nullable()
  .meta({ description: 'The user’s avatar (96 × 96 WebP), or null when they have none: show initials' });

/** How every view that names a user shows them: the name to show and the avatar. */
const faceFields = { displayName: z.string(), avatar: avatarField };

const postFields = {
  id: postIdString,
  author: handleString,
  authorName: z.string().meta({ description: 'The author’s display name' }),
  authorAvatar: avatarField,
  body: z.string().meta({
    description: `The text as published: at most ${POST_MAX_CODE_POINTS} Unicode code points. A repost's body is the reposter's comment (empty for a plain repost), with Weibo's chain \`//@user: …\` when it reposted a repost`,
  }),
  createdAt: instant,
  version: z
    .int()
    .min(0)
    .meta({ description: 'How many times the text was edited (0: never). Send it as `If-Match` to edit the post' }),
  editedAt: instant
    .nullable()
    .meta({ description: 'When the text was last edited (show 已编辑 / "edited"); null if never' }),
  mentions: mentionsField,
  topics: z.array(TopicSpanSchema).meta({ description: 'The text’s #topics#, in text order' }),
  media: z
    .array(PostMediaSchema)
    .meta({ description: 'Its pictures, up to nine, in the author’s order (empty for none)' }),
  ...reactionFields,
};

export const OriginalPostSchema = z
  .strictObject({ state: z.literal('live'), ...postFields })
  .meta({ id: 'OriginalPost', description: 'The original a repost points at, as the reader sees it' });

export const DeletedOriginalSchema = z.strictObject({ state: z.literal('deleted'), id: postIdString }).meta({
  id: 'DeletedOriginal',
  description: 'The original has been deleted: show "original deleted", nothing of its content',
});

export const WithheldOriginalSchema = z.strictObject({ state: z.literal('withheld'), id: postIdString }).meta({
  id: 'WithheldOriginal',
  description:
    'Your own repost of a post whose author blocks you: the repost is yours and shows, nothing of the original does (its own page answers 403 blocked)',
});

export const PostSchema = z
  .strictObject({
    ...postFields,
    repostOf: z
      .discriminatedUnion('state', [OriginalPostSchema, DeletedOriginalSchema, WithheldOriginalSchema])
      .nullable()
      .meta({
        description:
          'For a repost (转发): its original (always the root original, never another repost); null for a post of its own',
      }),
  })
  .meta({ id: 'Post' });

export const PostHistorySchema = z
  .strictObject({
    postId: postIdString,
    versions: z
      .array(
        z.strictObject({
          version: z.int().min(0).meta({ description: '0: as published; n: after the n-th edit' }),
          body: z.string(),
          at: instant.meta({ description: 'When this version became the post’s text' }),
          mentions: mentionsField,
          topics: z.array(TopicSpanSchema),
        }),
      )
      .meta({ description: 'Every version of the text, newest (the current one) first' }),
  })
  .meta({ id: 'PostHistory' });

export const CommentSchema = z
  .strictObject({
    id: z
      .string()
      .meta({ description: 'Unique within its post; sorts by creation time', example: '1795360124912-a1b2c3d4' }),
    postId: postIdString,
    author: handleString,
    authorName: z.string().meta({ description: 'The author’s display name' }),
    authorAvatar: avatarField,
    body: z.string().meta({ description: `At most ${COMMENT_MAX_CODE_POINTS} Unicode code points` }),
    createdAt: instant,
    replyTo: z
      .strictObject({ id: z.string(), author: handleString })
      .nullable()
      .meta({ description: 'The comment this one answers (show "reply to @author"), or null' }),
    root: z.string().nullable().meta({
      description:
        'A reply’s thread (楼中楼): the top-level comment it lives under (a reply to a reply keeps its root); null for a top-level comment',
    }),
    mentions: mentionsField,
    likeCount: z.int().min(0).meta({ description: 'How many like (赞) the comment (exact)' }),
    liked: z.boolean().meta({ description: 'Whether the reader (the token’s user) likes it; false without a token' }),
  })
  .meta({ id: 'Comment' });

export const CommentLikeStateSchema = z
  .strictObject({
    postId: postIdString,
    commentId: z.string(),
    liked: z.boolean(),
    likeCount: z.int().min(0).meta({ description: 'The comment’s like count after this request' }),
  })
  .meta({ id: 'CommentLikeState' });

const threadFields = {
  replyCount: z.int().min(0).meta({ description: 'How many live replies its thread holds (共 N 条回复)' }),
  replies: z
    .array(CommentSchema)
    .meta({ description: 'The thread’s oldest two replies (a preview); the rest: GET …/comments/{commentId}/replies' }),
};

export const ThreadedCommentSchema = CommentSchema.extend({ deleted: z.literal(false), ...threadFields }).meta({
  id: 'ThreadedComment',
});

export const DeletedCommentSchema = z
  .strictObject({
    id: z.string(),
    postId: postIdString,
    deleted: z.literal(true),
    createdAt: instant,
    ...threadFields,
  })
  .meta({
    id: 'DeletedComment',
    description: 'A deleted top-level comment whose replies remain: shown as “该评论已删除” with its thread',
  });

export const CommentPageSchema = z
  .strictObject({ comments: z.array(z.union([ThreadedCommentSchema, DeletedCommentSchema])), nextCursor })
  .meta({ id: 'CommentPage' });

export const ReplyPageSchema = z
  .strictObject({ replies: z.array(CommentSchema), nextCursor })
  .meta({ id: 'ReplyPage' });

export const LikeStateSchema = z
  .strictObject({ user: handleString, postId: postIdString, liked: z.boolean() })
  .meta({ id: 'LikeState' });

export const BookmarkStateSchema = z
  .strictObject({ user: handleString, postId: postIdString, bookmarked: z.boolean() })
  .meta({ id: 'BookmarkState' });

export const LikerSchema = z
  .strictObject({ handle: handleString, ...faceFields, likedAt: instant })
  .meta({ id: 'Liker' });

export const LikerPageSchema = z.strictObject({ users: z.array(LikerSchema), nextCursor }).meta({ id: 'LikerPage' });

export const PostPageSchema = z.strictObject({ posts: z.array(PostSchema), nextCursor }).meta({ id: 'PostPage' });

export const TimelinePageSchema = z
  .strictObject({
    posts: z.array(PostSchema),
    nextCursor,
    regenerating: z.boolean().meta({
      description:
        'true (with status 206) while the inbox of a returning inactive reader is rebuilt: the page is correct but may be incomplete; ask again in a few seconds',
    }),
  })
  .meta({ id: 'TimelinePage' });

export const EdgeSchema = z
  .strictObject({ handle: handleString, ...faceFields, since: instant.meta({ description: 'When the follow began' }) })
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
    avatar: avatarField,
    avatarLarge: z
      .string()
      .nullable()
      .meta({ description: 'The same avatar at 400 × 400, for the profile page; null when none' }),
    bio: z.string().meta({ description: 'The 简介 (bio) as its user wrote it; empty when none' }),
    location: z.string().meta({ description: 'Where its user says they are, free text; empty when none' }),
    cover: z
      .string()
      .nullable()
      .meta({ description: 'The cover picture (a banner, at most 1500 px wide, WebP), or null when none' }),
  })
  .meta({ id: 'Profile' });

const notificationChoice = (what: string) => z.boolean().meta({ description: `Told of ${what}` });
export const NotificationChoicesSchema = z
  .strictObject({
    likes: notificationChoice('likes of your posts'),
    comments: notificationChoice('comments on your posts and replies to your comments'),
    reposts: notificationChoice('reposts of your posts'),
    mentions: notificationChoice('@mentions of you'),
    follows: notificationChoice('new followers'),
  })
  .meta({ id: 'NotificationChoices' });

export const SettingsSchema = z
  .strictObject({
    messagesFrom: z.enum(['everyone', 'following', 'nobody']).meta({
      description: 'Who may send you a private message (私信): everyone, people you follow (the default), nobody',
    }),
    notifications: NotificationChoicesSchema,
  })
  .meta({ id: 'Settings' });

export const RegisteredUserSchema = z
  .strictObject({ handle: handleString, displayName: z.string(), createdAt: instant })
  .meta({ id: 'RegisteredUser' });

export const DepartureSchema = z
  .strictObject({
    handle: handleString,
    deactivatedAt: instant.meta({
      description: 'From this instant the account shows nowhere and no session of it refreshes',
    }),
    erasableFrom: instant.meta({
      description:
        'Logging in before this instant restores everything; from it on the account is erased (posts, comments, likes, follows, notifications…) and cannot come back',
    }),
  })
  .meta({ id: 'Departure' });

export const departureView = (d: Departure): z.output<typeof DepartureSchema> => ({
  handle: d.handle,
  deactivatedAt: iso(d.deactivatedAt),
  erasableFrom: iso(d.erasableFrom),
});

export const ExportReadySchema = z
  .strictObject({
    state: z.literal('ready'),
    url: z.string().meta({
      description:
        'GET it for the JSON file (posts with their pictures, comments, likes, bookmarks, following, followers); works until `expiresAt` only',
    }),
    expiresAt: instant,
    builtAt: instant.meta({
      description: 'What the file holds is as of this instant; a day later the next request builds a new one',
    }),
  })
  .meta({ id: 'ExportReady' });

export const ExportBuildingSchema = z
  .strictObject({ state: z.literal('building'), requestedAt: instant })
  .meta({ id: 'ExportBuilding' });

export const exportView = (a: ExportAnswer) =>
  a.state === 'ready'
    ? { state: a.state, url: a.url, expiresAt: iso(a.expiresAt), builtAt: iso(a.builtAt) }
    : { state: a.state, requestedAt: iso(a.requestedAt) };

export const SessionSchema = z
  .strictObject({
    handle: handleString,
    token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>`' }),
    expiresAt: instant.meta({
      description:
        'After this instant the token is refused with 401 `token_expired`: exchange the refresh token for a new one (`POST /sessions/refresh`)',
    }),
    tokenType: z.literal('Bearer'),
    refreshToken: z.string().optional().meta({
      description:
        'Opaque, single use: `POST /sessions/refresh` spends it and answers a new one. Keep it secret; presenting a spent one again ends the whole session. Absent for a browser client (`X-Weibo-Client: web`), which gets it as an HttpOnly cookie instead',
    }),
    refreshExpiresAt: instant.meta({ description: 'After this instant the refresh token is refused: log in again' }),
    restored: z.literal(true).optional().meta({
      description:
        'Present when this login brought back an account that had left (`DELETE /users/{handle}`): everything it had shows again',
    }),
  })
  .meta({ id: 'Session' });

export const FollowStateSchema = z
  .strictObject({ follower: handleString, followee: handleString, following: z.boolean() })
  .meta({ id: 'FollowState' });

export const BlockStateSchema = z
  .strictObject({
    handle: handleString,
    target: handleString,
    blocking: z.boolean().meta({
      description:
        '`handle` blocks `target`: neither sees the other’s posts, `target` cannot follow, comment, like, repost or notify `handle`',
    }),
    muting: z.boolean().meta({
      description:
        '`handle` mutes `target`: their posts and notifications are hidden from `handle`; `target` notices nothing',
    }),
  })
  .meta({ id: 'BlockState' });

export const BlockedUserSchema = z
  .strictObject({
    handle: handleString,
    ...faceFields,
    since: instant.meta({ description: 'When the block (or mute) began' }),
  })
  .meta({ id: 'BlockedUser' });

export const BlockedUserPageSchema = z
  .strictObject({ users: z.array(BlockedUserSchema), nextCursor })
  .meta({ id: 'BlockedUserPage' });

export const NotificationSchema = z
  .strictObject({
    id: z.string().meta({
      description: 'The group at its current place in the list; give it to mark-read as `upTo`',
      example: '1795360124912.like/ann.1795360000000.a1b2c3d4e5f6/2493555',
    }),
    type: z.enum(['like', 'commentLike', 'repost', 'follow', 'comment', 'reply', 'mention', 'edit', 'special']).meta({
      description:
        'like / repost: of your post (grouped per post within 12 h); commentLike: of your comment (grouped per comment within 12 h, `comment` names it); follow: new followers (grouped within 12 h); comment: on your post; reply: to your comment; mention: you, in a post or comment; edit: a post you reposted was edited (one per post: its latest edit); special: a new post by someone in your 特别关注 (one per post)',
    }),
    count: z.int().min(1).meta({ description: 'Exact number of actions in the group ("ann and 12 others": 13)' }),
    latestAt: instant.meta({ description: 'The group’s latest activity' }),
    unread: z.boolean().meta({ description: 'Newer than your read marker' }),
    actors: z
      .array(z.strictObject({ handle: handleString, ...faceFields, at: instant }))
      .max(3)
      .meta({ description: 'The latest actors, newest first (at most 3; users you blocked or muted are left out)' }),
    post: z.strictObject({ id: postIdString, body: z.string() }).nullable().meta({
      description:
        'The post it is about: yours (like, repost, comment, reply) or the one that mentions you; null for follows',
    }),
    comment: z
      .strictObject({
        id: z.string(),
        body: z.string().meta({ description: 'The comment’s text, cut to 100 code points' }),
      })
      .nullable()
      .meta({ description: 'The comment, for a comment, a reply or a mention in a comment; otherwise null' }),
    repostWords: z.string().nullable().meta({
      description:
        'For a repost with words (转发理由): the words of the latest repost in the group, cut to 100 code points; otherwise null',
    }),
  })
  .meta({ id: 'Notification' });

export const NotificationPageSchema = z
  .strictObject({ notifications: z.array(NotificationSchema), nextCursor })
  .meta({ id: 'NotificationPage' });

export const UnreadCountSchema = z
  .strictObject({
    count: z.int().min(0).max(99).meta({ description: 'Groups with activity after your read marker, at most 99' }),
    capped: z.boolean().meta({ description: 'true when there may be more than `count` (show "99+")' }),
  })
  .meta({ id: 'UnreadCount' });

export const SuggestionsSchema = z
  .strictObject({
    users: z.array(
      z
        .strictObject({
          handle: handleString,
          ...faceFields,
          followedBy: z.int().min(0).meta({
            description:
              'How many of the people you follow (your newest 20) follow them; 0 for a suggestion from outside your circle',
          }),
        })
        .meta({ id: 'Suggestion' }),
    ),
  })
  .meta({ id: 'Suggestions' });

export const PeopleSchema = z
  .strictObject({
    users: z.array(
      z
        .strictObject({
          handle: handleString,
          ...faceFields,
          followers: z.int().min(0),
          followedByYou: z.boolean().meta({ description: 'The token’s user follows them (false without a token)' }),
        })
        .meta({ id: 'PersonFound' }),
    ),
  })
  .meta({ id: 'People' });

export const NewerCountSchema = z
  .strictObject({
    count: z
      .int()
      .min(0)
      .max(NEWER_COUNT_MAX)
      .meta({ description: `Timeline entries newer than \`after\`, at most ${NEWER_COUNT_MAX}` }),
    more: z.boolean().meta({ description: `true when there may be more than \`count\` (show "${NEWER_COUNT_MAX}+")` }),
  })
  .meta({ id: 'NewerCount' });

export const ReadMarkerSchema = z
  .strictObject({
    readUpTo: instant
      .nullable()
      .meta({ description: 'Everything at or before this instant is read (null: nothing marked yet)' }),
  })
  .meta({ id: 'ReadMarker' });

export const TopicPageSchema = z
  .strictObject({
    topic: z.string().meta({ description: 'The normalised topic name' }),
    posts: z.array(PostSchema),
    nextCursor,
  })
  .meta({ id: 'TopicPage' });

export const PostSearchPageSchema = z
  .strictObject({
    query: z.string().meta({ description: 'The query as asked' }),
    posts: z.array(PostSchema),
    highlights: z.record(z.string(), z.array(z.tuple([z.number().int(), z.number().int()]))).meta({
      description: 'By post id: the spans of its body that match, as code-point offsets [start, end), sorted and apart',
    }),
    nextCursor: nextCursor.meta({
      description:
        'Where the next page starts; null at the end. A page may hold fewer posts than asked, even none, while the search goes on',
    }),
  })
  .meta({ id: 'PostSearchPage' });

export const HotPageSchema = z
  .strictObject({
    posts: z.array(PostSchema),
    nextCursor: nextCursor.meta({
      description:
        'Pass as `cursor` for the next page; null on the last. A page can hold fewer posts than asked (deleted or hidden ones are left out) while it is present',
    }),
    rankedAt: z.number().int().optional().meta({
      description: 'When the ranking was made (epoch millis); absent before the first ranking',
    }),
  })
  .meta({ id: 'HotPage' });

export const TrendingSchema = z
  .strictObject({
    topics: z.array(
      z.strictObject({
        name: z.string(),
        posts: z.int().min(1).meta({ description: 'Posts with this topic in the window' }),
      }),
    ),
    windowSeconds: z.int().meta({ description: 'The window counted: the last hour, in five-minute steps' }),
  })
  .meta({ id: 'Trending' });

export const TopicNamesSchema = z
  .strictObject({
    topics: z.array(
      z.strictObject({
        name: z.string().meta({ description: 'A topic name in use, as its page names it (write it as `#name#`)' }),
      }),
    ),
  })
  .meta({ id: 'TopicNames' });

export const ErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z
        .string()
        .meta({ description: 'Stable machine-readable code, e.g. `handle_taken`; clients branch on this' }),
      message: z.string().meta({ description: 'A human-readable English sentence; never echoes secrets or input' }),
    }),
  })
  .meta({ id: 'Error' });

export type PostView = z.output<typeof PostSchema>;
export type ProfileView = z.output<typeof ProfileSchema>;

const iso = (millis: number) => new Date(millis).toISOString();

const fieldsOf = (p: PostWithViewer) => ({
  id: p.id,
  author: p.author,
  authorName: p.face.displayName,
  authorAvatar: p.face.avatar,
  body: p.body,
  createdAt: iso(p.createdAt),
  version: p.version ?? 0,
  editedAt: p.editedAt === undefined ? null : iso(p.editedAt),
  mentions: p.mentions ?? [],
  topics: p.topics ?? [],
  media: (p.media ?? []).map((m) => ({ ...m, alt: m.alt ?? null })),
  likeCount: p.counts.likes,
  commentCount: p.counts.comments,
  repostCount: p.counts.reposts,
  liked: p.viewer.liked,
  reposted: p.viewer.reposted,
  bookmarked: p.viewer.bookmarkedAt !== undefined,
});

export const postView = (p: PostDetail): PostView => ({
  ...fieldsOf(p),
  repostOf: !p.original
    ? null
    : p.original.state === 'live'
      ? { state: 'live', ...fieldsOf(p.original.post) }
      : { state: p.original.state, id: p.original.id },
});

export const commentView = (c: Comment & { face: Face }): z.output<typeof CommentSchema> => ({
  id: c.id,
  postId: c.postId,
  author: c.author,
  authorName: c.face.displayName,
  authorAvatar: c.face.avatar,
  body: c.body,
  createdAt: iso(c.createdAt),
  replyTo: c.replyTo ?? null,
  root: c.root ?? null,
  mentions: c.mentions ?? [],
  likeCount: c.likes?.count ?? 0,
  liked: c.likes?.liked ?? false,
});

/** A top-level comment as the post's list shows it: with its thread, or a placeholder. */
export const threadedCommentView = (
  c: ListedThread,
): z.output<typeof ThreadedCommentSchema> | z.output<typeof DeletedCommentSchema> => {
  const thread = { replyCount: c.replies.count, replies: c.replies.preview.map(commentView) };
  return c.deleted || !c.face
    ? { id: c.id, postId: c.postId, deleted: true, createdAt: iso(c.createdAt), ...thread }
    : { ...commentView({ ...c, face: c.face }), deleted: false, ...thread };
};

/** A user named by a list or a notification: handle, name and avatar. */
export const faceView = (f: Face) => ({ handle: f.handle, displayName: f.displayName, avatar: f.avatar });

export const personView = (p: PersonView): z.output<typeof PeopleSchema>['users'][number] => ({
  ...faceView(p.face),
  followers: p.followers,
  followedByYou: p.followedByYou,
});

export const suggestionView = (s: Suggestion): z.output<typeof SuggestionsSchema>['users'][number] => ({
  ...faceView(s.face),
  followedBy: s.followedBy,
});

export const blockedUserView = (e: BlockEdge & { face: Face }): z.output<typeof BlockedUserSchema> => ({
  ...faceView(e.face),
  since: iso(e.since),
});

export const notificationView = (n: NotificationGroup): z.output<typeof NotificationSchema> => ({
  id: n.id,
  type: n.type,
  count: n.count,
  latestAt: iso(n.latestAt),
  unread: n.unread,
  actors: n.actors.map((a) => ({ ...faceView(a.face), at: iso(a.at) })),
  post: n.post ?? null,
  comment: n.comment ?? null,
  repostWords: n.repostWords ?? null,
});

export const readMarkerView = (at: number): z.output<typeof ReadMarkerSchema> => ({
  readUpTo: at > 0 ? iso(at) : null,
});

export const likerView = (l: Liker & { face: Face }): z.output<typeof LikerSchema> => ({
  ...faceView(l.face),
  likedAt: iso(l.since),
});

export const edgeView = (e: Edge & { face: Face }): z.output<typeof EdgeSchema> => ({
  ...faceView(e.face),
  since: iso(e.since),
});

/** Use cases answer instants in millis; the API's are ISO 8601 (UTC), formatted here only. */
export const profileView = <P extends { createdAt: number }>(p: P): Omit<P, 'createdAt'> & { createdAt: string } => ({
  ...p,
  createdAt: iso(p.createdAt),
});

export const registeredUserView = (u: {
  handle: string;
  displayName: string;
  createdAt: number;
}): z.output<typeof RegisteredUserSchema> => ({
  handle: u.handle,
  displayName: u.displayName,
  createdAt: iso(u.createdAt),
});

/** `inCookie`: a browser's refresh token travels in its HttpOnly cookie, never in the JSON. */
export const sessionView = (g: Grant, { inCookie = false } = {}): z.output<typeof SessionSchema> => ({
  handle: g.handle,
  token: g.token,
  expiresAt: iso(g.expiresAt),
  tokenType: 'Bearer',
  ...(inCookie ? {} : { refreshToken: g.refreshToken }),
  refreshExpiresAt: iso(g.refreshExpiresAt),
  ...(g.restored ? { restored: true as const } : {}),
});

export const pageView = <T, V, K extends string>(page: Page<T>, key: K, view: (t: T) => V) =>
  ({ [key]: page.items.map(view), nextCursor: page.nextCursor ?? null }) as { [P in K]: V[] } & {
    nextCursor: string | null;
  };

const MediaVariantSchema = z.strictObject({
  width: z.int().min(1),
  height: z.int().min(1),
  url: z.string().meta({ description: 'Where the browser fetches it (WebP)' }),
});

export const MediaSchema = z
  .strictObject({
    id: z.string().meta({ description: 'The media id: random and unguessable, 22 characters' }),
    purpose: z.enum(['post', 'avatar', 'cover', 'message']),
    state: z.enum(['uploading', 'processing', 'ready', 'failed']).meta({
      description:
        '`uploading` until `POST /media/{id}/complete`; `processing` while the worker makes it safe and small; then `ready`, or `failed` with a `reason`',
    }),
    reason: z.string().optional().meta({
      description:
        'Why it failed: unsupported_format, heic_unsupported, svg_refused, too_many_pixels, too_large, corrupt_image, size_mismatch, upload_missing',
    }),
    createdAt: instant,
    width: z.int().min(1).optional().meta({ description: 'When ready: the picture’s width after orientation' }),
    height: z.int().min(1).optional(),
    animated: z.boolean().optional(),
    placeholder: z
      .string()
      .regex(/^#[0-9a-f]{6}$/)
      .optional()
      .meta({ description: 'When ready: a colour to fill the space with until the bytes arrive' }),
    variants: z.record(z.string(), MediaVariantSchema).optional().meta({
      description:
        'When ready, by name: a post picture has `thumb` (square, the grid), `feed` (about 690 px wide) and `large` (at most 2048 px); an avatar `avatar-96` and `avatar-400`. A message picture has none here: its `thumb` and `large` are private, shown only in its conversation through signed URLs',
    }),
  })
  .meta({ id: 'Media' });

export const UploadSchema = z
  .strictObject({
    media: MediaSchema,
    upload: z.strictObject({
      method: z.literal('PUT'),
      url: z
        .string()
        .meta({ description: 'Presigned: PUT the file’s bytes here, straight to storage, before `expiresAt`' }),
      headers: z
        .record(z.string(), z.string())
        .meta({ description: 'Send exactly these headers (the signature covers them and the declared length)' }),
      expiresAt: instant,
    }),
  })
  .meta({ id: 'Upload' });

export const mediaView = (
  m: MediaRecord,
  urlOf: (id: string, variant: string) => string,
): z.output<typeof MediaSchema> => ({
  id: m.id,
  purpose: m.purpose,
  state: m.state,
  ...(m.reason !== undefined ? { reason: m.reason } : {}),
  createdAt: iso(m.createdAt),
  ...(m.state === 'ready' && m.descriptor
    ? {
        width: m.descriptor.width,
        height: m.descriptor.height,
        animated: m.descriptor.animated,
        placeholder: m.descriptor.placeholder,
        // A message picture's variants are private (no public URL to give): its conversation signs them.
        ...(variantAccess(m.purpose) === 'public'
          ? {
              variants: Object.fromEntries(
                m.descriptor.variants.map((v) => [
                  v.name,
                  { width: v.width, height: v.height, url: urlOf(m.id, v.name) },
                ]),
              ),
            }
          : {}),
      }
    : {}),
});

export const uploadView = (
  u: { media: MediaRecord; upload: PresignedUpload },
  urlOf: (id: string, variant: string) => string,
): z.output<typeof UploadSchema> => ({
  media: mediaView(u.media, urlOf),
  upload: { ...u.upload, expiresAt: iso(u.upload.expiresAt) },
});

export const postHistoryView = (postId: string, versions: PostVersion[]): z.output<typeof PostHistorySchema> => ({
  postId,
  versions: versions.map((v) => ({
    version: v.version,
    body: v.body,
    at: iso(v.at),
    mentions: v.mentions ?? [],
    topics: v.topics ?? [],
  })),
});

// ------------------------------------------------------------------ private messages (私信)

const PersonSchema = z
  .strictObject({
    handle: handleString,
    ...faceFields,
    left: z.boolean().meta({ description: 'The account left or was erased: show it as gone (已注销)' }),
  })
  .meta({ id: 'Person' });

const MessagePictureSchema = z
  .strictObject({
    id: z.string(),
    width: z.int(),
    height: z.int(),
    urls: z.strictObject({ thumb: z.string(), large: z.string() }).meta({
      description:
        'Signed URLs that work for a few minutes, for the two people only: read the page again for fresh ones',
    }),
  })
  .meta({ id: 'MessagePicture' });

const conversationState = z.enum(['open', 'request', 'requested']).meta({
  description: 'open; request: they asked you (your requests tab); requested: you asked, not yet accepted',
});

const messageFields = {
  seq: z.int().min(1).meta({ description: 'The message’s number: 1, 2, 3 … in the order both sides see' }),
  from: handleString,
  text: z.string().meta({ description: 'Empty once recalled or erased' }),
  at: instant,
  recalled: z.boolean().meta({ description: 'Recalled (撤回) by its sender: show "message recalled"' }),
  erased: z.boolean().meta({ description: 'Its sender’s account was erased: its text and pictures are gone' }),
};

export const MessageSchema = z
  .strictObject({
    ...messageFields,
    pictures: z.array(MessagePictureSchema),
    clientId: z.string().meta({ description: 'The id the sender sent it with' }),
  })
  .meta({ id: 'Message' });

export const ConversationSummarySchema = z
  .strictObject({
    peer: PersonSchema,
    state: conversationState,
    last: z
      .strictObject({
        ...messageFields,
        pictures: z.int().min(0).meta({ description: 'How many pictures it carries' }),
      })
      .nullable(),
    unread: z.int().min(0),
    activityAt: instant,
    readUpTo: z.int().min(0).meta({ description: 'You have read up to this message number' }),
    peerReadUpTo: z.int().min(0).meta({ description: 'They have read up to this message number (已读)' }),
  })
  .meta({ id: 'ConversationSummary' });

export const ConversationListSchema = z
  .strictObject({ conversations: z.array(ConversationSummarySchema), nextCursor })
  .meta({ id: 'ConversationList' });

export const ConversationSchema = z
  .strictObject({
    peer: PersonSchema,
    state: conversationState,
    messages: z.array(MessageSchema).meta({ description: 'Oldest first; `nextCursor` pages to older ones' }),
    readUpTo: z.int().min(0),
    peerReadUpTo: z.int().min(0).meta({ description: 'They have read up to this message number (已读)' }),
    head: z.int().min(0).meta({ description: 'The newest message number' }),
    nextCursor,
  })
  .meta({ id: 'Conversation' });

export const SentMessageSchema = z
  .strictObject({ message: MessageSchema, state: conversationState })
  .meta({ id: 'SentMessage' });

export const MessageBadgeSchema = z
  .strictObject({
    unread: z.int().min(0).meta({ description: 'Unread messages in your conversations' }),
    requests: z.int().min(0).meta({ description: 'Message requests waiting for your answer' }),
  })
  .meta({ id: 'MessageBadge' });

export const ConversationStateSchema = z.strictObject({ state: conversationState }).meta({ id: 'ConversationState' });
export const MessageReadSchema = z.strictObject({ readUpTo: z.int().min(0) }).meta({ id: 'MessageRead' });
export const DeclinedSchema = z.strictObject({ declined: z.literal(true) }).meta({ id: 'Declined' });
export const DeletedSchema = z.strictObject({ deleted: z.literal(true) }).meta({ id: 'Deleted' });

export const messageView = (m: MessageView): z.output<typeof MessageSchema> => ({ ...m, at: iso(m.at) });

export const conversationSummaryView = (c: ConversationSummary): z.output<typeof ConversationSummarySchema> => ({
  ...c,
  peer: { handle: c.peer.handle, displayName: c.peer.displayName, avatar: c.peer.avatar, left: c.peer.left },
  last: c.last ? { ...c.last, at: iso(c.last.at) } : null,
  activityAt: iso(c.activityAt),
});

export const conversationView = (c: ConversationView): z.output<typeof ConversationSchema> => ({
  peer: { handle: c.peer.handle, displayName: c.peer.displayName, avatar: c.peer.avatar, left: c.peer.left },
  state: c.state,
  messages: c.messages.map(messageView),
  readUpTo: c.readUpTo,
  peerReadUpTo: c.peerReadUpTo,
  head: c.head,
  nextCursor: c.nextCursor ?? null,
});

export const GroupSchema = z
  .strictObject({
    id: z.string().meta({ description: '`special` for 特别关注, else the id the create answered' }),
    name: z.string(),
    special: z
      .boolean()
      .meta({ description: 'The built-in 特别关注: cannot be renamed or deleted; its members’ new posts notify you' }),
    members: z.int().min(0).meta({ description: 'How many people it holds' }),
    createdAt: instant.nullable().meta({ description: 'null for 特别关注' }),
    hasMember: z.boolean().optional().meta({ description: 'With `member` asked: whether this group holds them' }),
  })
  .meta({ id: 'Group' });

export const GroupListSchema = z.strictObject({ groups: z.array(GroupSchema) }).meta({ id: 'GroupList' });

export const GroupMembersSchema = z
  .strictObject({ users: z.array(z.strictObject({ handle: handleString, ...faceFields, addedAt: instant })) })
  .meta({ id: 'GroupMembers' });

export const groupView = (g: GroupSummary): z.output<typeof GroupSchema> => ({
  id: g.id,
  name: g.name,
  special: g.special,
  members: g.members,
  createdAt: g.special ? null : iso(g.createdAt),
  ...(g.hasMember === undefined ? {} : { hasMember: g.hasMember }),
});
