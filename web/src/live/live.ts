// web/src/live/live.ts — the live channel (docs/api.md, "Live"): one WebSocket per tab, opened
// after login at /api/live on the page's own origin (CloudFront routes it to the WebSocket API;
// web/serve.ts locally). The access token rides in the sub-protocols, as a browser's WebSocket
// cannot set headers. Pages subscribe to what it hears: a post in the home timeline, a
// notification, a post deleted or edited, a picture processed, a private conversation moved.
//
// Nothing is missed across a drop: every event sits at a position of the reader's log, and the
// client keeps the whole position of the last event it applied. After every open it sends
// `resume` from there (the first time with none: where the log stands now) and applies what
// comes back, in order, once each. A pushed event is applied directly only when it is the next
// one (its sequence number one past the last applied); anything else asks `resume` again. When
// the log no longer holds what was missed (`reset`, or the position was refused), the pages
// reload their data instead.
//
// Kept alive by an app-level ping (API Gateway closes a socket idle for 10 minutes and never
// pings itself), renewed before the session it was opened under ends, and reconnected after a
// drop with exponential backoff and full jitter.
import { freshSession, whenQuiet } from '../api/client';
import type { Session } from '../session';

/** What a pushed or resumed event says (shared/domain/live.ts), with its position. */
export type LiveEvent = (
  | { kind: 'post'; postId: string; author: string }
  | { kind: 'deleted'; postId: string; author: string }
  | { kind: 'edited'; postId: string; author: string }
  | { kind: 'notification'; type: string; id: string }
  | { kind: 'media'; mediaId: string; state: 'ready' | 'failed' }
  /** A 私信 conversation with `peer` moved: a message, a recall, the peer read up to `seq`, an accept. */
  | { kind: 'conversation'; peer: string; seq: number; change: 'message' | 'recalled' | 'read' | 'accepted' }
) & { position: string };

type ServerFrame =
  | { type: 'pong'; expiresAt: number }
  | { type: 'events'; events: LiveEvent[]; position: string; reset: boolean }
  | { type: 'event'; event: LiveEvent }
  | { type: 'renewed'; expiresAt: number }
  | { type: 'expired' }
  | { type: 'error'; code: string; message: string }
  /** API Gateway's answer when a route's function failed (no `type`). */
  | { type?: undefined; message: string };

/** `open`: connected and caught up; `offline`: dropped, a reconnect is on its way. */
export type LiveStatus = 'off' | 'connecting' | 'open' | 'offline';

const PROTOCOL = 'weibo-live.v1';
const TOKEN_PREFIX = 'bearer.';
/** API Gateway closes a connection idle for 10 minutes: a ping every 5 (shared/domain/live.ts). */
const PING_MS = 5 * 60_000;
/** The connection is renewed this long before the session it was opened under ends. */
const RENEW_AHEAD_MS = 60_000;
/**
 * Renewals at most this often: the end the server names is by its clock, and a browser's clock
 * running minutes ahead would otherwise take every fresh token for one about to end, and renew
 * in a loop. (One running behind renews late: the server answers `expired`, and it reconnects.)
 */
const RENEW_MIN_GAP_MS = 5 * 60_000;
/** Reconnects wait a random time up to BASE · 2^attempt, capped (full jitter). */
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
/**
 * A resume left unanswered this long ends the socket, and the reconnect resumes. A failed route
 * is answered by API Gateway's own frame (`{"message":"Internal server error"}`): sent again soon.
 */
const RESUME_TIMEOUT_MS = 15_000;
const RESUME_AGAIN_MS = 1_000;

const eventListeners = new Set<(e: LiveEvent) => void>();
const reloadListeners = new Set<() => void>();
const statusListeners = new Set<(s: LiveStatus) => void>();

let status: LiveStatus = 'off';
/** Whose channel this is (null: stopped). */
let owner: string | null = null;
let socket: WebSocket | null = null;
/** The whole position of the last event applied (null: none yet, the first resume gives it). */
let position: string | null = null;
/** A resume is on its way; `again`: a push came meanwhile that it may not cover. */
let resuming = false;
let again = false;
let attempt = 0;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
let pingTimer: ReturnType<typeof setInterval> | undefined;
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let resumeTimer: ReturnType<typeof setTimeout> | undefined;
/** A ping is unanswered. */
let pongDue = false;

function setStatus(s: LiveStatus): void {
  if (s === status) return;
  status = s;
  for (const l of statusListeners) l(s);
}

/** The decimal sequence number a position starts with (`<n>.<t>.<mac>`), NaN if it has none. */
const sequence = (p: string): number => Number(p.split('.')[0]);

function send(frame: object): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

function resume(): void {
  if (resuming) {
    again = true;
    return;
  }
  resuming = true;
  again = false;
  send(position ? { action: 'resume', after: position } : { action: 'resume' });
  clearTimeout(resumeTimer);
  // No answer at all: the socket is likely dead (a laptop woke, a network changed): a new one.
  resumeTimer = setTimeout(drop, RESUME_TIMEOUT_MS);
}

/** The resume on its way failed: sent again (the same position, so nothing is applied twice). */
function resumeAgain(after: number): void {
  clearTimeout(resumeTimer);
  resumeTimer = setTimeout(() => {
    resuming = false;
    resume();
  }, after);
}

function apply(e: LiveEvent): void {
  position = e.position;
  for (const l of eventListeners) l(e);
}

function reloadPages(): void {
  for (const l of reloadListeners) l();
}

/** The connection's end the renewal is set for, and when the last renewal started. */
let renewFor = 0;
let renewedAt = 0;

