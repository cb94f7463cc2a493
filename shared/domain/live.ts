// shared/domain/live.ts — what a connected client is told, and the limits of the live channel.
// An event is a hint of what changed (a new post in the home timeline, a notification, a post
// deleted or edited); the client reads the page data itself. Every event a user is told has a
// position in that user's event log: dense (1, 2, 3, … with no gaps), so a client that holds
// position P knows exactly what it has seen (docs/consistency.md, invariant S).

/** What happened, as the client needs to know it. */
export type LiveEvent =
  /** A post entered the reader's home timeline (fan-out, or a celebrity's post merged at read time). */
  | { kind: 'post'; postId: string; author: string }
  /** A post the reader's timeline may show was deleted, or its text edited. */
  | { kind: 'deleted'; postId: string; author: string }
  | { kind: 'edited'; postId: string; author: string }
  /** The reader's picture finished processing (the uploader only). */
  | { kind: 'media'; mediaId: string; state: 'ready' | 'failed' }
  /** The reader has a new notification (the client reads its unread count); `id` names that one. */
  | { kind: 'notification'; type: string; id: string }
  /** A conversation with `peer` changed: a message (or request) at `seq`, a recall of `seq`, the peer read up to `seq`, a request accepted. */
  | { kind: 'conversation'; peer: string; seq: number; change: 'message' | 'recalled' | 'read' | 'accepted' };

/** An event as the log keeps it: its position and when it was written (millis). */
export interface LoggedEvent {
  position: number;
  at: number;
  event: LiveEvent;
}

/**
 * The identity of an event, the same on every delivery of the message that causes it (SQS
 * delivers at least once): a log holds each key once.
 */
export function eventKey(event: LiveEvent): string {
  switch (event.kind) {
    case 'notification':
      return `n.${event.id}`;
    case 'media':
      return `media.${event.mediaId}`;
    case 'conversation':
      return `conv.${event.peer}.${event.change}.${event.seq}`;
    default:
      return `${event.kind}.${event.postId}`;
  }
}

/** How long an event stays in the log (HBase TTL). */
export const EVENT_LOG_TTL_SECONDS = 24 * 3600;
/** The most events one read returns; a client further behind reloads its page data. */
export const EVENT_LOG_READ_MAX = 200;
/**
 * API Gateway ends every WebSocket connection after 2 hours; its record lives an hour past that,
 * since $disconnect is not guaranteed.
 */
export const CONNECTION_MAX_SECONDS = 2 * 3600;
export const CONNECTION_TTL_SECONDS = CONNECTION_MAX_SECONDS + 3600;
/**
 * A position a client holds is answered from the log for this long after it was handed out; an
 * older one is told to reload. Events reach a log only while its reader has been connected in the
 * last EVENT_LOG_TTL (the presence mark, written at every connect); a connection lives at most
 * CONNECTION_MAX, so a position handed out less than EVENT_LOG_TTL − CONNECTION_TTL ago was
 * handed out while the presence mark still had that long to live.
 */
export const POSITION_VALID_MS = (EVENT_LOG_TTL_SECONDS - CONNECTION_TTL_SECONDS) * 1000;
/** A reader's followees are told of its presence at most this often (the watcher marks' refresh). */
export const WATCH_REFRESH_MS = 3600_000;
/** The largest frame a client may send (bytes of UTF-8). */
export const FRAME_MAX_BYTES = 4096;
/** The sub-protocol a client asks for; the token rides beside it (docs/api.md, "Live"). */
export const LIVE_PROTOCOL = 'weibo-live.v1';
/** The prefix of the second sub-protocol entry, which carries the access token. */
export const TOKEN_PROTOCOL_PREFIX = 'bearer.';
/** A client pings this often; API Gateway closes a connection idle for 10 minutes. */
export const PING_INTERVAL_MS = 5 * 60_000;
