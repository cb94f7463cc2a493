// web/src/features/compose/use-composed.ts — one item being written (a post, a repost's comment,
// a comment; any later kind the same way): its text and its Idempotency-Key, kept as a draft of
// the signed-in user (drafts.ts) from the first keystroke (written once typing pauses, and at
// once when the page is left or the box goes away) until the server confirms the item.
//
// `send` sends it under its key, and every try of the same item carries the same key: after an
// unknown outcome (a 5xx, a network error, no answer) pressing send again is a retry the API
// answers with the first outcome, never a second item. The key changes only when the item is
// confirmed (what is written next is a new item), or when the API says the key is spent: it
// went with other content (422 `idempotency_key_mismatch`: an earlier version reached it), or
// the item it made has been deleted since (410). Either way this text becomes an item of its own.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from '../../api/client';
import { session } from '../../session';
import { draftStore, newKey, type Draft } from './drafts';

/**
 * No answer by then: the outcome is unknown. Above every limit of the API's own (a function
 * stops at 10 s, API Gateway answers 503 by 30 s), so it only ends a request nothing answers.
 */
const NO_ANSWER_MS = 35_000;

/**
 * Typing is written to storage once it pauses this long (ms), and at once when the page is
 * hidden or left, the box goes away (another page of the app) or the item's key changes.
 */
const SAVE_AFTER_MS = 300;

export const drafts = draftStore(() => localStorage);
drafts.sweep();

// A logout in this tab is someone leaving this browser: their drafts go with them. A session
// that expired keeps them (logging in again finds them), as does a logout in another tab (that
// tab removed them: the storage is shared).
let signedIn = session.get()?.handle ?? null;
session.subscribe((s, { reason, remote }) => {
  if (!s && reason === 'logout' && !remote && signedIn) drafts.dropAll(signedIn);
  signedIn = s?.handle ?? null;
});

export type Meta = Record<string, string>;

/** The API will never make a new item under this key again (see the file's head). */
const keySpent = (err: unknown) =>
  err instanceof ApiProblem && (err.code === 'idempotency_key_mismatch' || err.status === 410);

export interface Composed {
  text: string;
  /** What else the item is sent with (kept with its draft). */
  meta: Meta | undefined;
  /** A send is under way. */
  busy: boolean;
  /** Why the last send did not go through (see SendProblem); null after a success. */
  error: unknown;
  edit: (text: string) => void;
  setMeta: (meta: Meta | undefined) => void;
  /**
   * Sends the item: `request` gets its key (for the `Idempotency-Key` header) and a signal that
   * ends a request nothing answers. Resolves to the answer once confirmed (the box is then
   * empty, with a new key), or undefined when it did not go through (text and key kept). One
   * send at a time: a press while one is under way does nothing.
   */
  send: <T>(request: (key: string, signal: AbortSignal) => Promise<T>) => Promise<T | undefined>;
}

/** `target` names what the item is for (drafts.ts): one target for the life of the component. */
export function useComposed(target: string): Composed {
  // The user the page was drawn for: another user signing in draws every page anew (app.tsx).
  const [owner] = useState(() => session.get()?.handle ?? null);
  const [draft, setDraft] = useState<Draft>(
    () => (owner ? drafts.load(owner, target) : null) ?? { text: '', key: newKey() },
  );
  const current = useRef(draft);
  const sending = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const pending = useRef<ReturnType<typeof setTimeout>>();

  // Written only while the user it belongs to is still the one signed in: a logout removed their
  // drafts (above), and another user's page must not receive them.
  function persist() {
    clearTimeout(pending.current);
    pending.current = undefined;
    if (owner && session.get()?.handle === owner) drafts.save(owner, target, current.current);
  }

  function change(next: Draft, { typed = false } = {}) {
    current.current = next;
    setDraft(next);
    if (!owner) return;
    clearTimeout(pending.current);
    if (typed) pending.current = setTimeout(persist, SAVE_AFTER_MS);
    else persist();
  }

  useEffect(() => {
    const flush = () => {
      if (pending.current !== undefined) persist();
    };
    const hidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', hidden);
      flush();
    };
  }, []);

  async function send<T>(request: (key: string, signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    if (sending.current) return undefined;
    sending.current = true;
    setBusy(true);
    setError(null);
    const sent = current.current;
    if (pending.current !== undefined) persist(); // a reload while it is on its way keeps it
    try {
      const answer = await request(sent.key, AbortSignal.timeout(NO_ANSWER_MS));
      // Confirmed. Words typed while it was on its way are a new item: kept, under a new key.
      const now = current.current;
      change(now.text === sent.text ? { text: '', key: newKey() } : { ...now, key: newKey() });
      return answer;
    } catch (err) {
      setError(err);
      if (keySpent(err)) change({ ...current.current, key: newKey() });
      return undefined;
    } finally {
      sending.current = false;
      setBusy(false);
    }
  }

  return {
    text: draft.text,
    meta: draft.meta,
    busy,
    error,
    edit: (text) => change({ ...current.current, text }, { typed: true }),
    setMeta: (meta) => {
      const { meta: _, ...rest } = current.current;
      change(meta ? { ...rest, meta } : rest);
    },
    send,
  };
}

/** Whether the signed-in user has a draft for `target` (a closed form with words waiting in it). */
export function hasDraft(target: string): boolean {
  const me = session.get()?.handle;
  return me !== undefined && drafts.load(me, target) !== null;
}
