// web/src/features/messages/conversation-page.tsx — one 私信 conversation: its messages oldest →
// newest (mine on the right), older ones on demand (the API's cursor pages back in time), a
// composer at the foot. The list stays scrolled to its newest message as messages arrive, unless
// the reader scrolled up to read; new incoming messages are said politely to screen readers.
//
// What moves it: the live channel's `conversation` events for this peer re-read the newest page
// and merge it in (a message, a recall, a read marker, an accept); nothing is asked on a timer.
// While the page is open and visible, everything up to the head is marked read (on open, on each
// arrival, and when the tab comes back to the front). 已读 shows under my newest message the other
// person has read. A message of mine can be recalled (撤回) within 2 minutes; any message can be
// deleted for me; the whole conversation too. A request (they asked me) offers accept / decline;
// one I sent says it waits, and once the API refuses more (403 message_request_pending) the
// composer is closed until they accept.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, type PostMedia } from '../../api/client';
import { Avatar } from '../../components/avatar';
import { BackLink } from '../../components/back-link';
import { codePoints, CharCount, hasVisible, textProblem } from '../../components/char-count';
import { ask } from '../../components/confirm';
import { MoreMenu, type MenuItem } from '../../components/menu';
import { ErrorMessage } from '../../components/problem';
import { RelativeTime, useNow } from '../../components/time';
import { useI18n, type Translate } from '../../i18n/i18n';
import { live } from '../../live/live';
import { href, navigate } from '../../router';
import { outcomeUnknown } from '../compose/send-problem';
import { PicturePicker, addedSentence, filesOf, usePictures } from '../media/composer-pictures';
import { PictureGrid } from '../media/picture-grid';
import {
  messagesApi,
  type ConversationState,
  type Message,
  type MessagePicture,
  type Person,
  type Thread,
} from './api';
import { faceOf, nameOf, placeholderOf } from './people';
import { refreshMessagesUnread } from './unread';

/** The longest message, in code points (the API's rule). */
const MESSAGE_MAX = 1000;
/** A message of mine can be recalled this long after it was sent (the API's rule). */
const RECALL_WINDOW_MS = 2 * 60_000;
/** Within this many pixels of the end, the list counts as "at the newest message". */
const AT_END_PX = 48;
/** A burst of live events (a message, then its read) re-reads once, this long after the first. */
const REREAD_AFTER_MS = 100;

/** What the page knows of the conversation. */
interface Known {
  peer: Person;
  state: ConversationState;
  messages: Message[];
  readUpTo: number;
  peerReadUpTo: number;
  head: number;
  /** Older messages to page to (null: this is the start). */
  older: string | null;
}

/** `fresh` (the newest page) merged into what is loaded: same seqs replaced, new ones appended. */
function merge(known: Known | null, fresh: Thread): Known {
  const bySeq = new Map((known?.messages ?? []).map((m) => [m.seq, m]));
  const first = fresh.messages[0]?.seq ?? Number.POSITIVE_INFINITY;
  // Loaded messages inside the fresh page's span but missing from it were deleted (for me).
  for (const seq of bySeq.keys()) if (seq >= first) bySeq.delete(seq);
  for (const m of fresh.messages) bySeq.set(m.seq, m);
  return {
    peer: fresh.peer,
    state: fresh.state,
    messages: [...bySeq.values()].sort((a, b) => a.seq - b.seq),
    readUpTo: Math.max(known?.readUpTo ?? 0, fresh.readUpTo),
    peerReadUpTo: Math.max(known?.peerReadUpTo ?? 0, fresh.peerReadUpTo),
    head: Math.max(known?.head ?? 0, fresh.head),
    // Paging back continues from what was loaded first (the fresh page's cursor only when it is all there is).
    older: known ? known.older : (fresh.nextCursor ?? null),
  };
}

const visible = () => document.visibilityState === 'visible';

