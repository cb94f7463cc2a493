// web/src/session.ts — who is logged in: the token and its expiry, kept in localStorage so a
// reload stays logged in. Ends on logout, at the token's expiry, or when the API refuses it.
export interface Session {
  handle: string;
  token: string;
  expiresAt: string;
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

function end(reason: EndReason): void {
  if (!read()) return;
  localStorage.removeItem(KEY);
  clearTimeout(expiryTimer);
  listeners.forEach((l) => l(null, reason));
}

function armExpiry(s: Session): void {
  clearTimeout(expiryTimer);
  const ms = Date.parse(s.expiresAt) - Date.now();
  // Timers fire early beyond ~24.8 days; tokens live minutes, so clamp only against overflow.
  expiryTimer = setTimeout(() => end('expired'), Math.min(Math.max(ms, 0), 2 ** 31 - 1));
}

export const session = {
  get(): Session | null {
    const s = read();
    if (s && Date.parse(s.expiresAt) <= Date.now()) {
      end('expired');
      return null;
    }
    return s;
  },
  start(s: Session): void {
    localStorage.setItem(KEY, JSON.stringify(s));
    armExpiry(s);
    listeners.forEach((l) => l(s));
  },
  logout: () => end('logout'),
  /** The API refused the token (401): the session is over. */
  expire: () => end('expired'),
  subscribe(l: Listener): () => void {
    listeners.add(l);
    const s = session.get();
    if (s) armExpiry(s);
    return () => listeners.delete(l);
  },
};
