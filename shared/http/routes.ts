// shared/http/routes.ts — THE HTTP contract, one entry per operation: method, path, whether a
// token is needed, the zod schemas the handler validates with, and every status it can answer
// with. Handlers are built from these entries (httpRoute), the OpenAPI document is generated
// from them (infra/openapi/, committed as docs/openapi.json), infra/functions/http.yml must
// list the same method + path (a unit test holds it to that), and the end-to-end suite checks
// every response it receives against the generated document. Nothing is written twice.
import * as z from 'zod';
import type { ErrorCode } from '../domain/error-codes.js';
import {
  avatarBody,
  coverBody,
  handlePath,
  settingsBody,
  leaveBody,
  loginBody,
  peopleQuery,
  refreshBody,
  registerBody,
  sessionHeaders,
  updateProfileBody,
} from '../validation/accounts.schema.js';
import {
  commentBody,
  commentPath,
  commentsQuery,
  notificationsQuery,
  editBody,
  editHeaders,
  likePath,
  pageQuery,
  postPath,
  publishBody,
  idempotencyHeaders,
  relationPath,
  repostBody,
  blockPath,
  markReadBody,
  topicPath,
  topicSearchQuery,
  postSearchQuery,
  hotQuery,
  newerQuery,
  suggestionsQuery,
} from '../validation/feed.schema.js';
import {
  groupMemberPath,
  groupNameBody,
  groupPath,
  groupsPath,
  groupsQuery,
  groupTimelineQuery,
} from '../validation/groups.schema.js';
import { GROUP_MEMBERS_MAX, GROUP_NAME_MAX, GROUPS_MAX } from '../domain/groups.js';
import {
  GroupListSchema,
  GroupMembersSchema,
  GroupSchema,
  CommentLikeStateSchema,
  CommentPageSchema,
  ReplyPageSchema,
  CommentSchema,
  FollowStateSchema,
  LikerPageSchema,
  BookmarkStateSchema,
  LikeStateSchema,
  PostPageSchema,
  PostSchema,
  PeopleSchema,
  PostHistorySchema,
  ProfileSchema,
  SettingsSchema,
  DepartureSchema,
  ExportReadySchema,
  ExportBuildingSchema,
  RegisteredUserSchema,
  SessionSchema,
  TimelinePageSchema,
  UserPageSchema,
  BlockedUserPageSchema,
  BlockStateSchema,
  NotificationPageSchema,
  ReadMarkerSchema,
  TopicPageSchema,
  PostSearchPageSchema,
  HotPageSchema,
  TrendingSchema,
  TopicNamesSchema,
  UnreadCountSchema,
  MediaSchema,
  UploadSchema,
  NewerCountSchema,
  SuggestionsSchema,
  ConversationListSchema,
  ConversationSchema,
  ConversationStateSchema,
  DeletedSchema,
  DeclinedSchema,
  MessageBadgeSchema,
  MessageReadSchema,
  MessageSchema,
  SentMessageSchema,
} from './views.js';
import { mediaPath, uploadBody } from '../validation/media.schema.js';
import {
  conversationPath,
  conversationQuery,
  conversationsQuery,
  messagePath,
  readBody,
  sendBody,
} from '../validation/messages.schema.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Success {
  description: string;
  /** Absent for a response without a body (204). */
  schema?: z.ZodType;
  /** Response headers worth documenting, as a z.object keyed by header name. */
  headers?: z.ZodObject;
}

export interface Route {
  method: Method;
  /** API Gateway path template, e.g. `/users/{handle}`. */
  path: string;
  summary: string;
  description?: string;
  tag:
    | 'accounts'
    | 'posts'
    | 'reactions'
    | 'relations'
    | 'timeline'
    | 'notifications'
    | 'topics'
    | 'safety'
    | 'media'
    | 'messages'
    | 'meta';
  /** 'optional': anonymous requests pass; with a token the answer adds the reader's own state. */
  auth: boolean | 'optional';
  body?: z.ZodType;
  params?: z.ZodType;
  query?: z.ZodType;
  /** Header names lowercase (API Gateway HTTP API payload 2.0). */
  headers?: z.ZodType;
  success: Record<number, Success>;
  /** Errors this operation's use case can raise, status → codes (the common ones are added). */
  errors?: Record<number, ErrorCode[]>;
}

const route = <R extends Route>(r: R) => r;

const noStore = z.object({ 'Cache-Control': z.literal('no-store').meta({ description: 'Tokens are never cached' }) });
const privateMinute = z.object({
  'Cache-Control': z.literal('private, max-age=60').meta({ description: 'Yours alone; the same list for a minute' }),
});
/** Every 429 and every 503 carries it (error-mapper.ts). */
export const RETRY_AFTER_HEADER = z.object({
  'Retry-After': z.string().regex(/^\d+$/).meta({ description: 'Seconds to wait before trying again' }),
});
const countNoStore = z.object({
  'Cache-Control': z.literal('no-store').meta({ description: 'A count for now: never reused' }),
});