export function ConversationPage({ me, peer }: { me: string; peer: string }) {
  const { t } = useI18n();
  const [known, setKnown] = useState<Known | null>(null);
  /** No conversation yet (404): the page is a composer for the first message. */
  const [none, setNone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [olderLoading, setOlderLoading] = useState(false);
  const [olderError, setOlderError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  /** What screen readers hear: new incoming messages, and the outcome of an action. */
  const [said, setSaid] = useState('');
  const scroller = useRef<HTMLElement>(null);
  /** The reader is at the newest message (so arrivals keep the list there). */
  const atEnd = useRef(true);
  /** Before older messages were put on top: the distance from the list's end, kept after. */
  const fromEnd = useRef<number | null>(null);
  const current = useRef(known);
  current.current = known;
  const marked = useRef(0);

  /** Marks everything up to the head read, once per head, while the page is seen. */
  const markRead = (k: Known | null) => {
    if (!k || !visible() || k.head <= k.readUpTo || k.head <= marked.current) return;
    marked.current = k.head;
    messagesApi
      .read(me, peer, k.head)
      .then(({ readUpTo }) => {
        setKnown((c) => (c ? { ...c, readUpTo: Math.max(c.readUpTo, readUpTo) } : c));
        void refreshMessagesUnread();
      })
      .catch(() => {
        marked.current = 0; // asked again on the next arrival or visit
      });
  };

  /** Reads the newest page and merges it; says new incoming messages. `first`: the page's own load. */
  const reread = async (first = false) => {
    try {
      const fresh = await messagesApi.thread(me, peer, undefined, { background: !first });
      const before = current.current;
      const next = merge(before, fresh);
      if (before) {
        const newest = before.messages.at(-1)?.seq ?? 0;
        const arrived = next.messages.filter((m) => m.seq > newest && m.from !== me && !m.recalled && !m.erased);
        if (arrived.length > 0) setSaid(arrived.map((m) => incomingSentence(m, next.peer, t)).join(' '));
      }
      setNone(false);
      setError(null);
      setKnown(next);
      markRead(next);
    } catch (err) {
      if (err instanceof ApiProblem && err.code === 'conversation_not_found') {
        setNone(true);
        setError(null);
      } else if (first || !current.current) setError(err);
    }
  };

  useEffect(() => {
    void reread(true);
  }, [me, peer]);

  // Live: this conversation moved (or events were missed): read its newest page again.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void reread();
      }, REREAD_AFTER_MS);
    };
    const offEvent = live.onEvent((e) => e.kind === 'conversation' && e.peer === peer && soon());
    const offReload = live.onReload(soon);
    // Back in front: what arrived while hidden is read now.
    const onVisible = () => visible() && markRead(current.current);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      offEvent();
      offReload();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [me, peer]);

  // Keeps the list at its newest message as messages arrive, unless the reader scrolled up; keeps
  // the reader's place when older messages are put on top.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (fromEnd.current !== null) {
      el.scrollTop = el.scrollHeight - fromEnd.current;
      fromEnd.current = null;
    } else if (atEnd.current) el.scrollTop = el.scrollHeight;
  }, [known?.messages]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight <= AT_END_PX;
  };

  async function loadOlder() {
    const k = current.current;
    if (!k?.older || olderLoading) return;
    setOlderLoading(true);
    setOlderError(null);
    try {
      const page = await messagesApi.thread(me, peer, k.older);
      const el = scroller.current;
      if (el) fromEnd.current = el.scrollHeight - el.scrollTop;
      setKnown((c) => {
        if (!c) return c;
        const have = new Set(c.messages.map((m) => m.seq));
        return {
          ...c,
          messages: [...page.messages.filter((m) => !have.has(m.seq)), ...c.messages],
          older: page.nextCursor ?? null,
        };
      });
    } catch (err) {
      setOlderError(err);
    } finally {
      setOlderLoading(false);
    }
  }

  /** A message the API answered for (sent, recalled): in place, or appended. */
  const put = (m: Message, state?: ConversationState) =>
    setKnown((c) => {
      const base: Known = c ?? {
        peer: { handle: peer, displayName: '', avatar: null, left: false },
        state: state ?? 'open',
        messages: [],
        readUpTo: 0,
        peerReadUpTo: 0,
        head: 0,
        older: null,
      };
      const messages = base.messages.some((x) => x.seq === m.seq)
        ? base.messages.map((x) => (x.seq === m.seq ? m : x))
        : [...base.messages, m].sort((a, b) => a.seq - b.seq);
      const head = Math.max(base.head, m.seq);
      // My own message: I have read everything up to it.
      const readUpTo = m.from === me ? Math.max(base.readUpTo, m.seq) : base.readUpTo;
      return { ...base, messages, head, readUpTo, state: state ?? base.state };
    });

  async function recall(m: Message) {
    setActionError(null);
    try {
      const message = await messagesApi.recall(me, peer, m.seq);
      put(message);
      setSaid(t('messages.recalled'));
    } catch (err) {
      setActionError(err);
    }
  }

  async function remove(m: Message) {
    const yes = await ask({
      title: t('messages.deleteAsk'),
      detail: t('messages.deleteDetail'),
      action: t('post.delete'),
    });
    if (!yes) return;
    setActionError(null);
    try {
      await messagesApi.deleteMessage(me, peer, m.seq);
      setKnown((c) => (c ? { ...c, messages: c.messages.filter((x) => x.seq !== m.seq) } : c));
      setSaid(t('messages.deleted'));
    } catch (err) {
      setActionError(err);
    }
  }

  async function removeConversation() {
    const yes = await ask({
      title: t('messages.deleteConversationAsk'),
      detail: t('messages.deleteConversationDetail'),
      action: t('post.delete'),
    });
    if (!yes) return;
    setActionError(null);
    try {
      await messagesApi.deleteConversation(me, peer);
      void refreshMessagesUnread();
      navigate(href.messages());
    } catch (err) {
      setActionError(err);
    }
  }

  async function answer(accept: boolean) {
    setActionError(null);
    try {
      if (accept) {
        await messagesApi.accept(me, peer);
        setKnown((c) => (c ? { ...c, state: 'open' } : c));
        setSaid(t('messages.accepted', { name: known ? nameOf(known.peer, t) : peer }));
      } else {
        await messagesApi.decline(me, peer);
        navigate(href.messages());
      }
      void refreshMessagesUnread();
    } catch (err) {
      setActionError(err);
    }
  }

  const person = known?.peer ?? null;
  const name = person ? nameOf(person, t) : `@${peer}`;
  const state = known?.state ?? 'open';
  // 已读 goes under my newest message the other person has read.
  const readSeq = known
    ? (known.messages.filter((m) => m.from === me && m.seq <= known.peerReadUpTo).at(-1)?.seq ?? null)
    : null;

  return (
    <section aria-labelledby="page-title" class="conversation-page">
      <BackLink href={href.messages()}>{t('messages.back')}</BackLink>
      <header class="conversation-top">
        {person ? <Avatar {...faceOf(person)} /> : <Avatar handle={peer} />}
        <h1 id="page-title">
          {person && !person.left ? (
            <a href={href.profile(peer)} dir="auto">
              {name} <span class="handle">@{peer}</span>
            </a>
          ) : (
            name
          )}
        </h1>
        {known && known.messages.length > 0 && (
          <MoreMenu
            label={t('messages.conversationMenu', { handle: peer })}
            items={[{ label: t('messages.deleteConversation'), run: () => void removeConversation(), danger: true }]}
          />
        )}
      </header>
      {error !== null && !known ? (
        <ErrorMessage error={error} onRetry={() => void reread(true)} />
      ) : (
        <>
          {state === 'request' && (
            <div class="request-banner">
              <p>{t('messages.request', { name })}</p>
              <div class="request-actions">
                <button type="button" onClick={() => void answer(true)}>
                  {t('messages.accept')}
                </button>
                <button type="button" class="secondary" onClick={() => void answer(false)}>
                  {t('messages.decline')}
                </button>
              </div>
            </div>
          )}
          <section
            ref={scroller}
            class="message-scroll"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by the keyboard to scroll it (WCAG 2.1.1)
            tabIndex={0}
            aria-label={t('messages.with', { name })}
            onScroll={onScroll}
          >
            {known?.older ? (
              <div class="load-older">
                <button type="button" class="secondary" onClick={() => void loadOlder()} disabled={olderLoading}>
                  {t(olderLoading ? 'timeline.loading' : 'messages.loadOlder')}
                </button>
                <ErrorMessage error={olderError} />
              </div>
            ) : (
              known && known.messages.length > 0 && <p class="muted thread-start">{t('messages.start')}</p>
            )}
            {!known && !none && (
              <p class="muted" role="status">
                {t('timeline.loading')}
              </p>
            )}
            {none && <p class="muted thread-start">{t('messages.none', { name })}</p>}
            <ol class="messages">
              {known?.messages.map((m) => (
                <MessageItem
                  key={m.seq}
                  m={m}
                  me={me}
                  peer={known.peer}
                  read={m.seq === readSeq}
                  onRecall={recall}
                  onDelete={remove}
                />
              ))}
            </ol>
          </section>
          <p class="sr-status" role="status">
            {said}
          </p>
          <ErrorMessage error={actionError} />
          {state === 'requested' && <p class="notice waiting">{t('messages.waiting')}</p>}
          {(known || none) && !person?.left && (
            <MessageComposer
              me={me}
              peer={peer}
              name={name}
              state={state}
              onSent={(m, s) => {
                atEnd.current = true; // my own message: to the end, wherever the reader was
                put(m, s);
                // The first message: the conversation exists now, with its peer as the API names them.
                if (none) {
                  setNone(false);
                  void reread();
                }
              }}
            />
          )}
        </>
      )}
    </section>
  );
}

