// web/src/features/messages/messages-page.tsx — 私信: your conversations, newest activity first,
// cursor-paged, in two tabs: 消息 (the main list) and 请求 (requests: first messages from people
// your setting does not admit, each with accept and decline). Each shows the other person's face
// and name (已注销 once they left), the last message in one line, its time and the unread count.
// When the live channel says a conversation moved, the first page is read again and put on top
// (the pages below it stay as loaded); no timer asks.
import { useEffect, useState } from 'preact/hooks';
import { Avatar } from '../../components/avatar';
import { PagedFooter, usePaged } from '../../components/paged';
import { ErrorMessage } from '../../components/problem';
import { RelativeTime } from '../../components/time';
import { useI18n } from '../../i18n/i18n';
import { live } from '../../live/live';
import { href } from '../../router';
import { messagesApi, type Box, type Conversation } from './api';
import { faceOf, nameOf, previewOf } from './people';
import { refreshMessagesUnread, useMessagesUnread } from './unread';

const BOXES: Box[] = ['main', 'requests'];
/** A burst of live events (a message and its read) reads the list once, this long after the first. */
const REREAD_AFTER_MS = 150;

export function MessagesPage({ handle }: { handle: string }) {
  const { t } = useI18n();
  const [box, setBox] = useState<Box>('main');
  const [status, setStatus] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);
  const counts = useMessagesUnread(handle);
  const list = usePaged<Conversation>(
    async (cursor?: string) => {
      const data = await messagesApi.list(handle, box, cursor);
      return { items: data.conversations, nextCursor: data.nextCursor ?? null };
    },
    [handle, box],
  );

  // The tabs' counts (and the badge) as they are now.
  useEffect(() => void refreshMessagesUnread(), [handle]);

  // A conversation moved: its first page again, on top of what was loaded (newest activity first).
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;
    const reread = () => {
      timer ??= setTimeout(async () => {
        timer = undefined;
        const mine = ++asked;
        try {
          const data = await messagesApi.list(handle, box);
          if (mine !== asked) return;
          const fresh = new Set(data.conversations.map((c) => c.peer.handle));
          const oldest = data.conversations.at(-1)?.activityAt ?? '\uffff';
          list.setItems((items) => [
            ...data.conversations,
            // Beyond the first page: kept as loaded, unless it moved into it (or above its end).
            ...items.filter((c) => !fresh.has(c.peer.handle) && (data.nextCursor ? c.activityAt < oldest : false)),
          ]);
        } catch {
          /* the list stays as it was; the next event asks again */
        }
      }, REREAD_AFTER_MS);
    };
    const offEvent = live.onEvent((e) => e.kind === 'conversation' && reread());
    const offReload = live.onReload(reread);
    return () => {
      clearTimeout(timer);
      offEvent();
      offReload();
    };
  }, [handle, box]);

  async function answer(c: Conversation, accept: boolean) {
    setActionError(null);
    try {
      if (accept) await messagesApi.accept(handle, c.peer.handle);
      else await messagesApi.decline(handle, c.peer.handle);
      list.setItems((items) => items.filter((x) => x.peer.handle !== c.peer.handle));
      setStatus(
        accept
          ? t('messages.accepted', { name: nameOf(c.peer, t) })
          : t('messages.declined', { name: nameOf(c.peer, t) }),
      );
      void refreshMessagesUnread();
    } catch (err) {
      setActionError(err);
    }
  }

  return (
    <section aria-labelledby="page-title" class="messages-page">
      <h1 id="page-title">{t('messages.title')}</h1>
      {/* biome-ignore lint/a11y/useSemanticElements: a <fieldset> would bring its own border, padding and layout to this row of buttons */}
      <div class="notification-filters" role="group" aria-label={t('messages.boxes')}>
        {BOXES.map((b) => {
          const n = counts ? (b === 'main' ? counts.unread : counts.requests) : 0;
          return (
            <button
              key={b}
              type="button"
              class={box === b ? 'secondary on' : 'secondary'}
              aria-pressed={box === b}
              data-box={b}
              onClick={() => {
                setStatus('');
                setActionError(null);
                setBox(b);
              }}
            >
              {t(`messages.box.${b}`)}
              {n > 0 && (
                <span class="box-count">
                  {' '}
                  <span aria-hidden="true">{n > 99 ? '99+' : n}</span>
                  <span class="sr-only">
                    {b === 'main' ? t('messages.unreadCount', { n }) : t('messages.requestsCount', { n })}
                  </span>
                </span>
              )}
            </button>
          );
        })}
      </div>
      {box === 'requests' && <p class="muted requests-hint">{t('messages.requestsHint')}</p>}
      <p class="sr-status" role="status">
        {status}
      </p>
      <ErrorMessage error={actionError} />
      <ul class="conversations">
        {list.items.map((c) => (
          <ConversationItem key={c.peer.handle} me={handle} c={c} onAnswer={box === 'requests' ? answer : undefined} />
        ))}
      </ul>
      <PagedFooter list={list} empty={t(box === 'main' ? 'messages.empty' : 'messages.emptyRequests')} />
    </section>
  );
}

function ConversationItem({
  me,
  c,
  onAnswer,
}: {
  me: string;
  c: Conversation;
  onAnswer: ((c: Conversation, accept: boolean) => void) | undefined;
}) {
  const { t } = useI18n();
  const name = nameOf(c.peer, t);
  const preview = previewOf(c.last, me, t);
  return (
    <li class={c.unread > 0 ? 'conversation-item unread' : 'conversation-item'} data-peer={c.peer.handle}>
      <a class="conversation-link" href={href.conversation(c.peer.handle)}>
        <Avatar {...faceOf(c.peer)} />
        <span class="conversation-main">
          <span class="conversation-head">
            <strong class={c.peer.left ? 'name left' : 'name'} dir="auto">
              {name}
            </strong>{' '}
            {!c.peer.left && <span class="handle">@{c.peer.handle}</span>}
            {c.state === 'requested' && <span class="tag">{t('messages.requested')}</span>}
            <span class="when">
              <RelativeTime iso={c.last?.at ?? c.activityAt} />
            </span>
          </span>
          <span class="conversation-preview" dir="auto">
            {preview}
          </span>
        </span>
        {c.unread > 0 && (
          <span class="badge conversation-unread">
            <span aria-hidden="true">{c.unread > 99 ? '99+' : c.unread}</span>
            <span class="sr-only"> {t('messages.unread', { n: c.unread })}</span>
          </span>
        )}
      </a>
      {onAnswer && c.state === 'request' && (
        <div class="request-actions">
          <button type="button" onClick={() => onAnswer(c, true)}>
            {t('messages.accept')}
            <span class="sr-only"> {name}</span>
          </button>
          <button type="button" class="secondary" onClick={() => onAnswer(c, false)}>
            {t('messages.decline')}
            <span class="sr-only"> {name}</span>
          </button>
        </div>
      )}
    </li>
  );
}
