// web/src/session.ts — who is logged in: the access token, its refresh token and their expiry
// times, kept in localStorage so a reload stays logged in (and every tab shares one session).
// The short-lived access token is renewed with the refresh token when the API says it expired
// (api/client.ts); the session itself ends on logout, when the refresh token expires, or when
// the API refuses the session.
export interface Session {
  handle: string;
  token: string;
  expiresAt: string;
  /** Absent in sessions stored before refresh tokens: they end with their access token. */
  refreshToken?: string;
  refreshExpiresAt?: string;
}

export type EndReason = 'logout' | 'expired';

const KEY = 'weibo.session';
type Listener = (s: Session | null, reason?: EndReason) => void;
const listeners = new Set<Listener>();
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function read(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Session | null;
    return s && typeof s.token === 'string' && typeof s.handle === 'string' ? s : null;
  } catch {
    return null;
  }
}

/** When the session is over for good: nothing can renew it after this. */
const endsAt = (s: Session) => Date.parse(s.refreshToken ? (s.refreshExpiresAt ?? s.expiresAt) : s.expiresAt);

function end(reason: EndReason): void {
  if (!read()) return;
  localStorage.removeItem(KEY);
  clearTimeout(expiryTimer);
  listeners.forEach((l) => l(null, reason));
}

function armExpiry(s: Session): void {
  clearTimeout(expiryTimer);
  const ms = endsAt(s) - Date.now();
  // Timers fire early beyond ~24.8 days (refresh tokens live 30): clamp, and check again then.
  expiryTimer = setTimeout(() => {
    const stored = read(); // another tab may have renewed it meanwhile
    if (stored && endsAt(stored) > Date.now()) armExpiry(stored);
    else end('expired');
  }, Math.min(Math.max(ms, 0), 2 ** 31 - 1));
}

export const session = {
  get(): Session | null {
    const s = read();
    if (s && endsAt(s) <= Date.now()) {
      end('expired');
      return null;
    }
    return s;
  },
  /** A login, or a refresh that renewed the tokens of the same session. */
  start(s: Session): void {
    localStorage.setItem(KEY, JSON.stringify(s));
    armExpiry(s);
    listeners.forEach((l) => l(s));
  },
  logout: () => end('logout'),
  /** The API refused the session (401, and no refresh could renew it): it is over. */
  expire: () => end('expired'),
  subscribe(l: Listener): () => void {
    listeners.add(l);
    const s = session.get();
    if (s) armExpiry(s);
    return () => listeners.delete(l);
  },
};