export const routes = {
  register: route({
    method: 'POST',
    path: '/users',
    tag: 'accounts',
    summary: 'Create an account',
    description: 'The handle is the permanent identity; the display name can change later.',
    auth: false,
    body: registerBody,
    success: { 201: { description: 'Created', schema: RegisteredUserSchema } },
    errors: { 409: ['handle_taken'] },
  }),
  searchUsers: route({
    method: 'GET',
    path: '/users',
    tag: 'accounts',
    summary: 'Find people (找人) by the start of their handle or display name',
    description:
      'Case-insensitive, in NFKC form (full-width letters match), CJK names included; a name is found by its start and by the start of each later word. Best first: an exact handle or name, then the most followed. With a token, never anyone you block or mute or who blocks you, and each says whether you follow them. A renamed user is found by the new name at once and no longer by the old. One bounded index read: for a very short query the answer is the best of the first 100 index entries, exact matches always among them.',
    auth: 'optional',
    query: peopleQuery,
    success: { 200: { description: 'People, best first', schema: PeopleSchema } },
    errors: {},
  }),
  login: route({
    method: 'POST',
    path: '/sessions',
    tag: 'accounts',
    summary: 'Log in: handle + password → a bearer token and a refresh token',
    description:
      'A wrong handle and a wrong password answer the same 401. Repeated failures from one address lock that address out of the handle for a while (429 with `Retry-After`, doubling up to an hour); failures from all addresses together have a much higher ceiling per handle (429 until the window ends). Both apply alike to handles that do not exist.',
    auth: false,
    body: loginBody,
    headers: sessionHeaders,
    success: {
      200: {
        description: 'An access token valid until `expiresAt` and a refresh token',
        schema: SessionSchema,
        headers: noStore,
      },
    },
    errors: { 401: ['unauthorized'], 429: ['rate_limited'] },
  }),
  refreshSession: route({
    method: 'POST',
    path: '/sessions/refresh',
    tag: 'accounts',
    summary: 'Exchange a refresh token for a new access token and a new refresh token',
    description:
      'The refresh token presented (in the body, or for a browser client in its cookie) is spent. Presenting a spent refresh token again (or two refreshes of one token at once) is taken as a copied token: the whole session is revoked and the answer is 401 `refresh_token_reused`. A malformed, unknown, expired or revoked refresh token is 401 `invalid_refresh_token`.',
    auth: false,
    body: refreshBody,
    headers: sessionHeaders,
    success: {
      200: {
        description: 'New tokens; the presented refresh token no longer works',
        schema: SessionSchema,
        headers: noStore,
      },
    },
    errors: { 401: ['invalid_refresh_token', 'refresh_token_reused'], 403: ['client_header_required'] },
  }),
  logOut: route({
    method: 'POST',
    path: '/sessions/logout',
    tag: 'accounts',
    summary: 'Log out: revoke the session of a refresh token',
    description:
      "The refresh token is the body's, or for a browser client its cookie. No refresh token of that session works afterwards; access tokens already issued expire on their own (they live minutes). Idempotent: the answer is 204 whatever was presented.",
    auth: false,
    body: refreshBody,
    headers: sessionHeaders,
    success: {
      204: { description: "The session is revoked (or there was none); a browser client's cookie is cleared" },
    },
    errors: { 403: ['client_header_required'] },
  }),
  getProfile: route({
    method: 'GET',
    path: '/users/{handle}',
    tag: 'accounts',
    summary: "A user's public profile with exact follower, following and post counts",
    auth: false,
    params: handlePath,
    success: { 200: { description: 'The profile', schema: ProfileSchema } },
    errors: { 404: ['user_not_found'] },
  }),
  updateProfile: route({
    method: 'PATCH',
    path: '/users/{handle}',
    tag: 'accounts',
    summary: 'Change your own display name, bio (简介) or location',
    description:
      'Name at least one field; those left out stay, and an empty bio or location clears it. The change lands whole or not at all. From the answer on, finding people (`GET /users?q=`) finds you by the new name and no longer by the old. Two renames at once: one wins, the other answers 409 `rename_conflict` if it lost three times.',
    auth: true,
    params: handlePath,
    body: updateProfileBody,
    success: { 200: { description: 'The updated profile', schema: ProfileSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 409: ['rename_conflict'] },
  }),
  leave: route({
    method: 'DELETE',
    path: '/users/{handle}',
    tag: 'accounts',
    summary: 'Leave (注销): deactivate your account at once; it is erased after 30 days unless you log in again',
    description:
      'Your password again, checked and throttled as a login is (a wrong one: 403 `wrong_password`; the session stays). From the answer on your profile is 404 to everyone; your posts, comments, reposts, likes, follows and notifications you caused show nowhere (a home timeline may show a post for up to a minute more); nobody can follow, block or mention you or find you; and no session of yours refreshes (an access token already issued lives out its minutes). Logging in before `erasableFrom` brings everything back (the login answers `restored: true`). Asking again while deactivated answers the same dates.',
    auth: true,
    params: handlePath,
    body: leaveBody,
    success: { 200: { description: 'Deactivated: when, and until when a login restores it', schema: DepartureSchema } },
    errors: { 403: ['forbidden', 'wrong_password'], 429: ['rate_limited'] },
  }),
  exportData: route({
    method: 'GET',
    path: '/users/{handle}/export',
    tag: 'accounts',
    summary: 'Export your data (导出数据): a download link to a JSON file of everything you made',
    description:
      'Your posts (with their pictures’ URLs and edit times), comments, likes, bookmarks, following and followers, in one JSON file built in the background. The first call asks for it and answers 202 `building` with `Retry-After`; ask again until 200, which carries a link that works for 15 minutes. A file is reused for a day, then the next call builds a new one. At most 10,000 of each kind; `truncated` in the file names a kind cut there.',
    auth: true,
    params: handlePath,
    success: {
      200: { description: 'Ready: the link to the file', schema: ExportReadySchema, headers: noStore },
      202: {
        description: 'Being built: ask again after `Retry-After` seconds',
        schema: ExportBuildingSchema,
        headers: RETRY_AFTER_HEADER,
      },
    },
    errors: { 403: ['forbidden'] },
  }),
  setAvatar: route({
    method: 'PUT',
    path: '/users/{handle}/avatar',
    tag: 'accounts',
    summary: 'Set your avatar to a processed picture',
    description:
      'Upload with `POST /media` (`purpose: avatar`), complete it, wait for `ready`, then name it here. The worker made it square at 96 and 400 px with its metadata stripped. Every view that names you carries the new avatar from now on; the one it replaces is deleted within a day. Setting the current avatar again changes nothing.',
    auth: true,
    params: handlePath,
    body: avatarBody,
    success: { 200: { description: 'The profile with its new avatar', schema: ProfileSchema } },
    errors: {
      403: ['forbidden'],
      404: ['user_not_found'],
      409: ['media_not_ready', 'media_in_use', 'avatar_conflict'],
      422: ['media_not_found'],
    },
  }),
  removeAvatar: route({
    method: 'DELETE',
    path: '/users/{handle}/avatar',
    tag: 'accounts',
    summary: 'Remove your avatar (back to initials; idempotent)',
    auth: true,
    params: handlePath,
    success: { 200: { description: 'The profile without an avatar', schema: ProfileSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 409: ['avatar_conflict'] },
  }),
  setCover: route({
    method: 'PUT',
    path: '/users/{handle}/cover',
    tag: 'accounts',
    summary: 'Set your profile’s cover picture (the banner) to a processed picture',
    description:
      'Upload with `POST /media` (`purpose: cover`), complete it, wait for `ready`, then name it here: as for the avatar. The one it replaces is deleted within a day. Setting the current cover again changes nothing.',
    auth: true,
    params: handlePath,
    body: coverBody,
    success: { 200: { description: 'The profile with its new cover', schema: ProfileSchema } },
    errors: {
      403: ['forbidden'],
      404: ['user_not_found'],
      409: ['media_not_ready', 'media_in_use', 'cover_conflict'],
      422: ['media_not_found'],
    },
  }),
  removeCover: route({
    method: 'DELETE',
    path: '/users/{handle}/cover',
    tag: 'accounts',
    summary: 'Remove your cover picture (back to the plain band; idempotent)',
    auth: true,
    params: handlePath,
    success: { 200: { description: 'The profile without a cover', schema: ProfileSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 409: ['cover_conflict'] },
  }),
  getSettings: route({
    method: 'GET',
    path: '/users/{handle}/settings',
    tag: 'accounts',
    summary: 'Your own settings: who may message you, and which notifications you are told of',
    auth: true,
    params: handlePath,
    success: { 200: { description: 'Your settings', schema: SettingsSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'] },
  }),
  changeSettings: route({
    method: 'PATCH',
    path: '/users/{handle}/settings',
    tag: 'accounts',
    summary: 'Change your settings: only what the body names changes',
    description:
      'A kind of notification switched off is not told from the next like, comment, repost, mention or follow on (those already told stay); switched on again, the next one is. `messagesFrom` is kept for private messages (私信).',
    auth: true,
    params: handlePath,
    body: settingsBody,
    success: { 200: { description: 'Your settings now', schema: SettingsSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'] },
  }),
  publishPost: route({
    method: 'POST',
    path: '/posts',
    tag: 'posts',
    summary: 'Publish a post as the token’s user',
    description:
      'The post reaches followers’ timelines asynchronously (usually within a second). With an `Idempotency-Key`, a retry with the same body returns the first outcome (200 with the same post, or 410 if it has been deleted since); the same key with another body is 422 `idempotency_key_mismatch`. Keys are kept for 24 hours.',
    auth: true,
    body: publishBody,
    headers: idempotencyHeaders,
    success: {
      201: { description: 'Published', schema: PostSchema },
      200: {
        description: 'A retry with the same Idempotency-Key: the post the first request created',
        schema: PostSchema,
      },
    },
    errors: {
      409: ['idempotency_in_progress', 'publish_conflict', 'media_not_ready', 'media_in_use'],
      410: ['post_deleted'],
      422: ['idempotency_key_mismatch', 'media_not_found'],
    },
  }),
  getPost: route({
    method: 'GET',
    path: '/posts/{postId}',
    tag: 'posts',
    summary: 'One post, with its counts, your own state (with a token) and a repost’s original',
    description:
      'A block either way between you and the author, or a repost’s original author, answers 403 `blocked`. Your own repost always shows: when the original’s author blocks you, its `original` is `withheld` (nothing of it is shown), as on your profile and home.',
    auth: 'optional',
    params: postPath,
    success: { 200: { description: 'The post', schema: PostSchema } },
    errors: { 403: ['blocked'], 404: ['post_not_found'] },
  }),
  editPost: route({
    method: 'PATCH',
    path: '/posts/{postId}',
    tag: 'posts',
    summary: 'Edit your own post’s text (编辑)',
    description:
      'Send `If-Match` with the `version` you read: of edits racing from one version exactly one lands, the others answer 412 `version_mismatch` (read the post again). Within 24 hours of publishing, at most 10 edits (422 `edit_window_closed` / `edit_limit_reached`). The new text is parsed again: new @mentions are notified, dropped ones retracted; topics move between topic pages, and trending counts the post once per topic. Timelines and reposts show the new text at once (they hold the post’s id, not its text). The old text stays readable in the history.',
    auth: true,
    params: postPath,
    body: editBody,
    headers: editHeaders,
    success: { 200: { description: 'The post as edited', schema: PostSchema } },
    errors: {
      403: ['forbidden'],
      404: ['post_not_found'],
      412: ['version_mismatch'],
      422: ['edit_window_closed', 'edit_limit_reached'],
      428: ['version_required'],
    },
  }),
  postHistory: route({
    method: 'GET',
    path: '/posts/{postId}/history',
    tag: 'posts',
    summary: 'Every version of a post’s text, newest first',
    auth: 'optional',
    params: postPath,
    success: { 200: { description: 'The versions', schema: PostHistorySchema } },
    errors: { 403: ['blocked'], 404: ['post_not_found'] },
  }),
  deletePost: route({
    method: 'DELETE',
    path: '/posts/{postId}',
    tag: 'posts',
    summary: 'Delete your own post',
    description: 'It leaves every follower’s timeline; a deleted post id is never reused.',
    auth: true,
    params: postPath,
    success: { 204: { description: 'Deleted' } },
    errors: { 403: ['forbidden'], 404: ['post_not_found'] },
  }),
  listUserPosts: route({
    method: 'GET',
    path: '/users/{handle}/posts',
    tag: 'posts',
    summary: "A user's posts, newest first, cursor-paged",
    description: 'With a token, every post carries your own state (`liked`, `reposted`).',
    auth: 'optional',
    params: handlePath,
    query: pageQuery,
    success: { 200: { description: 'A page of posts', schema: PostPageSchema } },
    errors: { 403: ['blocked'], 404: ['user_not_found'], 422: ['invalid_cursor'] },
  }),
  listComments: route({
    method: 'GET',
    path: '/posts/{postId}/comments',
    tag: 'reactions',
    summary:
      'A post’s top-level comments, newest or oldest first, cursor-paged, each with its thread’s reply count and oldest two replies',
    description:
      'Replies (楼中楼) are not listed here but under their top-level comment: `replyCount` and the oldest two as `replies`; the whole thread is `GET …/comments/{commentId}/replies`. A deleted top-level comment whose replies remain is listed as `deleted: true` (show “该评论已删除”) with its thread. A deleted post’s comments are gone with it (404). With a token, the comments of users you block or mute, or who block you, are left out (also on your own posts); a page may then hold fewer than `limit`, and `nextCursor` goes on.',
    auth: 'optional',
    params: postPath,
    query: commentsQuery,
    success: { 200: { description: 'A page of comments', schema: CommentPageSchema } },
    errors: { 404: ['post_not_found'], 422: ['invalid_cursor'] },
  }),
  getComment: route({
    method: 'GET',
    path: '/posts/{postId}/comments/{commentId}',
    tag: 'reactions',
    summary: 'One comment, with its likes and `root` (a link to a reply opens its root’s thread)',
    description:
      'A deleted or unknown comment, one by a user who left, or (with a token) one by a user you block or mute or who blocks you, is 404 `comment_not_found`; a deleted post’s, 404 `post_not_found`.',
    auth: 'optional',
    params: commentPath,
    success: { 200: { description: 'The comment', schema: CommentSchema } },
    errors: { 404: ['post_not_found', 'comment_not_found'] },
  }),
  listReplies: route({
    method: 'GET',
    path: '/posts/{postId}/comments/{commentId}/replies',
    tag: 'reactions',
    summary: 'The replies in one top-level comment’s thread (楼中楼), oldest first, cursor-paged',
    description:
      'A reply to a reply is in the same thread (its `root`). A deleted top-level comment’s thread still opens while replies remain; an unknown comment, or a reply, has none (404 `comment_not_found`). With a token, the replies of users you block or mute, or who block you, are left out; a page may then hold fewer than `limit`, and `nextCursor` goes on.',
    auth: 'optional',
    params: commentPath,
    query: pageQuery,
    success: { 200: { description: 'A page of replies', schema: ReplyPageSchema } },
    errors: { 404: ['post_not_found', 'comment_not_found'], 422: ['invalid_cursor'] },
  }),
  addComment: route({
    method: 'POST',
    path: '/posts/{postId}/comments',
    tag: 'reactions',
    summary: 'Comment on a post as the token’s user, optionally in reply to another comment on it (then in its thread)',
    description:
      'At most `COMMENTS_PER_MINUTE` (default 20) comments a minute per user; past that 429 with `Retry-After`. With an `Idempotency-Key`, a retry with the same body returns the first outcome (200 with the same comment, or 410 `comment_deleted` if it has been deleted since); the same key with another body, or a key used for another request, is 422 `idempotency_key_mismatch`. Keys are kept for 24 hours.',
    auth: true,
    params: postPath,
    body: commentBody,
    headers: idempotencyHeaders,
    success: {
      201: { description: 'Commented', schema: CommentSchema },
      200: {
        description: 'A retry with the same Idempotency-Key: the comment the first request made',
        schema: CommentSchema,
      },
    },
    errors: {
      403: ['blocked'],
      404: ['post_not_found', 'comment_not_found'],
      409: ['idempotency_in_progress'],
      410: ['comment_deleted'],
      422: ['idempotency_key_mismatch'],
      429: ['rate_limited'],
    },
  }),
  deleteComment: route({
    method: 'DELETE',
    path: '/posts/{postId}/comments/{commentId}',
    tag: 'reactions',
    summary: 'Delete a comment: yours, or any on your own post',
    auth: true,
    params: commentPath,
    success: { 204: { description: 'Deleted' } },
    errors: { 403: ['forbidden'], 404: ['comment_not_found'] },
  }),
  likeComment: route({
    method: 'PUT',
    path: '/posts/{postId}/comments/{commentId}/like',
    tag: 'reactions',
    summary: 'Like (赞) a comment as the token’s user (idempotent)',
    description:
      'Liking again changes nothing; the count moves once, together with the like (one atomic row change). The comment’s author is notified (`commentLike`). A deleted or unknown comment is 404; a block between you and the post’s author or the comment’s author is 403 `blocked`. Counts toward `LIKES_PER_MINUTE` with post likes.',
    auth: true,
    params: commentPath,
    success: { 200: { description: 'Liked', schema: CommentLikeStateSchema } },
    errors: { 403: ['blocked'], 404: ['post_not_found', 'comment_not_found'], 429: ['rate_limited'] },
  }),
  unlikeComment: route({
    method: 'DELETE',
    path: '/posts/{postId}/comments/{commentId}/like',
    tag: 'reactions',
    summary: 'Take back a like of a comment (idempotent)',
    description: 'Not liked, deleted or unknown: nothing changes (200, `liked: false`).',
    auth: true,
    params: commentPath,
    success: { 200: { description: 'Not liked', schema: CommentLikeStateSchema } },
    errors: { 429: ['rate_limited'] },
  }),
  listLikers: route({
    method: 'GET',
    path: '/posts/{postId}/likes',
    tag: 'reactions',
    summary: 'Who liked a post, cursor-paged',
    auth: false,
    params: postPath,
    query: pageQuery,
    success: { 200: { description: 'A page of users', schema: LikerPageSchema } },
    errors: { 404: ['post_not_found'], 422: ['invalid_cursor'] },
  }),
  like: route({
    method: 'PUT',
    path: '/users/{handle}/likes/{postId}',
    tag: 'reactions',
    summary: 'Like a post (idempotent)',
    description:
      '`handle` must be the token’s user. Liking again changes nothing; the count moves once. Likes and unlikes together: at most `LIKES_PER_MINUTE` (default 60) a minute.',
    auth: true,
    params: likePath,
    success: { 200: { description: 'Liked', schema: LikeStateSchema } },
    errors: { 403: ['forbidden', 'blocked'], 404: ['post_not_found'], 429: ['rate_limited'] },
  }),
  unlike: route({
    method: 'DELETE',
    path: '/users/{handle}/likes/{postId}',
    tag: 'reactions',
    summary: 'Take back a like (idempotent)',
    description: '`handle` must be the token’s user. Works on a deleted post too; 404 only for an id never used.',
    auth: true,
    params: likePath,
    success: { 200: { description: 'Not liked', schema: LikeStateSchema } },
    errors: { 403: ['forbidden'], 404: ['post_not_found'], 429: ['rate_limited'] },
  }),
  bookmark: route({
    method: 'PUT',
    path: '/users/{handle}/bookmarks/{postId}',
    tag: 'reactions',
    summary: 'Bookmark (收藏) a post, privately (idempotent)',
    description:
      '`handle` must be the token’s user. Nobody else sees your bookmarks, and the author is not told. Bookmarking again changes nothing. Counted with likes against `LIKES_PER_MINUTE`.',
    auth: true,
    params: likePath,
    success: { 200: { description: 'Bookmarked', schema: BookmarkStateSchema } },
    errors: { 403: ['forbidden'], 404: ['post_not_found'], 429: ['rate_limited'] },
  }),
  unbookmark: route({
    method: 'DELETE',
    path: '/users/{handle}/bookmarks/{postId}',
    tag: 'reactions',
    summary: 'Remove a bookmark (idempotent)',
    description: '`handle` must be the token’s user. Works on a deleted post too; 404 only for an id never used.',
    auth: true,
    params: likePath,
    success: { 200: { description: 'Not bookmarked', schema: BookmarkStateSchema } },
    errors: { 403: ['forbidden'], 404: ['post_not_found'], 429: ['rate_limited'] },
  }),
  listBookmarks: route({
    method: 'GET',
    path: '/users/{handle}/bookmarks',
    tag: 'reactions',
    summary: 'Your bookmarks (收藏), newest bookmarked first',
    description:
      '`handle` must be the token’s user: the list is private. A bookmarked post that was deleted leaves the list; one a block stands between you and its author (or its original’s author), either way, is left out while the block stands, as its own page refuses it.',
    auth: true,
    params: handlePath,
    query: pageQuery,
    success: { 200: { description: 'A page of bookmarked posts', schema: PostPageSchema } },
    errors: { 403: ['forbidden'], 422: ['invalid_cursor'] },
  }),
  repost: route({
    method: 'POST',
    path: '/posts/{postId}/reposts',
    tag: 'reactions',
    summary: 'Repost (转发) a post as the token’s user, optionally with a comment',
    description:
      'The repost is a post of yours that points at the original and reaches your followers like any post. Reposting a repost reposts its original and keeps the chain as text (`your comment //@them: their comment`). Without a comment, reposting the same original again answers your existing repost (200). With a comment every repost is new; an `Idempotency-Key` makes its retries safe. At most `REPOSTS_PER_MINUTE` (default 20) a minute.',
    auth: true,
    params: postPath,
    body: repostBody,
    headers: idempotencyHeaders,
    success: {
      201: { description: 'Reposted', schema: PostSchema },
      200: {
        description: 'Your existing plain repost of this original, or an Idempotency-Key replay',
        schema: PostSchema,
      },
    },
    errors: {
      403: ['blocked'],
      404: ['post_not_found'],
      409: ['repost_in_progress', 'idempotency_in_progress', 'publish_conflict'],
      410: ['post_deleted'],
      422: ['idempotency_key_mismatch'],
      429: ['rate_limited'],
    },
  }),
  followState: route({
    method: 'GET',
    path: '/users/{handle}/following/{target}',
    tag: 'relations',
    summary: 'Whether `handle` follows `target`',
    description: 'Public, like the following and followers lists.',
    auth: false,
    params: relationPath,
    success: { 200: { description: 'The follow state', schema: FollowStateSchema } },
    errors: { 404: ['user_not_found'] },
  }),
  follow: route({
    method: 'PUT',
    path: '/users/{handle}/following/{target}',
    tag: 'relations',
    summary: 'Follow a user (idempotent)',
    description:
      '`handle` must be the token’s user. The target’s recent posts appear in your timeline within seconds; following again changes nothing.',
    auth: true,
    params: relationPath,
    success: { 200: { description: 'Following', schema: FollowStateSchema } },
    errors: { 403: ['forbidden', 'blocked'], 404: ['user_not_found'], 422: ['cannot_follow_self', 'following_limit'] },
  }),
  unfollow: route({
    method: 'DELETE',
    path: '/users/{handle}/following/{target}',
    tag: 'relations',
    summary: 'Unfollow a user (idempotent)',
    description: '`handle` must be the token’s user. The target’s posts leave your timeline.',
    auth: true,
    params: relationPath,
    success: { 200: { description: 'Not following', schema: FollowStateSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 422: ['cannot_unfollow_self'] },
  }),
  listFollowing: route({
    method: 'GET',
    path: '/users/{handle}/following',
    tag: 'relations',
    summary: 'Whom a user follows, most recent first, cursor-paged',
    auth: false,
    params: handlePath,
    query: pageQuery,
    success: { 200: { description: 'A page of users', schema: UserPageSchema } },
    errors: { 404: ['user_not_found'], 422: ['invalid_cursor'] },
  }),
  suggestions: route({
    method: 'GET',
    path: '/users/{handle}/suggestions',
    tag: 'relations',
    summary: 'Who to follow: people followed by the people you follow',
    description:
      '`handle` must be the token’s user. Best first: followed by most of your followees (your newest 20, and their newest 30 each), then the one your circle followed most recently, then by handle. Never you, anyone you follow, block or mute, or anyone who blocks you. When that gives fewer than `limit` (you follow nobody yet), the rest are people often followed in a sample of the whole graph, with `followedBy: 0`. At most 3 HBase round trips; the list is kept a minute, so someone you just followed may still show: drop them in the client.',
    auth: true,
    params: handlePath,
    query: suggestionsQuery,
    success: {
      200: { description: 'People to follow, best first', schema: SuggestionsSchema, headers: privateMinute },
    },
    errors: { 403: ['forbidden'] },
  }),
  listFollowers: route({
    method: 'GET',
    path: '/users/{handle}/followers',
    tag: 'relations',
    summary: "A user's followers, most recent first, cursor-paged",
    auth: false,
    params: handlePath,
    query: pageQuery,
    success: { 200: { description: 'A page of users', schema: UserPageSchema } },
    errors: { 404: ['user_not_found'], 422: ['invalid_cursor'] },
  }),
  homeTimeline: route({
    method: 'GET',
    path: '/users/{handle}/timeline',
    tag: 'timeline',
    summary: 'Your home timeline: posts of everyone you follow, and your own, newest first',
    description:
      '`handle` must be the token’s user. While the inbox of a reader returning after a long absence is rebuilt, the answer is 206 with `regenerating: true`: show what came and ask again in a few seconds.',
    auth: true,
    params: handlePath,
    query: pageQuery,
    success: {
      200: { description: 'A page of the timeline', schema: TimelinePageSchema },
      206: {
        description: 'The timeline is being regenerated: this page may be incomplete',
        schema: TimelinePageSchema,
      },
    },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 422: ['invalid_cursor'] },
  }),
  listGroups: route({
    method: 'GET',
    path: '/users/{handle}/groups',
    tag: 'relations',
    summary: 'Your groups (分组): 特别关注 first, then your own in the order you made them',
    description:
      '`handle` must be the token’s user: groups are private. With `member`, each group says whether it holds that person (the follow button’s group picker).',
    auth: true,
    params: groupsPath,
    query: groupsQuery,
    success: { 200: { description: 'Your groups', schema: GroupListSchema } },
    errors: { 403: ['forbidden'] },
  }),
  createGroup: route({
    method: 'POST',
    path: '/users/{handle}/groups',
    tag: 'relations',
    summary: 'Make a group of people you follow',
    description: `At most ${GROUPS_MAX} groups of your own besides 特别关注; a name of 1–${GROUP_NAME_MAX} characters, unlike your other groups’ (case and width aside).`,
    auth: true,
    params: groupsPath,
    body: groupNameBody,
    success: { 201: { description: 'Made', schema: GroupSchema } },
    errors: {
      403: ['forbidden'],
      409: ['group_name_taken', 'groups_busy'],
      422: ['group_name_invalid', 'group_limit_reached'],
    },
  }),
  renameGroup: route({
    method: 'PATCH',
    path: '/users/{handle}/groups/{groupId}',
    tag: 'relations',
    summary: 'Rename a group of your own',
    auth: true,
    params: groupPath,
    body: groupNameBody,
    success: { 200: { description: 'Renamed', schema: GroupSchema } },
    errors: {
      403: ['forbidden'],
      404: ['group_not_found'],
      409: ['group_name_taken', 'groups_busy'],
      422: ['group_name_invalid', 'group_built_in'],
    },
  }),
  deleteGroup: route({
    method: 'DELETE',
    path: '/users/{handle}/groups/{groupId}',
    tag: 'relations',
    summary: 'Delete a group of your own (the people in it stay followed)',
    auth: true,
    params: groupPath,
    success: { 200: { description: 'Deleted', schema: GroupListSchema } },
    errors: { 403: ['forbidden'], 404: ['group_not_found'], 409: ['groups_busy'], 422: ['group_built_in'] },
  }),
  groupMembers: route({
    method: 'GET',
    path: '/users/{handle}/groups/{groupId}/members',
    tag: 'relations',
    summary: 'The people in a group, the latest added first',
    description: `All of them (a group holds at most ${GROUP_MEMBERS_MAX}). Someone you unfollowed is not listed, also in the moment before the unfollow has taken them out.`,
    auth: true,
    params: groupPath,
    success: { 200: { description: 'The group’s members', schema: GroupMembersSchema } },
    errors: { 403: ['forbidden'], 404: ['group_not_found'] },
  }),
  addGroupMember: route({
    method: 'PUT',
    path: '/users/{handle}/groups/{groupId}/members/{member}',
    tag: 'relations',
    summary: 'Put someone you follow in a group (idempotent)',
    description: `Their posts show in the group’s timeline at once, as far back as your home timeline holds them. Only people you follow (422 \`not_following\`); at most ${GROUP_MEMBERS_MAX} a group (422 \`group_full\`). Unfollowing or blocking someone takes them out of every group.`,
    auth: true,
    params: groupMemberPath,
    success: { 200: { description: 'In the group', schema: GroupSchema } },
    errors: {
      403: ['forbidden'],
      404: ['group_not_found', 'user_not_found'],
      409: ['groups_busy'],
      422: ['not_following', 'group_full'],
    },
  }),
  removeGroupMember: route({
    method: 'DELETE',
    path: '/users/{handle}/groups/{groupId}/members/{member}',
    tag: 'relations',
    summary: 'Take someone out of a group (idempotent; they stay followed)',
    auth: true,
    params: groupMemberPath,
    success: { 200: { description: 'Not in the group', schema: GroupSchema } },
    errors: { 403: ['forbidden'], 404: ['group_not_found'], 409: ['groups_busy'] },
  }),
  groupTimeline: route({
    method: 'GET',
    path: '/users/{handle}/groups/{groupId}/timeline',
    tag: 'timeline',
    summary: 'A group’s timeline: what its members posted and reposted, newest first',
    description:
      'Your home timeline read through the group: the same rules (reposts folded, blocks, mutes, deleted posts, accounts that left) and as deep as your home timeline goes. A member added shows at once with what home holds of them; one taken out leaves at once.',
    auth: true,
    params: groupPath,
    query: groupTimelineQuery,
    success: {
      200: { description: 'A page of the group’s timeline', schema: TimelinePageSchema },
      206: {
        description: 'Your timeline is being regenerated: this page may be incomplete',
        schema: TimelinePageSchema,
      },
    },
    errors: { 403: ['forbidden'], 404: ['group_not_found'], 422: ['invalid_cursor'] },
  }),
  timelineNewer: route({
    method: 'GET',
    path: '/users/{handle}/timeline/newer',
    tag: 'timeline',
    summary: 'How many timeline entries are newer than the post you show (a cheap "anything new?")',
    description:
      '`handle` must be the token’s user. Counts up to 20 entries strictly newer (in timeline order) than `after`; `more` when there may be more. One HBase round trip (the inbox row through a server-side filter, beside your mute list); two when you follow celebrities (their outboxes, read with the same filter). Poll it while the page is visible, then fetch the first page when `count` > 0. An estimate for a badge: it may count a few entries the page then leaves out (reposts of hidden posts, a plain repost folded into another, authors muted beyond your newest 100 mutes). Writes nothing: it is not a read of the timeline. Cacheable by nobody (`no-store`): the answer changes with every post.',
    auth: true,
    params: handlePath,
    query: newerQuery,
    success: { 200: { description: 'The count', schema: NewerCountSchema, headers: countNoStore } },
    errors: { 403: ['forbidden'] },
  }),
  notifications: route({
    method: 'GET',
    path: '/users/{handle}/notifications',
    tag: 'notifications',
    summary: 'Your notifications, grouped, newest first',
    description:
      '`handle` must be the token’s user. Likes and reposts of one post, and new followers, within 12 hours are one group with an exact count and the latest actors; comments, replies and mentions are one each. Delivered through the queue: a new one shows within seconds, and an unlike, unfollow or deleted comment takes its share back. `filter` picks a tab (mentions, comments, likes): the same one scan of your entries, with a server-side row filter on the group’s type, so a page still fills.',
    auth: true,
    params: handlePath,
    query: notificationsQuery,
    success: { 200: { description: 'A page of notification groups', schema: NotificationPageSchema } },
    errors: { 403: ['forbidden'], 422: ['invalid_cursor'] },
  }),
  unreadNotifications: route({
    method: 'GET',
    path: '/users/{handle}/notifications/unread',
    tag: 'notifications',
    summary: 'How many notification groups are unread (for the badge)',
    auth: true,
    params: handlePath,
    success: { 200: { description: 'The unread count', schema: UnreadCountSchema } },
    errors: { 403: ['forbidden'] },
  }),
  markNotificationsRead: route({
    method: 'PUT',
    path: '/users/{handle}/notifications/read',
    tag: 'notifications',
    summary: 'Mark notifications read up to one of them',
    description: 'Idempotent; the marker only moves forward (an older `upTo` than the current marker changes nothing).',
    auth: true,
    params: handlePath,
    body: markReadBody,
    success: { 200: { description: 'The read marker now', schema: ReadMarkerSchema } },
    errors: { 403: ['forbidden'], 422: ['invalid_notification_id'] },
  }),
  topicPosts: route({
    method: 'GET',
    path: '/topics/{topic}/posts',
    tag: 'topics',
    summary: 'Posts with a #topic#, newest first, cursor-paged',
    description:
      'Public (a token adds your own state and hides users you blocked or muted, and who blocked you). Reaches back 30 days.',
    auth: 'optional',
    params: topicPath,
    query: pageQuery,
    success: { 200: { description: 'A page of the topic', schema: TopicPageSchema } },
    errors: { 422: ['invalid_topic', 'invalid_cursor'] },
  }),
  searchTopics: route({
    method: 'GET',
    path: '/topics',
    tag: 'topics',
    summary: 'Topic names that start with a prefix (the composer’s # suggestions)',
    description:
      'Public. Names a post carried within the last 30 days, best first: the name that is the prefix itself, then trending ones, then shorter names. One bounded index read: the best of the first 50 names the prefix starts.',
    auth: false,
    query: topicSearchQuery,
    success: { 200: { description: 'Topic names, best first', schema: TopicNamesSchema } },
    errors: {},
  }),
  trendingTopics: route({
    method: 'GET',
    path: '/topics/trending',
    tag: 'topics',
    summary: 'The top topics by posts in the last hour',
    auth: false,
    success: { 200: { description: 'Trending topics, most posts first', schema: TrendingSchema } },
  }),
  searchPosts: route({
    method: 'GET',
    path: '/search/posts',
    tag: 'topics',
    summary: 'Find posts by their words (搜索), newest first, cursor-paged',
    description:
      'Public (a token adds your own state and hides users you blocked or muted, and who blocked you). Live posts whose current text holds every word of the query. Bounded work whatever the words: each page reads at most 4 index lists of at most 200 entries, so a page can be short, even empty, with a `nextCursor` to go on. A new post is found as soon as its publish answers.',
    auth: 'optional',
    query: postSearchQuery,
    success: { 200: { description: 'A page of matching posts', schema: PostSearchPageSchema } },
    errors: { 422: ['query_empty', 'query_too_long', 'query_too_complex', 'invalid_cursor'] },
  }),
  hotPosts: route({
    method: 'GET',
    path: '/hot',
    tag: 'timeline',
    summary: 'The hot feed (热门微博): the posts most engaged with lately, best first, cursor-paged',
    description:
      'Public (a token adds your own state and hides users you blocked or muted, and who blocked you). Posts of the last 48 hours ranked by the distinct people who liked, commented on or reposted them, each engagement weighing half after 6 hours, at least 3 people; ranked every 5 minutes. Deleted posts and accounts that left never show. A page after the ranking was replaced goes on from the same rank: a post may repeat or be passed over.',
    auth: 'optional',
    query: hotQuery,
    success: { 200: { description: 'A page of the hot feed', schema: HotPageSchema } },
    errors: { 422: ['invalid_cursor'] },
  }),
  blockState: route({
    method: 'GET',
    path: '/users/{handle}/blocks/{target}',
    tag: 'safety',
    summary: 'Whether you block and mute a user',
    auth: true,
    params: blockPath,
    success: { 200: { description: 'The state', schema: BlockStateSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'] },
  }),
  block: route({
    method: 'PUT',
    path: '/users/{handle}/blocks/{target}',
    tag: 'safety',
    summary: 'Block a user (idempotent)',
    description:
      'Follows in both directions are removed; the target can no longer follow you, see your posts, comment on, like or repost them, or notify you; neither of you sees the other’s posts in timelines or topic pages.',
    auth: true,
    params: blockPath,
    success: { 200: { description: 'Blocking', schema: BlockStateSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 422: ['cannot_block_self'] },
  }),
  unblock: route({
    method: 'DELETE',
    path: '/users/{handle}/blocks/{target}',
    tag: 'safety',
    summary: 'Unblock a user (idempotent; removed follows stay removed)',
    auth: true,
    params: blockPath,
    success: { 200: { description: 'Not blocking', schema: BlockStateSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 422: ['cannot_block_self'] },
  }),
  mute: route({
    method: 'PUT',
    path: '/users/{handle}/mutes/{target}',
    tag: 'safety',
    summary: 'Mute a user (idempotent): their posts and notifications are hidden from you; they notice nothing',
    auth: true,
    params: blockPath,
    success: { 200: { description: 'Muting', schema: BlockStateSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 422: ['cannot_mute_self'] },
  }),
  unmute: route({
    method: 'DELETE',
    path: '/users/{handle}/mutes/{target}',
    tag: 'safety',
    summary: 'Unmute a user (idempotent)',
    auth: true,
    params: blockPath,
    success: { 200: { description: 'Not muting', schema: BlockStateSchema } },
    errors: { 403: ['forbidden'], 404: ['user_not_found'], 422: ['cannot_mute_self'] },
  }),
  listBlocks: route({
    method: 'GET',
    path: '/users/{handle}/blocks',
    tag: 'safety',
    summary: 'Users you block, cursor-paged (only you can see it)',
    auth: true,
    params: handlePath,
    query: pageQuery,
    success: { 200: { description: 'A page of users', schema: BlockedUserPageSchema } },
    errors: { 403: ['forbidden'], 422: ['invalid_cursor'] },
  }),
  listMutes: route({
    method: 'GET',
    path: '/users/{handle}/mutes',
    tag: 'safety',
    summary: 'Users you mute, cursor-paged (only you can see it)',
    auth: true,
    params: handlePath,
    query: pageQuery,
    success: { 200: { description: 'A page of users', schema: BlockedUserPageSchema } },
    errors: { 403: ['forbidden'], 422: ['invalid_cursor'] },
  }),
  createUpload: route({
    method: 'POST',
    path: '/media',
    tag: 'media',
    summary: 'Start uploading a picture: a media id and a presigned upload straight to storage',
    description:
      'Declare the type and exact size; PUT the bytes to `upload.url` with `upload.headers` (the signature covers type and length, and expires in minutes), then call `POST /media/{id}/complete`. The API never carries the bytes. At most 20 MB; JPEG, PNG, WebP or GIF (the worker decides by the bytes, not by this declaration). At most `UPLOADS_PER_MINUTE` (default 30) a minute per user; past that 429 with `Retry-After`. With an `Idempotency-Key`, a retry with the same declaration returns the first upload as it is now, with a fresh presigned PUT (200), or 410 `media_deleted` once it has been removed; the same key with another declaration, or a key used for another request, is 422 `idempotency_key_mismatch`. Keys are kept for 24 hours.',
    auth: true,
    body: uploadBody,
    headers: idempotencyHeaders,
    success: {
      201: { description: 'The media record (uploading) and where to upload', schema: UploadSchema },
      200: {
        description:
          'A retry with the same Idempotency-Key: the upload the first request started, as it is now, and a fresh presigned PUT',
        schema: UploadSchema,
      },
    },
    errors: {
      409: ['idempotency_in_progress'],
      410: ['media_deleted'],
      422: ['media_type_refused', 'media_too_large', 'idempotency_key_mismatch'],
      429: ['rate_limited'],
    },
  }),
  completeUpload: route({
    method: 'POST',
    path: '/media/{id}/complete',
    tag: 'media',
    summary: 'Say the upload is done: the API checks the bytes arrived and queues the processing',
    description:
      'Idempotent: once processing started, the media as it is. 409 `upload_missing` when nothing has been uploaded yet (upload, then call again). An upload of another size than declared ends `failed` (`size_mismatch`). Then poll `GET /media/{id}` until `ready` or `failed`.',
    auth: true,
    params: mediaPath,
    success: { 200: { description: 'The media (processing, or its state if that moved on)', schema: MediaSchema } },
    errors: { 404: ['media_not_found'], 409: ['upload_missing'] },
  }),
  getMedia: route({
    method: 'GET',
    path: '/media/{id}',
    tag: 'media',
    summary: 'An upload of yours: its state, and once ready its sizes, placeholder and variant URLs',
    description:
      'Only the uploader sees the record (404 for anyone else); once a picture is in a post, its post carries what readers need.',
    auth: true,
    params: mediaPath,
    success: { 200: { description: 'The media', schema: MediaSchema } },
    errors: { 404: ['media_not_found'] },
  }),
  listConversations: route({
    method: 'GET',
    path: '/users/{handle}/conversations',
    tag: 'messages',
    summary: 'Your private conversations (私信), latest activity first',
    description:
      '`handle` must be the token’s user. `box=requests` lists first messages from people your `messagesFrom` setting did not admit; accept one to move it to your conversations. Each entry carries the last message’s preview, your unread count and how far each side has read.',
    auth: true,
    params: handlePath,
    query: conversationsQuery,
    success: { 200: { description: 'A page of conversations', schema: ConversationListSchema } },
    errors: { 403: ['forbidden'], 422: ['invalid_cursor'] },
  }),
  messageBadge: route({
    method: 'GET',
    path: '/users/{handle}/message-badge',
    tag: 'messages',
    summary: 'Unread private messages and waiting requests (the badge)',
    description:
      '`handle` must be the token’s user. Unread messages over your conversations, and requests waiting for your answer.',
    auth: true,
    params: handlePath,
    success: { 200: { description: 'The counts', schema: MessageBadgeSchema, headers: countNoStore } },
    errors: { 403: ['forbidden'] },
  }),
  readConversation: route({
    method: 'GET',
    path: '/users/{handle}/conversations/{peer}',
    tag: 'messages',
    summary: 'A conversation with one person: its newest messages, then older pages',
    description:
      '`handle` must be the token’s user; nobody else can read the conversation. Messages you deleted for yourself are left out. Pictures come with signed URLs that work for a few minutes.',
    auth: true,
    params: conversationPath,
    query: conversationQuery,
    success: { 200: { description: 'A page of the conversation', schema: ConversationSchema } },
    errors: { 403: ['forbidden'], 404: ['conversation_not_found'], 422: ['invalid_cursor'] },
  }),
  sendMessage: route({
    method: 'POST',
    path: '/users/{handle}/conversations/{peer}/messages',
    tag: 'messages',
    summary: 'Send a private message',
    description:
      '`handle` must be the token’s user. The same `clientId` again answers 200 with the message the first send made: a retry never sends twice. A first message the recipient’s setting does not admit becomes a request, which holds at most two of your messages until they reply or accept (then 403 `message_request_pending`). The setting `nobody` and a block either way both answer 403 `messages_refused`. At most `MESSAGES_PER_MINUTE` (default 30) messages and `CONVERSATIONS_PER_MINUTE` (default 10) new conversations a minute.',
    auth: true,
    params: conversationPath,
    body: sendBody,
    success: {
      201: { description: 'Sent', schema: SentMessageSchema },
      200: { description: 'Sent before (the same clientId)', schema: SentMessageSchema },
    },
    errors: {
      403: ['forbidden', 'messages_refused', 'message_request_pending'],
      404: ['user_not_found'],
      409: ['media_not_ready', 'media_in_use', 'conversation_busy'],
      422: ['cannot_message_self', 'media_not_found'],
      429: ['rate_limited'],
    },
  }),
  markMessagesRead: route({
    method: 'POST',
    path: '/users/{handle}/conversations/{peer}/read',
    tag: 'messages',
    summary: 'Mark a conversation read up to a message',
    description:
      '`handle` must be the token’s user. A marker never moves back; the other side sees 已读 under their messages up to it.',
    auth: true,
    params: conversationPath,
    body: readBody,
    success: { 200: { description: 'Where your marker is now', schema: MessageReadSchema } },
    errors: { 403: ['forbidden'], 404: ['conversation_not_found'], 409: ['conversation_busy'] },
  }),
  acceptRequest: route({
    method: 'POST',
    path: '/users/{handle}/conversations/{peer}/accept',
    tag: 'messages',
    summary: 'Accept a message request',
    description:
      '`handle` must be the token’s user, the request’s recipient. It moves to your conversations; both may write freely.',
    auth: true,
    params: conversationPath,
    success: { 200: { description: 'The conversation’s state for you', schema: ConversationStateSchema } },
    errors: { 403: ['forbidden'], 404: ['conversation_not_found'], 409: ['no_request', 'conversation_busy'] },
  }),
  declineRequest: route({
    method: 'POST',
    path: '/users/{handle}/conversations/{peer}/decline',
    tag: 'messages',
    summary: 'Decline a message request',
    description:
      '`handle` must be the token’s user, the request’s recipient. It leaves your requests; the sender is not told.',
    auth: true,
    params: conversationPath,
    success: { 200: { description: 'Declined', schema: DeclinedSchema } },
    errors: { 403: ['forbidden'], 404: ['conversation_not_found'], 409: ['no_request', 'conversation_busy'] },
  }),
  recallMessage: route({
    method: 'POST',
    path: '/users/{handle}/conversations/{peer}/messages/{seq}/recall',
    tag: 'messages',
    summary: 'Recall (撤回) your message within 2 minutes',
    description:
      '`handle` must be the token’s user and the message’s sender. Its text and pictures are gone for both sides; "message recalled" stays in its place. Recalling again changes nothing.',
    auth: true,
    params: messagePath,
    success: { 200: { description: 'The message as it is now', schema: MessageSchema } },
    errors: {
      403: ['forbidden'],
      404: ['conversation_not_found', 'message_not_found'],
      409: ['recall_window_closed', 'conversation_busy'],
    },
  }),
  deleteMessage: route({
    method: 'DELETE',
    path: '/users/{handle}/conversations/{peer}/messages/{seq}',
    tag: 'messages',
    summary: 'Delete a message for yourself',
    description: '`handle` must be the token’s user. The other side keeps it.',
    auth: true,
    params: messagePath,
    success: { 200: { description: 'Deleted for you', schema: DeletedSchema } },
    errors: { 403: ['forbidden'], 404: ['conversation_not_found', 'message_not_found'], 409: ['conversation_busy'] },
  }),
  deleteConversation: route({
    method: 'DELETE',
    path: '/users/{handle}/conversations/{peer}',
    tag: 'messages',
    summary: 'Delete a conversation for yourself',
    description:
      '`handle` must be the token’s user. Its messages so far leave your view and the conversation leaves your list until the next message; the other side keeps everything.',
    auth: true,
    params: conversationPath,
    success: { 200: { description: 'Deleted for you', schema: DeletedSchema } },
    errors: { 403: ['forbidden'], 404: ['conversation_not_found'], 409: ['conversation_busy'] },
  }),
  openapi: route({
    method: 'GET',
    path: '/openapi.json',
    tag: 'meta',
    summary: 'This document',
    auth: false,
    success: {
      200: { description: 'The OpenAPI 3.1 document of this API', schema: z.record(z.string(), z.unknown()) },
    },
  }),
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;

/**
 * Every status an operation can answer with, beyond its own: what the shared middleware chain
 * (request-limits → authenticate → JSON parse → validation → error mapper, and the answer at the
 * invocation's deadline) adds.
 */
export function allErrors(r: Route): Record<number, ErrorCode[]> {
  const out: Record<number, ErrorCode[]> = {};
  const add = (status: number, ...codes: ErrorCode[]) =>
    (out[status] = [...new Set([...(out[status] ?? []), ...codes])]);
  add(413, 'payload_too_large');
  if (r.body) {
    add(400, 'missing_body', 'malformed_json');
    add(415, 'unsupported_media_type');
  }
  if (r.body || r.params || r.query || r.headers) add(422, 'validation_failed');
  if (r.auth) add(401, 'missing_token', 'invalid_token', 'token_expired');
  for (const [status, codes] of Object.entries(r.errors ?? {})) add(Number(status), ...codes);
  add(500, 'internal_error');
  // Any operation can find storage unavailable, and any can run out of time (error-mapper.ts).
  add(503, 'service_unavailable', 'timeout');
  return out;
}