function scheduleRenew(expiresAt: number): void {
  if (expiresAt === renewFor) return; // a pong naming the same end: the renewal stays set
  renewFor = expiresAt;
  clearTimeout(renewTimer);
  const due = expiresAt - RENEW_AHEAD_MS - Date.now();
  renewTimer = setTimeout(() => void renew(), Math.max(0, due, renewedAt + RENEW_MIN_GAP_MS - Date.now()));
}

/**
 * Renews the connection's session with a fresh access token: due RENEW_AHEAD_MS before the end,
 * and the token asked to have twice that left, so the one about to end is always replaced.
 */
async function renew(): Promise<void> {
  const ws = socket;
  renewedAt = Date.now();
  try {
    const s = await freshSession(2 * RENEW_AHEAD_MS);
    if (s && ws === socket && s.handle === owner) send({ action: 'renew', token: s.token });
  } catch {
    /* unreachable: the connection is dropped by then, and the reconnect brings a fresh token */
  }
}

function onFrame(frame: ServerFrame): void {
  switch (frame.type) {
    case undefined:
      // API Gateway's own answer to a route that failed: if it was the resume's, ask again.
      if (resuming) resumeAgain(RESUME_AGAIN_MS);
      return;
    case 'events':
      clearTimeout(resumeTimer);
      resuming = false;
      if (frame.reset) reloadPages();
      for (const e of frame.events) apply(e);
      position = frame.position;
      attempt = 0; // caught up: the next drop starts its backoff afresh
      setStatus('open');
      if (again) resume();
      return;
    case 'event': {
      const next = position !== null && sequence(frame.event.position) === sequence(position) + 1;
      if (next && !resuming) apply(frame.event);
      else if (position === null) {
        // Pushed before the first resume answered: the page's data may predate it. Told now;
        // the position comes with the answer.
        for (const l of eventListeners) l(frame.event);
      } else resume();
      return;
    }
    case 'pong':
      pongDue = false;
      scheduleRenew(frame.expiresAt);
      return;
    case 'renewed':
      scheduleRenew(frame.expiresAt);
      return;
    case 'expired':
      // The session it was opened under is over: the server closes it, and the reconnect opens
      // one with a fresh token.
      return;
    case 'error':
      if (frame.code === 'invalid_position') {
        // Not a position this log can answer from: as a reset, from where the log stands now.
        clearTimeout(resumeTimer);
        resuming = false;
        position = null;
        reloadPages();
        resume();
      } else if (frame.code === 'token_expired' || frame.code === 'invalid_token' || frame.code === 'wrong_user') {
        drop();
      }
      return;
  }
}

async function connect(): Promise<void> {
  const me = owner;
  if (!me) return;
  setStatus(status === 'offline' ? 'offline' : 'connecting');
  let s: Session | null;
  try {
    // After the page's own requests: the channel never delays a page's first content.
    await whenQuiet();
    s = await freshSession(RENEW_AHEAD_MS);
  } catch {
    return retry(); // the API is unreachable: no token to be had now
  }
  if (!s || s.handle !== me || owner !== me || socket) return; // the session ended or changed meanwhile
  const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/live`;
  const ws = new WebSocket(url, [PROTOCOL, TOKEN_PREFIX + s.token]);
  socket = ws;
  resuming = false;
  again = false;
  // The connection lives no longer than the token it was opened with: renewed before that.
  renewFor = 0;
  scheduleRenew(Date.parse(s.expiresAt));
  ws.onopen = () => {
    resume();
    pongDue = false;
    pingTimer = setInterval(() => {
      // The last ping was never answered: the socket is dead without having said so.
      if (pongDue) return drop();
      pongDue = true;
      send({ action: 'ping' });
    }, PING_MS);
  };
  ws.onmessage = (m) => {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(String(m.data)) as ServerFrame;
    } catch {
      return;
    }
    onFrame(frame);
  };
  ws.onclose = () => socket === ws && drop();
}

/** The socket is gone (or taken for dead): forgotten, and a reconnect scheduled. */
function drop(): void {
  const ws = socket;
  socket = null;
  clearInterval(pingTimer);
  clearTimeout(renewTimer);
  clearTimeout(resumeTimer);
  ws?.close();
  retry();
}

function retry(): void {
  if (!owner) return;
  setStatus('offline');
  clearTimeout(reconnectTimer);
  const wait = Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  attempt++;
  reconnectTimer = setTimeout(() => void connect(), wait);
}

/** Back online (the browser says so) or back in front: try now rather than at the backoff's end. */
function soon(): void {
  if (owner && status === 'offline' && !socket && !document.hidden) {
    clearTimeout(reconnectTimer);
    attempt = 0;
    void connect();
  }
}
addEventListener('online', soon);
document.addEventListener('visibilitychange', soon);

export const live = {
  /** Opens the channel for `handle` (after login); a no-op when it is open for them already. */
  start(handle: string): void {
    if (owner === handle) return;
    live.stop();
    owner = handle;
    position = null;
    attempt = 0;
    void connect();
  },
  /** Closes it (logout, or another user): nothing reconnects. */
  stop(): void {
    owner = null;
    clearTimeout(reconnectTimer);
    clearInterval(pingTimer);
    clearTimeout(renewTimer);
    clearTimeout(resumeTimer);
    const ws = socket;
    socket = null;
    ws?.close();
    position = null;
    setStatus('off');
  },
  status: (): LiveStatus => status,
  /** Every event applied, in the log's order. */
  onEvent(l: (e: LiveEvent) => void): () => void {
    eventListeners.add(l);
    return () => eventListeners.delete(l);
  },
  /** Events were missed beyond what the log holds: reload the page's data. */
  onReload(l: () => void): () => void {
    reloadListeners.add(l);
    return () => reloadListeners.delete(l);
  },
  onStatus(l: (s: LiveStatus) => void): () => void {
    statusListeners.add(l);
    return () => statusListeners.delete(l);
  },
};
