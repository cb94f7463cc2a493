// shared/ports/live-store.ts — what the live channel needs: connections, each reader's event log,
// the watchers of an author, and the push to a connection. Implemented on HBase
// (shared/adapters/hbase/hbase-live-store.ts) and API Gateway's management API
// (shared/adapters/aws/connection-push.ts); layout and requests: shared/schema/tables.ts (live).
import type { LiveEvent, LoggedEvent } from '../domain/live.js';

/** A connection as it was opened: whose, and until when its session allows it. */
export interface ConnectionRecord {
  id: string;
  handle: string;
  expiresAt: number;
}

/** What a read of a reader's log found after a position. */
export interface LogRead {
  /** The events after the position, in order, each once: at most `limit`. */
  events: LoggedEvent[];
  /** The log's last position. */
  head: number;
  /** Events after the position are no longer kept (expired): the reader must reload. */
  gap: boolean;
  /** The reader's presence mark (millis of its last connect; 0 = none): the log holds every event since, for EVENT_LOG_TTL. */
  presentAt: number;
  /** The reader's own secret its positions are sealed with (absent: never connected). */
  sealKey?: string;
}

/** One reader's part of an append: where the event landed, and the connections to tell. */
export interface Appended {
  reader: string;
  position: number;
  /** The reader's presence mark when it was logged (as LogRead.presentAt). */
  presentAt: number;
  /** As LogRead.sealKey (always there: a reader without one is not logged for). */
  sealKey: string;
  connections: ConnectionRecord[];
  /** Logged by this call; false: an earlier delivery had logged it (at `position`). */
  fresh: boolean;
}

export interface LiveStore {
  /** Records a new connection and the reader's presence (and its seal key, made once). One round trip. */
  open(connection: ConnectionRecord, at: number): Promise<void>;
  /** Who holds the connection, or null (closed, expired, never opened). One read. */
  connection(id: string): Promise<ConnectionRecord | null>;
  /** A renewed session: the connection's new expiry. One write. */
  renew(connection: ConnectionRecord): Promise<void>;
  /** Forgets a connection (closed, or a push found it gone). One write. */
  close(connection: { id: string; handle: string }): Promise<void>;
  /** When the reader's followees were last told of it (millis; 0 = never or expired). One read. */
  watchedAt(reader: string): Promise<number>;
  /** Tells each author that `reader` watches it; with `at`, notes that all its followees were told then. One write. */
  watch(reader: string, authors: readonly string[], at?: number): Promise<void>;
  /** The readers watching `author` (connected in the last day and following it when they did). One read. */
  watchers(author: string): Promise<string[]>;
  /**
   * Logs `event` (known by `key`) for every reader present within the log's lifetime, once per
   * reader however often this is called: one read of all the rows, then one conditional write
   * per reader not holding it yet (another for each race lost). Returns every present reader
   * with the event's position, `fresh` where this call logged it: a repeat of a delivery cut
   * before its pushes pushes again.
   */
  append(readers: readonly string[], key: string, event: LiveEvent, at: number): Promise<Appended[]>;
  /** The reader's events after `after`, at most `limit`. One read. */
  read(reader: string, after: number, limit: number): Promise<LogRead>;
}

/** What became of a push. */
export type PushResult = 'sent' | 'gone';

export interface ConnectionPush {
  /** Sends a frame; 'gone' when the connection no longer exists (API Gateway's 410). */
  send(connectionId: string, frame: unknown): Promise<PushResult>;
  /** Ends a connection (its session is over). */
  disconnect(connectionId: string): Promise<void>;
}

/** Access tokens as the live channel checks them: whose, and until when. */
export interface SessionTokens {
  /** Throws AuthenticationError for a bad or expired token. */
  verify(token: string): Promise<{ handle: string; expiresAt: number }>;
}

/**
 * Positions as handed to a client, sealed with the reader's own secret (LogRead.sealKey) and the
 * presence mark they were read under: no other reader's position, and no forged one, passes.
 */
export interface PositionSeal {
  seal(key: string, position: number, at: number): string;
  /** The position a text claims (unverified: it only says where to read), or null if malformed. */
  claimed(sealed: string): number | null;
  /** The position and its presence mark, or null if `key` did not seal this text. */
  open(key: string, sealed: string): { position: number; at: number } | null;
}