function incomingSentence(m: Message, peer: Person, t: Translate): string {
  const text = m.text.trim() || (m.pictures.length > 0 ? t('messages.picture') : '');
  return t('messages.incoming', { name: nameOf(peer, t), text });
}

/** A message's pictures as the post grid shows them (its lightbox too): signed thumb and large URLs. */
const asMedia = (p: MessagePicture): PostMedia => ({
  id: p.id,
  alt: null,
  width: p.width,
  height: p.height,
  animated: false,
  placeholder: 'var(--hover)',
  variants: {
    thumb: { url: p.urls.thumb, width: Math.min(360, p.width), height: Math.min(360, p.height) },
    feed: { url: p.urls.large, width: p.width, height: p.height },
    large: { url: p.urls.large, width: p.width, height: p.height },
  },
});

function MessageItem({
  m,
  me,
  peer,
  read,
  onRecall,
  onDelete,
}: {
  m: Message;
  me: string;
  peer: Person;
  read: boolean;
  onRecall: (m: Message) => void;
  onDelete: (m: Message) => void;
}) {
  const { t } = useI18n();
  const now = useNow(10_000);
  const mine = m.from === me;
  const placeholder = placeholderOf(m, me, t);
  if (placeholder)
    return (
      <li class="message notice-line" data-seq={m.seq} data-recalled={m.recalled || undefined}>
        <span class="muted">{placeholder}</span>
      </li>
    );
  const items: MenuItem[] = [];
  if (mine && now - Date.parse(m.at) < RECALL_WINDOW_MS)
    items.push({ label: t('messages.recall'), run: () => onRecall(m) });
  items.push({ label: t('messages.delete'), run: () => onDelete(m), danger: true });
  return (
    <li class={mine ? 'message mine' : 'message theirs'} data-seq={m.seq}>
      {!mine && <Avatar {...faceOf(peer)} />}
      <div class="message-body">
        <span class="sr-only">{mine ? t('messages.fromMe') : nameOf(peer, t)}: </span>
        {m.text && (
          <p class="bubble" dir="auto">
            {m.text}
          </p>
        )}
        {m.pictures.length > 0 && <PictureGrid media={m.pictures.map(asMedia)} />}
        <span class="message-meta">
          <RelativeTime iso={m.at} />
          {read && <span class="read-mark">{t('messages.readMark')}</span>}
        </span>
      </div>
      <MoreMenu label={t('messages.menu')} items={items} />
    </li>
  );
}

