// web/src/features/notifications/unread.tsx — the unread count on the Notifications link in the
// header: asked on every navigation, and when the live channel tells of a new notification (a
// burst of them asked once) or missed more than its log holds; "99+" past the API's cap. It is a hint, so it never delays a page: its request waits
// until the page's own have answered (whenQuiet), and a failed one keeps the last count.
import { useEffect, useState } from 'preact/hooks';
import { api, call, whenQuiet, type UnreadCount } from '../../api/client';
import { Icon } from '../../components/icons';
import { useI18n } from '../../i18n/i18n';
import { live } from '../../live/live';
import { href, type Route } from '../../router';
import { session } from '../../session';

/** A burst of notifications (several likes at once) is asked about once, this long after its first. */
const ASK_AFTER_MS = 150;

/** The count as last known, and whose it is (a new login must not show the last user's). */
type Known = { handle: string; unread: UnreadCount } | null;
let known: Known = null;
const listeners = new Set<(k: Known) => void>();
// Counts refreshes, so an older answer arriving late never overwrites a newer one.
let asked = 0;

function publish(k: Known): void {
  known = k;
  for (const l of listeners) l(k);
}

/** Asks the API for the unread count (after the page's own requests). */
export async function refreshUnread(): Promise<void> {
  const mine = ++asked;
  await whenQuiet();
  const me = session.get()?.handle;
  if (mine !== asked || !me) return; // a newer refresh is under way, or nobody is logged in
  try {
    const { data } = await call(api.GET('/users/{handle}/notifications/unread', { params: { path: { handle: me } } }), {
      background: true,
    });
    if (mine === asked && typeof data.count === 'number') publish({ handle: me, unread: data });
  } catch {
    /* a missed refresh is not worth a message; the next one asks again */
  }
}

/** Everything shown was just marked read: the badge goes at once (a refresh then confirms). */
export function clearUnread(handle: string): void {
  asked++;
  publish({ handle, unread: { count: 0, capped: false } });
}

/** `route`: the page shown; each new one refreshes the count. */
export function NotificationsLink({ handle, route }: { handle: string; route: Route }) {
  const { t } = useI18n();
  const [current, setCurrent] = useState<Known>(known);
  useEffect(() => {
    listeners.add(setCurrent);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Once per burst: events while a refresh is set change nothing (it reads them all).
    const soon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void refreshUnread();
      }, ASK_AFTER_MS);
    };
    const offEvent = live.onEvent((e) => e.kind === 'notification' && soon());
    const offReload = live.onReload(soon);
    return () => {
      listeners.delete(setCurrent);
      clearTimeout(timer);
      offEvent();
      offReload();
    };
  }, [handle]);
  // On the route's render, so this effect runs in the same pass as the new page's own: the page's
  // requests are in flight by the time whenQuiet looks. Not on the login page a session is about
  // to leave (its answer would race the home timeline's request).
  useEffect(() => {
    if (route.page !== 'login' && route.page !== 'register') void refreshUnread();
  }, [handle, route]);

  const unread = current?.handle === handle ? current.unread : null;
  const shown = unread && unread.count > 0 ? (unread.capped ? '99+' : String(unread.count)) : null;
  return (
    // data-unread: the count as last answered (absent before the first answer), for tests and styles.
    <a
      class="nav-notifications"
      href={href.notifications()}
      data-unread={unread ? (shown ?? '0') : undefined}
      aria-current={route.page === 'notifications' ? 'page' : undefined}
    >
      <Icon name="bell" />
      <span class="label">{t('nav.notifications')}</span>
      {shown && (
        // The number for the eye, words for the screen reader: the link reads "通知 3 条未读".
        <span class="badge">
          <span aria-hidden="true">{shown}</span>
          <span class="sr-only"> {t('notifications.unreadCount', { n: shown })}</span>
        </span>
      )}
    </a>
  );
}
