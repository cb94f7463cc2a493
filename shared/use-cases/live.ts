// shared/use-cases/live.ts — the live channel: a WebSocket connection opened with an access token,
// the frames a client sends on it (ping, resume from a position, renew the session), the catch-up
// read of a reader's event log (also GET /users/{handle}/events), and the worker's side: an event
// logged for its readers and pushed to their connections.
//
// The push is a hint; the log is the truth (docs/consistency.md S, T). Every event a reader is
// told sits at a position of its log, positions are dense, and a client resumes from the last
// one it applied: it gets exactly the events after it, in order, each once — or, if the log no
// longer holds them, `reset` (reload the page's data). A pushed frame names its position: a
// client that finds it is not the next one resumes instead of applying it.
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import {
  EVENT_LOG_READ_MAX,
  EVENT_LOG_TTL_SECONDS,
  FRAME_MAX_BYTES,
  WATCH_REFRESH_MS,
  eventKey,
  type LiveEvent,
} from '../domain/live.js';
import { AuthenticationError, InvalidInputError } from '../domain/errors.js';
import type { RelationStore } from '../ports/feed-store.js';
import type { ConnectionPush, ConnectionRecord, LiveStore, PositionSeal, SessionTokens } from '../ports/live-store.js';
import { mapLimit } from '../runtime/concurrency.js';

export interface LiveDeps {
  live: LiveStore;
  push: ConnectionPush;
  positions: PositionSeal;
  tokens: SessionTokens;
  relations: Pick<RelationStore, 'following' | 'followSinces'>;
}

/** What the worker tells readers with: the log, the push, the seal, and who follows whom. */
export type Announcer = Pick<LiveDeps, 'live' | 'push' | 'positions' | 'relations'>;

/** The pause before a failed push is sent again (once). */
const PUSH_RETRY_MS = 200;
/** Pushes in flight at once, per announcement. */
const PUSH_CONCURRENCY = 32;
/** The most followees told of a reader at one connect (the product's follow limit is below it). */
const WATCH_MAX = 5000;
const FOLLOWING_PAGE = 1000;
/** Clocks of different machines disagree a little: a position is taken as too old this much early. */
const CLOCK_MARGIN_MS = 5 * 60_000;

// ------------------------------------------------------------------------------------- frames

/** What a client may send. */
export const ClientFrame = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('ping') }),
  z.strictObject({ action: z.literal('resume'), after: z.string().max(64).optional() }),
  z.strictObject({ action: z.literal('renew'), token: z.string().max(4096) }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

/** Why a frame was refused. Nothing is changed by a refused frame. */
export type FrameErrorCode =
  | 'frame_too_large'
  | 'malformed_frame'
  | 'unknown_action'
  | 'invalid_position'
  | 'not_connected'
  | 'invalid_token'
  | 'token_expired'
  | 'wrong_user';

/** An event as a client receives it: its position sealed for that client. */
export type EventFrame = LiveEvent & { position: string };

/** What the server sends. */
export type ServerFrame =
  | { type: 'pong'; expiresAt: number }
  | { type: 'events'; events: EventFrame[]; position: string; reset: boolean; expiresAt: number }
  | { type: 'event'; event: EventFrame }
  | { type: 'renewed'; expiresAt: number }
  | { type: 'expired' }
  | { type: 'error'; code: FrameErrorCode; message: string };

const frameError = (code: FrameErrorCode, message: string): ServerFrame => ({ type: 'error', code, message });

// --------------------------------------------------------------------------- the connection

/**
 * $connect: the token's user opens connection `id`, which lives no longer than the token. At most
 * hourly, the reader's followees are told of it (their watchers rows), so their posts reach it
 * whichever way they travel. Throws AuthenticationError for a bad or expired token.
 */
export async function openConnection(
  deps: Pick<LiveDeps, 'live' | 'tokens' | 'relations'>,
  id: string,
  token: string,
  now: number,
): Promise<ConnectionRecord> {
  const { handle, expiresAt } = await deps.tokens.verify(token);
  const connection = { id, handle, expiresAt };
  const [, watchedAt] = await Promise.all([deps.live.open(connection, now), deps.live.watchedAt(handle)]);
  if (now - watchedAt >= WATCH_REFRESH_MS) await watchFollowees(deps, handle, now);
  return connection;
}

/** Tells every author `reader` follows that it watches them (one walk of the following list). */
async function watchFollowees(deps: Pick<LiveDeps, 'live' | 'relations'>, reader: string, now: number) {
  const authors: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.relations.following(reader, FOLLOWING_PAGE, cursor);
    authors.push(...page.items.map((e) => e.handle));
    cursor = page.nextCursor;
  } while (cursor && authors.length < WATCH_MAX);
  await deps.live.watch(reader, authors, now);
}