/**
 * The composer: text (Enter sends, Shift+Enter a new line; an input method's Enter only confirms
 * its word) and up to nine pictures (uploaded with purpose `message`). Each message is sent with a
 * `clientId` kept across every try of it, so sending again after a lost answer never sends twice;
 * a new one is made only once the API confirmed the message.
 */
function MessageComposer({
  me,
  peer,
  name,
  state,
  onSent,
}: {
  me: string;
  peer: string;
  name: string;
  state: ConversationState;
  onSent: (m: Message, state: ConversationState) => void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  /** The request is full (403 message_request_pending): closed until they accept. */
  const [pending, setPending] = useState(false);
  const clientId = useRef(crypto.randomUUID());
  const pictures = usePictures('message');
  const box = useRef<HTMLTextAreaElement>(null);
  // Accepted (or they wrote back): the refusal no longer holds.
  useEffect(() => {
    if (state === 'requested' || !pending) return;
    setPending(false);
    setError(null);
  }, [state]);

  const waiting =
    pictures.failed > 0
      ? t('media.waitFailed')
      : pictures.pending > 0
        ? t('media.waitPending', { n: pictures.pending })
        : '';
  const sendable =
    !pending &&
    codePoints(text) <= MESSAGE_MAX &&
    !textProblem(text) &&
    (hasVisible(text) || pictures.items.length > 0) &&
    waiting === '';

  async function submit(e: Event) {
    e.preventDefault();
    if (!sendable || busy) return;
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      const media = pictures.items.map((p) => p.media!.id);
      const { message, state: next } = await messagesApi.send(me, peer, {
        text: text.trim() ? text : '',
        ...(media.length > 0 ? { media } : {}),
        clientId: clientId.current,
      });
      clientId.current = crypto.randomUUID(); // confirmed: what is written next is a new message
      setText('');
      pictures.clear();
      setStatus(t('messages.sent'));
      onSent(message, next);
      box.current?.focus();
    } catch (err) {
      // Kept as written, with its clientId: sending again is a retry of this same message.
      if (err instanceof ApiProblem && err.code === 'message_request_pending') setPending(true);
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const take = (files: File[]) => {
    if (files.length === 0) return false;
    setStatus(addedSentence(files.length, pictures.add(files), t));
    return true;
  };

  return (
    <form class="composer message-composer" onSubmit={submit} aria-label={t('messages.compose', { name })}>
      <label for="message-text" class="sr-only">
        {t('messages.compose', { name })}
      </label>
      <textarea
        ref={box}
        id="message-text"
        rows={2}
        value={text}
        disabled={pending}
        placeholder={t('messages.placeholder')}
        aria-describedby="message-keys message-count"
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          // Enter sends; Shift+Enter is a new line; an input method's Enter confirms its word.
          if (e.key !== 'Enter' || e.shiftKey || e.isComposing || e.keyCode === 229) return;
          e.preventDefault();
          (e.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
        }}
        onPaste={(e) => {
          if (take(filesOf(e.clipboardData))) e.preventDefault();
        }}
      />
      <small id="message-keys" class="muted">
        {t('messages.keysHint')}
      </small>
      {!pending && <PicturePicker pictures={pictures} onStatus={setStatus} describe={false} />}
      <div class="composer-foot">
        <CharCount id="message-count" text={text} max={MESSAGE_MAX} />
        <button type="submit" disabled={busy || !sendable} aria-describedby={waiting ? 'message-wait' : undefined}>
          {error && outcomeUnknown(error) ? t('messages.sendAgain') : t('messages.send')}
        </button>
      </div>
      {waiting && (
        <p id="message-wait" class="compose-wait">
          {waiting}
        </p>
      )}
      <p class="sr-status" role="status">
        {status}
      </p>
      {error !== null &&
        (outcomeUnknown(error) ? (
          <div class="problem" role="alert">
            <p>{t('send.unknown')}</p>
          </div>
        ) : (
          <ErrorMessage error={error} />
        ))}
    </form>
  );
}
