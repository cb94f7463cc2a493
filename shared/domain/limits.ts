// shared/domain/limits.ts — the product's limits and time spans in one place: what a text, a
// picture or a page may hold, and how long things are kept. The schema's TTLs, the validation's
// bounds, the use cases' caps and the web client's copies (checked against the OpenAPI document)
// all read them from here.

// What a text may hold.
/** The documented limit on a post body, in Unicode code points. */
export const POST_MAX_CODE_POINTS = 500;
/** The documented limit on a comment body, in Unicode code points (as for posts). */
export const COMMENT_MAX_CODE_POINTS = 500;

// Accounts and sessions.
export const PASSWORD_MIN = 8;
/** A profile's 简介 (bio), in Unicode code points (Weibo's own figure is far below it). */
export const BIO_MAX_CODE_POINTS = 160;
/** A profile's location, free text, in code points. */
export const LOCATION_MAX_CODE_POINTS = 30;
export const PASSWORD_MAX = 128;
/** A session's id: this many random bytes. */
export const SESSION_ID_BYTES = 16;
/** The longest a refresh token lives (HBase TTL of the sessions table; REFRESH_TOKEN_TTL_SECONDS ≤ it). */
export const SESSION_TTL_SECONDS = 30 * 86_400;
/** How long an erased account's handle stays reserved before anyone may register it again. */
export const RESERVATION_MS = 30 * 86_400_000;

// Pictures.
/** Weibo's limit on one file. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Decoded pixels (all frames of an animation): what bounds the worker's memory, not the file size. */
export const MAX_PIXELS = 40_000_000;
/** Weibo's 九宫格: a 3×3 grid. */
export const MAX_MEDIA_PER_POST = 9;
/** Alt text, in code points (Mastodon's figure). */
export const MAX_ALT_LENGTH = 1500;
/**
 * How long an upload may stay unclaimed, and a claim may wait for its post, before it counts as
 * abandoned. Far above anything in flight: a publish runs from its claims to its post row within
 * one API invocation (10 s), a process message reaches the media DLQ within maxReceiveCount ×
 * the visibility timeout (minutes), a presigned upload expires in minutes.
 */
export const UNCLAIMED_FOR_MS = 24 * 3600_000;

// What a reader is shown, and for how long.
/** The most suggestions an answer holds (`limit` 1..SUGGESTIONS_MAX). */
export const SUGGESTIONS_MAX = 10;
export const SUGGESTIONS_DEFAULT = 5;
/** The count stops here; `more` says there may be more. A badge says "20+". */
export const NEWER_COUNT_MAX = 20;
/** The unread badge counts up to this many groups ("99+"). */
export const UNREAD_CAP = 99;
/** Likes, reposts and follows within one window of this length form one group. */
export const GROUP_WINDOW_MS = 12 * 3600_000;
/** How long a notification entry stays listed (HBase TTL on the entry family). */
export const NOTIFICATION_TTL_SECONDS = 90 * 86_400;
/** How far back a topic page reaches (HBase TTL on the topic index). */
export const TOPIC_TTL_SECONDS = 30 * 86_400;
/** Posts are counted in buckets of this length, by creation time… */
export const TREND_BUCKET_MS = 5 * 60_000;
/** …summed over this window… */
export const TRENDING_WINDOW_MS = 3600_000;
/** …and the top this many topics shown. */
export const TRENDING_TOPICS = 10;

// How often one may write, and how long a counted fact is remembered.
/** What the per-user write limits count: reactions, and picture uploads (media). */
/** message: a private message sent; conversation: a private conversation begun (its first message). */
export type WriteAction = 'comment' | 'like' | 'repost' | 'upload' | 'message' | 'conversation';
export const WRITE_QUOTA_WINDOW_MS = 60_000;
/**
 * How long a tally mark lives (HBase TTL on the `t` family): far beyond the settle window and
 * the fan-out queue's redeliveries, so a delayed message always finds the marks of its fact. A
 * fact older than TALLY_HORIZON_SECONDS is never judged by its marks (tally.ts).
 */
export const TALLY_TTL_SECONDS = 2 * 86_400;
export const TALLY_HORIZON_SECONDS = TALLY_TTL_SECONDS / 2;

/** The feed's limits a stage sets (config/config.ts reads them from the environment). */
export interface FeedLimits {
  fanoutChunkSize: number;
  fanoutChunksPerMessage: number;
  backfillLimit: number;
  inboxCap: number;
  maxFollowing: number;
  celebrityFollowers: number;
  inactiveAfterMs: number;
  /** Delay of the settle message every follow/unfollow sends (see SETTLE_SECONDS). */
  settleSeconds: number;
  /** Writes per user per one-minute window. */
  writesPerMinute: Record<Exclude<WriteAction, 'upload' | 'message' | 'conversation'>, number>;
}