/** $disconnect (not guaranteed: the records expire on their own). */
export async function closeConnection(deps: Pick<LiveDeps, 'live'>, id: string): Promise<void> {
  const connection = await deps.live.connection(id);
  if (connection) await deps.live.close(connection);
}

/** A frame from connection `id`: the reply, or null where none is due. Never changes anything for a refused frame. */
export async function receiveFrame(
  deps: Pick<LiveDeps, 'live' | 'tokens' | 'positions' | 'push'>,
  id: string,
  body: string,
  now: number,
): Promise<ServerFrame> {
  if (Buffer.byteLength(body, 'utf8') > FRAME_MAX_BYTES) {
    return frameError('frame_too_large', `A frame holds at most ${FRAME_MAX_BYTES} bytes`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return frameError('malformed_frame', 'A frame is a JSON object with an action');
  }
  const parsed = ClientFrame.safeParse(raw);
  if (!parsed.success) {
    const action = (raw as { action?: unknown } | null)?.action;
    return typeof action === 'string' && !['ping', 'resume', 'renew'].includes(action)
      ? frameError('unknown_action', 'Known actions: ping, resume, renew')
      : frameError('malformed_frame', 'The frame does not fit its action');
  }
  const frame = parsed.data;
  const connection = await deps.live.connection(id);
  if (!connection) return frameError('not_connected', 'This connection is not open');
  if (frame.action === 'renew') return renew(deps, connection, frame.token);
  if (connection.expiresAt <= now) {
    // The session this connection was opened under is over: it ends here.
    await Promise.all([deps.live.close(connection), deps.push.disconnect(id)]);
    return { type: 'expired' };
  }
  if (frame.action === 'ping') return { type: 'pong', expiresAt: connection.expiresAt };
  try {
    const read = await readEvents(deps, connection.handle, frame.after, now);
    // With when the session ends: the client renews before then.
    return { type: 'events', ...read, expiresAt: connection.expiresAt };
  } catch (err) {
    if (err instanceof InvalidInputError) return frameError('invalid_position', err.message);
    throw err;
  }
}

async function renew(
  deps: Pick<LiveDeps, 'live' | 'tokens'>,
  connection: ConnectionRecord,
  token: string,
): Promise<ServerFrame> {
  let verified: { handle: string; expiresAt: number };
  try {
    verified = await deps.tokens.verify(token);
  } catch (err) {
    if (err instanceof AuthenticationError) {
      return frameError(err.code === 'token_expired' ? 'token_expired' : 'invalid_token', 'The token was not accepted');
    }
    throw err;
  }
  if (verified.handle !== connection.handle) return frameError('wrong_user', 'The token is another user’s');
  await deps.live.renew({ ...connection, expiresAt: verified.expiresAt });
  return { type: 'renewed', expiresAt: verified.expiresAt };
}

// ------------------------------------------------------------------------------ the catch-up

export interface EventsAfter {
  /** The events after the position, in order, each once. */
  events: EventFrame[];
  /** Where the client stands after applying them (or after reloading, on a reset). */
  position: string;
  /** The log no longer holds what came after the position: reload the page's data, then go on from `position`. */
  reset: boolean;
}

/**
 * The reader's events after `after` (a position the reader was handed). No position: none, and
 * where the log stands now (a fresh page loads its data, then follows from there). Throws
 * InvalidInputError for a position that is not this reader's.
 */
export async function readEvents(
  deps: Pick<LiveDeps, 'live' | 'positions'>,
  reader: string,
  after: string | undefined,
  now: number,
): Promise<EventsAfter> {
  const refused = () => new InvalidInputError('Not a position of this user’s events', 'invalid_position');
  // Where the text says to read from (unverified: it names a place in the reader's own log only);
  // the seal is checked with the reader's key, which comes with the same read.
  const claimed = after === undefined ? Number.MAX_SAFE_INTEGER : deps.positions.claimed(after);
  if (claimed === null) throw refused();
  const read = await deps.live.read(reader, claimed, EVENT_LOG_READ_MAX + 1);
  if (read.sealKey === undefined) throw refused();
  const key = read.sealKey;
  const seal = (position: number) => deps.positions.seal(key, position, read.presentAt);
  if (after === undefined) return { events: [], position: seal(read.head), reset: false };
  const from = deps.positions.open(key, after);
  if (!from || from.position > read.head) throw refused();
  // A position is answered from the log while the presence mark it was handed out under lives:
  // until then every event since was logged (tables.ts live, s:p).
  const stale = now - from.at > EVENT_LOG_TTL_SECONDS * 1000 - CLOCK_MARGIN_MS;
  if (stale || read.gap || read.events.length > EVENT_LOG_READ_MAX) {
    return { events: [], position: seal(read.head), reset: true };
  }
  const events = read.events.map((e) => ({ ...e.event, position: seal(e.position) }));
  const last = read.events.at(-1)?.position ?? from.position;
  return { events, position: seal(last), reset: false };
}

// ---------------------------------------------------------------------------- the worker's side

export interface Announced {
  /** Readers the event was logged for by this call. */
  logged: number;
  /** Frames pushed. */
  pushed: number;
  /** Connections found gone (410) or past their session, and forgotten. */
  gone: number;
}

const NOTHING: Announced = { logged: 0, pushed: 0, gone: 0 };

/**
 * Logs `event` for `readers` (those present within the log's lifetime, once each however often
 * this runs) and pushes it to their open connections — again on a repeat (a delivery cut between
 * its log writes and its pushes is retried: clients ignore a position they hold). A connection
 * that is gone, or whose session is over, is forgotten (and ended). A push that fails otherwise
 * is only a lost hint: the log has it.
 */
export async function announce(
  deps: Pick<LiveDeps, 'live' | 'push' | 'positions'>,
  readers: readonly string[],
  event: LiveEvent,
  now: number,
  key: string = eventKey(event),
): Promise<Announced> {
  if (readers.length === 0) return NOTHING;
  const appended = await deps.live.append(readers, key, event, now);
  const sends = appended.flatMap((a) => a.connections.map((c) => ({ a, c })));
  let pushed = 0;
  let gone = 0;
  await mapLimit(sends, PUSH_CONCURRENCY, async ({ a, c }) => {
    if (c.expiresAt <= now) {
      gone++;
      await Promise.all([deps.live.close(c), deps.push.disconnect(c.id).catch(() => {})]);
      return;
    }
    const frame: ServerFrame = {
      type: 'event',
      event: { ...event, position: deps.positions.seal(a.sealKey, a.position, a.presentAt) },
    };
    // A send that fails outright (the management API busy, a connection reset) is tried once
    // more: the push is what the open page waits on, and the log alone reaches it only at its next resume.
    const send = () => deps.push.send(c.id, frame);
    const result = await send()
      .catch(() => sleep(PUSH_RETRY_MS).then(send))
      .catch(() => 'failed' as const);
    if (result === 'sent') pushed++;
    if (result === 'gone') {
      gone++;
      await deps.live.close(c);
    }
  });
  return { logged: appended.filter((a) => a.fresh).length, pushed, gone };
}

/** The readers watching `author`, to be told of its posts (one read; empty for most authors). */
export function watchersOf(deps: Pick<LiveDeps, 'live'>, author: string): Promise<Set<string>> {
  return deps.live.watchers(author).then((w) => new Set(w));
}

/**
 * An event about one of `author`'s posts for the readers that watch the author and follow it
 * now, without a walk of the followers: a celebrity's post (merged at read time, never fanned
 * out), an edit. One read of the watchers, one multi-get of their edges.
 */
export async function announceToFollowers(
  deps: Announcer,
  author: string,
  event: LiveEvent,
  now: number,
  key?: string,
): Promise<Announced> {
  const watchers = await deps.live.watchers(author);
  if (watchers.length === 0) return NOTHING;
  const sinces = await deps.relations.followSinces(watchers.map((follower) => ({ follower, followee: author })));
  return announce(
    deps,
    watchers.filter((_, i) => sinces[i] !== null),
    event,
    now,
    key,
  );
}
