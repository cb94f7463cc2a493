// web/src/features/compose/drafts.ts — what someone is writing (a post, a repost's comment, a
// comment), with the Idempotency-Key it is sent under, kept in localStorage until the server
// confirms it: a reload or a lost answer then loses neither the text nor the key, and the next
// send is a retry of the same request, never a second item.
//
// Scoped per signed-in user (the handle is part of the storage key, and a page reads only its
// own user's drafts) and per target (`post`, `repost:<postId>`, `comment:<postId>`). Anything
// unreadable — another shape, a hand edit, a key the API would refuse — counts as no draft and
// is removed; a storage that refuses reads or writes (disabled, full) leaves drafts in memory.
// Typed by shape and given its storage: the unit tests run it outside a browser.

export interface Draft {
  text: string;
  /** The Idempotency-Key this item is sent with, on every try, until it is confirmed. */
  key: string;
  /** What else the item is sent with, as short strings (a comment's reply target). */
  meta?: Record<string, string>;
}

/** The part of the Web Storage API used here. */
export interface DraftStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'weibo.draft.';
/** The version of the stored shape: entries under another version are removed, not read. */
const VERSION = 'v1';
/** The API's Idempotency-Key rule (shared/validation/feed.schema.ts). */
const KEY_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;
/** Longer than anything the API accepts: a longer text is not a draft of ours. */
const TEXT_MAX = 10_000;
const META_ENTRIES_MAX = 8;
const META_VALUE_MAX = 200;
/**
 * How long an unsent draft is kept. The API remembers a key for 24 hours, so a draft restored
 * later is sent as a new request: the text is still worth more than losing it.
 */
export const DRAFT_TTL_MS = 7 * 86_400_000;

interface Stored extends Draft {
  savedAt: number;
}

/** A fresh Idempotency-Key (a UUID: 36 of the characters the API allows). */
export const newKey = (): string => crypto.randomUUID();

const isMeta = (m: unknown): m is Record<string, string> =>
  typeof m === 'object' &&
  m !== null &&
  !Array.isArray(m) &&
  Object.keys(m).length <= META_ENTRIES_MAX &&
  Object.values(m).every((v) => typeof v === 'string' && v.length <= META_VALUE_MAX);

/** The draft in `raw` when it is one of ours and not expired; null otherwise. */
function parse(raw: string | null, now: number): Draft | null {
  if (raw === null) return null;
  let v: Partial<Stored>;
  try {
    v = JSON.parse(raw) as Partial<Stored>;
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const { text, key, meta, savedAt } = v;
  if (typeof text !== 'string' || text === '' || text.length > TEXT_MAX) return null;
  if (typeof key !== 'string' || !KEY_SHAPE.test(key)) return null;
  if (meta !== undefined && !isMeta(meta)) return null;
  // A time ahead of now (a clock set back) counts as now; one past the keeping time is gone.
  if (typeof savedAt !== 'number' || !Number.isFinite(savedAt) || now - savedAt > DRAFT_TTL_MS) return null;
  return { text, key, ...(meta ? { meta: { ...meta } } : {}) };
}

/**
 * Drafts in `storage` (a function: reading `localStorage` itself may throw where storage is
 * disabled). Every call is safe: a refusing storage reads as empty and writes nothing.
 */
export function draftStore(storage: () => DraftStorage | null, now: () => number = Date.now) {
  const where = (handle: string, target: string) => `${PREFIX}${VERSION}:${handle}:${target}`;
  const attempt = <T>(f: (s: DraftStorage) => T, fallback: T): T => {
    try {
      const s = storage();
      return s ? f(s) : fallback;
    } catch {
      return fallback;
    }
  };
  const keysWith = (s: DraftStorage, prefix: string) => {
    const keys: string[] = [];
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i);
      if (k?.startsWith(prefix)) keys.push(k);
    }
    return keys;
  };

  const drop = (handle: string, target: string): void => attempt((s) => s.removeItem(where(handle, target)), undefined);

  return {
    /** The user's draft for `target`, or null (none, expired, or unreadable: then it is removed). */
    load(handle: string, target: string): Draft | null {
      return attempt((s) => {
        const raw = s.getItem(where(handle, target));
        const draft = parse(raw, now());
        if (draft === null && raw !== null) s.removeItem(where(handle, target));
        return draft;
      }, null);
    },
    /** Keeps `draft` (an empty text keeps nothing: there is nothing to lose). */
    save(handle: string, target: string, draft: Draft): void {
      if (draft.text === '') {
        drop(handle, target);
        return;
      }
      const stored: Stored = { ...draft, savedAt: now() };
      attempt((s) => s.setItem(where(handle, target), JSON.stringify(stored)), undefined);
    },
    drop,
    /** Every draft of this user (their explicit logout: nothing of theirs stays on the browser). */
    dropAll(handle: string): void {
      attempt((s) => {
        for (const k of keysWith(s, `${PREFIX}${VERSION}:${handle}:`)) s.removeItem(k);
      }, undefined);
    },
    /** Removes every expired or unreadable draft, of anyone, and entries of another stored shape. */
    sweep(): void {
      attempt((s) => {
        const current = `${PREFIX}${VERSION}:`;
        for (const k of keysWith(s, PREFIX))
          if (!k.startsWith(current) || parse(s.getItem(k), now()) === null) s.removeItem(k);
      }, undefined);
    },
  };
}

export type DraftStore = ReturnType<typeof draftStore>;
