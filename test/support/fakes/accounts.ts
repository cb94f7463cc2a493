// test/support/fakes/accounts.ts — in-memory fakes of the login throttle and the session store,
// for unit tests of the account use cases. Each call runs to completion before the next, as
// HBase's per-row operations do; the session store is held to its HBase adapter by its contract
// (test/support/contracts/session-store.contract.ts).
import type { IssuedToken, SessionOwner, SessionStore, SessionView } from '../../../shared/ports/session-store.js';
import type { LoginAttempt, LoginThrottle } from '../../../shared/ports/user-store.js';

/** Atomic per key like HBase's per-row operations: each call runs to completion before the next. */
export class MemoryThrottle implements LoginThrottle {
  readonly sources = new Map<string, { attempts: number; lockedUntil: number }>();
  readonly windows = new Map<string, number>();
  async count(h: string, source: string, window: number): Promise<LoginAttempt> {
    const s = this.sources.get(`${h}/${source}`) ?? { attempts: 0, lockedUntil: 0 };
    s.attempts++;
    this.sources.set(`${h}/${source}`, s);
    const g = (this.windows.get(`${h}/${window}`) ?? 0) + 1;
    this.windows.set(`${h}/${window}`, g);
    await Promise.resolve(); // the read comes back later than the increment, as over HTTP
    return { sourceAttempts: s.attempts, lockedUntil: s.lockedUntil, globalAttempts: g };
  }
  async lock(h: string, source: string, seen: number, until: number) {
    const s = this.sources.get(`${h}/${source}`)!;
    if (s.lockedUntil !== seen) return false;
    s.lockedUntil = until;
    return true;
  }
  async succeeded(h: string, source: string, window: number) {
    this.sources.delete(`${h}/${source}`);
    this.windows.set(`${h}/${window}`, (this.windows.get(`${h}/${window}`) ?? 1) - 1);
  }
}

export class MemorySessions implements SessionStore {
  readonly rows = new Map<
    string,
    { handle: string; epoch: string; current: string | null; revoked: boolean; issued: Map<string, number> }
  >();
  async start(id: Uint8Array, owner: SessionOwner, t: IssuedToken) {
    this.rows.set(Buffer.from(id).toString('hex'), {
      ...owner,
      current: t.hash,
      revoked: false,
      issued: new Map([[t.hash, t.expiresAt]]),
    });
  }
  async read(id: Uint8Array, presented: string): Promise<SessionView | null> {
    const r = this.rows.get(Buffer.from(id).toString('hex'));
    return r
      ? {
          handle: r.handle,
          epoch: r.epoch,
          revoked: r.revoked,
          currentHash: r.current,
          presentedExpiresAt: r.issued.get(presented) ?? null,
        }
      : null;
  }
  async rotate(id: Uint8Array, _owner: SessionOwner, from: string, next: IssuedToken) {
    const r = this.rows.get(Buffer.from(id).toString('hex'));
    if (!r || r.current !== from) return false;
    r.current = next.hash;
    r.issued.set(next.hash, next.expiresAt);
    return true;
  }
  async revoke(id: Uint8Array) {
    const r = this.rows.get(Buffer.from(id).toString('hex'));
    if (r) Object.assign(r, { current: null, revoked: true });
  }
}
