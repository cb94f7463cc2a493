// web/src/features/messages/unread.tsx — the 私信 link in the navigation with its badge: unread
// messages in your main list plus requests waiting for an answer (GET …/message-badge).
// Asked once the live channel is open (each time it opens: nothing it tells of after that is
// missed) and then whenever it tells of a conversation that moved (a burst asked once) or missed
// more than its log holds; never on a timer, and not on every navigation (the 私信 pages ask
// themselves, and after what they change). A hint: it waits for the page's own requests, and a
// failed refresh keeps the last count.
import { useEffect, useState } from 'preact/hooks';
import { whenQuiet } from '../../api/client';
import { Icon } from '../../components/icons';
import { useI18n } from '../../i18n/i18n';
import { live } from '../../live/live';
import { href, type Route } from '../../router';
import { session } from '../../session';
import { messagesApi, type MessagesUnread } from './api';

/** A burst of events (a message and its read) is asked about once, this long after its first. */
const ASK_AFTER_MS = 150;

type Known = { handle: string; unread: MessagesUnread } | null;
let known: Known = null;
const listeners = new Set<(k: Known) => void>();
/** Counts refreshes, so an older answer arriving late never overwrites a newer one. */
let asked = 0;

/** Asks the API for the counts (after the page's own requests). */
export async function refreshMessagesUnread(): Promise<void> {
  const mine = ++asked;
  await whenQuiet();
  const me = session.get()?.handle;
  if (mine !== asked || !me) return; // a newer refresh is under way, or nobody is logged in
  try {
    const unread = await messagesApi.unread(me);
    if (mine !== asked || session.get()?.handle !== me) return; // a newer refresh, or another user
    known = { handle: me, unread };
    for (const l of listeners) l(known);
  } catch {
    /* a missed refresh is not worth a message; the next one asks again */
  }
}

/** The counts as last known for `handle` (null before the first answer). */
export function useMessagesUnread(handle: string): MessagesUnread | null {
  const [current, setCurrent] = useState<Known>(known);
  useEffect(() => {
    listeners.add(setCurrent);
    return () => void listeners.delete(setCurrent);
  }, []);
  return current?.handle === handle ? current.unread : null;
}

export function MessagesLink({ handle, route }: { handle: string; route: Route }) {
  const { t } = useI18n();
  const [current, setCurrent] = useState<Known>(known);
  useEffect(() => {
    listeners.add(setCurrent);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void refreshMessagesUnread();
      }, ASK_AFTER_MS);
    };
    const offEvent = live.onEvent((e) => e.kind === 'conversation' && soon());
    const offReload = live.onReload(soon);
    const offStatus = live.onStatus((s) => s === 'open' && soon());
    if (live.status() === 'open') soon();
    return () => {
      listeners.delete(setCurrent);
      clearTimeout(timer);
      offEvent();
      offReload();
      offStatus();
    };
  }, [handle]);

  const counts = current?.handle === handle ? current.unread : null;
  const total = counts ? counts.unread + counts.requests : 0;
  const shown = total > 99 ? '99+' : total > 0 ? String(total) : null;
  return (
    // data-unread: the count as last answered (absent before the first answer), for tests and styles.
    <a
      class="nav-messages"
      href={href.messages()}
      data-unread={counts ? String(total) : undefined}
      aria-current={route.page === 'messages' || route.page === 'conversation' ? 'page' : undefined}
    >
      <Icon name="mail" />
      <span class="label">{t('nav.messages')}</span>
      {shown && (
        <span class="badge">
          <span aria-hidden="true">{shown}</span>
          <span class="sr-only">
            {' '}
            {counts!.unread > 0 && t('messages.unreadCount', { n: counts!.unread })}
            {counts!.unread > 0 && counts!.requests > 0 && ', '}
            {counts!.requests > 0 && t('messages.requestsCount', { n: counts!.requests })}
          </span>
        </span>
      )}
    </a>
  );
}
