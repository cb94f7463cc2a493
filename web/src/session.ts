// web/src/session.ts — who is logged in, one session for every tab of the browser.
// Where things live (OWASP's guidance for browser clients):
//  * the refresh token: an HttpOnly cookie the API sets (shared/http/session-cookie.ts); no
//    script can read it, and it goes out only with the session calls (api/client.ts);
//  * the access token: in this tab's memory only, so a reload asks for a new one (restore());
//  * localStorage holds one non-secret hint, the logged-in handle: whether a reload should try
//    the cookie, and a synchronous way to notice that another tab changed the user.
// Tabs tell each other of a login, a renewal, a switch of user and a logout (BroadcastChannel):
// a tab adopts a renewed token, switches visibly to another user, or leaves, before its next
// request. A request never goes out under a user other than the one the page shows (shown()).
export interface Session {
  handle: string;
  token: string;
  expiresAt: string;
  /** When the cookie's refresh token expires: after it nothing renews the session. */
  refreshExpiresAt?: string;
}

export type EndReason = 'logout' | 'expired';
/** Why the listeners hear of a change: this tab did it, or another tab did (`remote`). */
export type Listener = (s: Session | null, change: { reason?: EndReason; remote: boolean }) => void;

type Message = { kind: 'session'; session: Session } | { kind: 'end'; reason: EndReason };

const HINT = 'weibo.user';
const listeners = new Set<Listener>();
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('weibo.session') : null;
let current: Session | null = null;
let showing: string | null = null;
let restoring: Promise<void> | null = null;
let expiryTimer: ReturnType<typeof setTimeout> | undefined;
/** False once storage refused a write: the hint then says nothing, and only the channel counts. */
let storageWorks = true;

// Older clients kept the whole session, refresh token included, here: never again.
try {
  localStorage.removeItem('weibo.session');
} catch {
  /* storage unavailable: nothing stored either */
}

function hint(): string | null {
  try {
    return localStorage.getItem(HINT);
  } catch {
    return null;
  }
}

function setHint(handle: string | null): void {
  try {
    if (handle === null) localStorage.removeItem(HINT);
    else localStorage.setItem(HINT, handle);
  } catch {
    storageWorks = false; // other tabs learn through the channel alone
  }
}

const endsAt = (s: Session) => Date.parse(s.refreshExpiresAt ?? s.expiresAt);

function armExpiry(s: Session): void {
  clearTimeout(expiryTimer);
  // Timers fire early beyond ~24.8 days (refresh tokens live 30): clamp, and check again then.
  expiryTimer = setTimeout(
    () => {
      if (current && endsAt(current) > Date.now()) armExpiry(current);
      else end('expired', { remote: false });
    },
    Math.min(Math.max(endsAt(s) - Date.now(), 0), 2 ** 31 - 1),
  );
}

/** `remote`: another tab did it. `elsewhere`: it happened outside this tab (said as such on the page). */
function adopt(s: Session, remote: boolean, elsewhere = remote): void {
  const before = current;
  current = s;
  armExpiry(s);
  if (!remote) setHint(s.handle);
  // A renewed token of the same user changes nothing the page shows.
  if (before?.handle !== s.handle) for (const l of listeners) l(s, { remote: elsewhere });
}

function end(reason: EndReason, { remote }: { remote: boolean }): void {
  // Nothing to end here: in particular never clear a hint another tab's login just wrote.
  if (!current) return;
  clearTimeout(expiryTimer);
  if (!remote) {
    setHint(null);
    channel?.postMessage({ kind: 'end', reason } satisfies Message);
  }
  current = null;
  for (const l of listeners) l(null, { reason, remote });
}

channel?.addEventListener('message', (e: MessageEvent<Message>) => {
  const m = e.data;
  if (m.kind === 'session') adopt(m.session, true);
  else end(m.reason, { remote: true });
});

export const session = {
  get(): Session | null {
    return current;
  },
  /**
   * A login or a renewal in this tab: every other tab adopts it too. `elsewhere`: a renewal that
   * answered for another user than this tab had (the cookie was changed by a tab whose message
   * never came): the page says so as it switches.
   */
  start(s: Session, { elsewhere = false } = {}): void {
    const shared: Session = {
      handle: s.handle,
      token: s.token,
      expiresAt: s.expiresAt,
      ...(s.refreshExpiresAt ? { refreshExpiresAt: s.refreshExpiresAt } : {}),
    };
    adopt(shared, false, elsewhere);
    channel?.postMessage({ kind: 'session', session: shared } satisfies Message);
  },
  logout: () => end('logout', { remote: false }),
  /** The API refused the session (401, and no refresh could renew it): it is over, in every tab. */
  expire: () => end('expired', { remote: false }),
  /** Whether a reload should ask the cookie for a session (someone was logged in here). */
  hinted: () => hint() !== null,
  /**
   * The user the hint names differs from this tab's: another tab changed it and its message has
   * not arrived (or cannot). Null when they agree.
   */
  changedElsewhere(): { to: string | null } | null {
    if (!storageWorks) return null;
    const h = hint();
    return (current?.handle ?? null) === h ? null : { to: h };
  },
  /** Logged out elsewhere, as far as this tab can tell without asking: leave now. */
  leave: () => end('logout', { remote: true }),
  /** A reload found no session behind the hint (the cookie expired or was revoked): forget it. */
  forget: () => current === null && setHint(null),
  /** The user the page shows now (the app says so after each render). */
  shown(handle: string | null): void {
    showing = handle;
  },
  /** Whether a request made now would go out as the user the page shows. */
  agrees: () => (current?.handle ?? null) === showing,
  /** Restoring the session of a reload: set while the first refresh is under way. */
  restoring: () => restoring,
  setRestoring(p: Promise<void>): void {
    restoring = p;
  },
  subscribe(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};
