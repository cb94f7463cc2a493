// shared/domain/error-codes.ts — domain floor: every machine-readable error code the API can send,
// as one typed union. The domain errors (errors.ts), the HTTP edge (shared/http/error-mapper.ts,
// routes.ts) and, through the generated contract (docs/openapi.json `ErrorCode`), the web
// client's messages all take their codes from here: a new code that the client cannot say, or a
// route that names a code nobody throws, is a type error, not a string that drifts.
export const ERROR_CODES = [
  // The request never reached a use case (the shared middleware chain, error-mapper.ts).
  'route_not_found',
  'payload_too_large',
  'missing_body',
  'malformed_json',
  'unsupported_media_type',
  'bad_request',
  'validation_failed',
  // Credentials.
  'missing_token',
  'invalid_token',
  'token_expired',
  'invalid_refresh_token',
  'refresh_token_reused',
  // A session call using the refresh cookie without the client header (shared/http/session-cookie.ts).
  'client_header_required',
  'unauthorized',
  'rate_limited',
  // Accounts and relations.
  'handle_taken',
  'user_not_found',
  'forbidden',
  // Leaving: the password given again is wrong (403, not 401: the session itself is fine).
  'wrong_password',
  'cannot_follow_self',
  'cannot_unfollow_self',
  'following_limit',
  'blocked',
  'cannot_block_self',
  'cannot_mute_self',
  // Posts, reactions, comments.
  'idempotency_in_progress',
  'idempotency_key_mismatch',
  'publish_conflict',
  'avatar_conflict',
  'cover_conflict',
  'rename_conflict',
  'post_deleted',
  'post_not_found',
  'comment_not_found',
  // A retry with the Idempotency-Key of a comment or an upload that is gone since (410, as post_deleted).
  'comment_deleted',
  'media_deleted',
  'repost_in_progress',
  // Editing a post (If-Match with its version; within EDIT_WINDOW_MS, at most MAX_EDITS).
  'version_required',
  'version_mismatch',
  'edit_window_closed',
  'edit_limit_reached',
  // Lists, notifications, topics.
  'invalid_cursor',
  // A live-channel position that is not one this user was handed (shared/use-cases/live.ts).
  'invalid_position',
  'invalid_notification_id',
  'invalid_topic',
  // Post search: a query with nothing to search for, longer than its bound, or of too many words.
  'query_empty',
  'query_too_long',
  'query_too_complex',
  // Groups (分组, 特别关注: shared/domain/groups.ts).
  'group_not_found',
  'group_name_invalid',
  'group_name_taken',
  'group_limit_reached',
  'group_full',
  'group_built_in',
  'not_following',
  'groups_busy',
  // Private messages (shared/use-cases/messages.ts).
  'conversation_not_found',
  'message_not_found',
  'cannot_message_self',
  'messages_refused',
  'message_request_pending',
  'recall_window_closed',
  'no_request',
  'conversation_busy',
  // Pictures (shared/use-cases/media).
  'media_type_refused',
  'media_too_large',
  'media_not_found',
  'upload_missing',
  'media_not_ready',
  'media_in_use',
  // The server's own failures (bodies never carry internals). `service_unavailable` and `timeout`
  // (the request ran out of time) are 503s whose outcome is unknown: a retry is safe.
  'internal_error',
  'service_unavailable',
  'timeout',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
