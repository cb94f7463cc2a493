// web/src/app.tsx — the shell: header (navigation with the unread notifications badge, language
// switch, log out), the page for the current route, and the rules that tie them together: pages
// that need a session send you to log in (and the login brings you back to them); when a session
// ends (logout, expiry, a refused token) you land on the login page with a sentence saying why;
// when another tab logs out or in as someone else, this one follows at once, visibly.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { logOut, type Restored } from './api/client';
import { Boundary } from './components/boundary';
import { ConfirmHost } from './components/confirm';
import { Icon, type IconName } from './components/icons';
import { PageTitle } from './components/page-title';
import { Sidebar, useWide } from './features/sidebar/sidebar';
import { HomePage } from './features/timeline/home-page';
import { GroupsPage } from './features/groups/groups-page';
import { VisitorHome } from './features/timeline/visitor-home';
import { LoginPage, RegisterPage } from './features/auth/auth-pages';
import { PostPage } from './features/posts/post-page';
import { HistoryPage } from './features/posts/history-page';
import { ProfilePage } from './features/profile/profile-page';
import { LikersPage } from './features/reactions/likers-page';
import { RelationsPage } from './features/profile/relations-page';
import { NotificationsPage } from './features/notifications/notifications-page';
import { NotificationsLink } from './features/notifications/unread';
import { live } from './live/live';
import { OfflineNotice } from './live/offline-notice';
import { TopicPage } from './features/topics/topic-page';
import { TrendingPage } from './features/topics/trending-page';
import { HiddenPage } from './features/blocks/hidden-page';
import { BookmarksPage } from './features/reactions/bookmarks-page';
import { SearchPage } from './features/people/search-page';
import { HotPage } from './features/timeline/hot-feed';
import { SettingsPage } from './features/settings/settings-page';
import { ConversationPage } from './features/messages/conversation-page';
import { MessagesPage } from './features/messages/messages-page';
import { MessagesLink } from './features/messages/unread';
import { I18nContext, LOCALES, initialLocale, saveLocale, translator, useI18n, type Locale } from './i18n/i18n';
import type { MessageKey } from './i18n/messages';
import { href, navigate, rememberReturn, takeReturn, useRoute, type Route } from './router';
import { session, type Session } from './session';

export function App({ restoring }: { restoring: Promise<Restored> }) {
  const [locale, setLocale] = useState<Locale>(initialLocale);
  const i18n = useMemo(
    () => ({
      locale,
      t: translator(locale),
      setLocale: (l: Locale) => {
        saveLocale(l);
        setLocale(l);
      },
    }),
    [locale],
  );
  const [ready, setReady] = useState(false);
  const [current, setCurrent] = useState<Session | null>(() => session.get());
  const [notice, setNotice] = useState<MessageKey | undefined>();
  /** What another tab did to this one's session, said above the page. */
  const [elsewhere, setElsewhere] = useState<{ key: MessageKey; handle?: string } | undefined>();
  const route = useRoute();
  const wide = useWide();

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  useEffect(() => {
    const off = session.subscribe((s, { reason, remote }) => {
      setCurrent(s);
      setNotice(s ? undefined : reason === 'expired' ? 'auth.sessionExpired' : 'auth.loggedOut');
      setElsewhere(
        remote
          ? s
            ? { key: 'auth.switchedElsewhere', handle: s.handle }
            : { key: 'auth.loggedOutElsewhere' }
          : undefined,
      );
      if (s) return;
      // An expired session may come back after a login: to the page it ended on.
      if (reason === 'expired') rememberReturn(location.hash);
      // Logged out in this tab: to the login page. From another tab: a public page stays, with
      // the login link in the header; one that needs a login goes (the effect below).
      if (!remote) navigate(href.login());
    });
    restoring.then((found) => {
      setCurrent(session.get());
      // Logged in when this tab last looked, and the session ended meanwhile: say so.
      if (found === 'refused') setNotice('auth.sessionExpired');
      setReady(true);
    });
    return off;
  }, []);

  // What the page shows, as soon as it shows it: requests check it (api/client.ts) so none goes
  // out under another user than this one.
  useLayoutEffect(() => session.shown(current?.handle ?? null), [current]);

  // The live channel follows the session: open while someone is logged in, closed at logout.
  useEffect(() => {
    if (current) live.start(current.handle);
    else live.stop();
  }, [current?.handle]);

  // The home page has a logged-out version of its own (the visitor's first screen).
  const needsSession =
    route.page === 'notifications' ||
    route.page === 'hidden' ||
    route.page === 'bookmarks' ||
    route.page === 'settings' ||
    route.page === 'messages' ||
    route.page === 'conversation' ||
    route.page === 'groups';
  useEffect(() => {
    if (!ready) return;
    if (needsSession && !current) {
      rememberReturn(location.hash);
      navigate(href.login());
    }
    if (current && (route.page === 'login' || route.page === 'register')) navigate(takeReturn());
  }, [ready, needsSession, current, route.page]);

  return (
    <I18nContext.Provider value={i18n}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is an in-page link; the router owns the hash, so it moves the focus itself */}
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault(); // the hash is the router's: move the focus, not the route
          document.getElementById('main')?.focus();
        }}
      >
        {i18n.t('nav.skip')}
      </a>
      <Header current={current} route={route} />
      <PageTitle routeKey={`${current?.handle ?? ''} ${JSON.stringify(route)}`} appName={i18n.t('app.name')} />
      <div class="layout">
        <Navigation current={current} route={route} />
        <div class="center">
          {elsewhere && (
            <p class="notice session-notice" role="status">
              {i18n.t(elsewhere.key, { handle: elsewhere.handle ?? '' })}
              {!current && (
                <>
                  {' '}
                  <a href={href.login()} onClick={() => rememberReturn(location.hash)}>
                    {i18n.t('nav.login')}
                  </a>
                </>
              )}
            </p>
          )}
          {current && <OfflineNotice />}
          {/* Keyed by the user: a switch of user (or a logout) mounts every page afresh for the new one. */}
          <main id="main" key={current?.handle ?? ''} tabIndex={-1}>
            {/* A page that fails to render says so, and the header and language switch still work. */}
            <Boundary key={JSON.stringify(route)} fallback={(retry) => <BrokenPage retry={retry} />}>
              {ready ? page(route, current, notice ? i18n.t(notice) : undefined) : null}
            </Boundary>
          </main>
        </div>
        {wide && ready && <Sidebar current={current} />}
      </div>
      <ConfirmHost />
      <footer class="site-foot">
        <a href="api-docs/">{i18n.t('nav.apiDocs')}</a>
      </footer>
    </I18nContext.Provider>
  );
}

function page(route: Route, current: Session | null, notice: string | undefined) {
  switch (route.page) {
    case 'home':
      return current ? (
        <HomePage key={current.handle} handle={current.handle} group={route.group} />
      ) : (
        <VisitorHome notice={notice} />
      );
    case 'login':
      return <LoginPage notice={notice} />;
    case 'register':
      return <RegisterPage />;
    case 'post':
      return <PostPage key={route.id} id={route.id} comment={route.comment} />;
    case 'likers':
      return <LikersPage key={route.id} id={route.id} />;
    case 'history':
      return <HistoryPage key={route.id} id={route.id} />;
    case 'profile':
      return <ProfilePage key={route.handle} handle={route.handle} />;
    case 'relations':
      return (
        <RelationsPage key={`${route.handle}/${route.direction}`} handle={route.handle} direction={route.direction} />
      );
    case 'notifications':
      return current ? <NotificationsPage key={current.handle} handle={current.handle} /> : null;
    case 'trending':
      return <TrendingPage />;
    case 'topic':
      return <TopicPage key={route.name} name={route.name} />;
    case 'hidden':
      return current ? (
        <HiddenPage key={`${current.handle}/${route.kind}`} handle={current.handle} kind={route.kind} />
      ) : null;
    case 'bookmarks':
      return current ? <BookmarksPage key={current.handle} handle={current.handle} /> : null;
    case 'search':
      return <SearchPage key={`${route.q}/${route.tab}`} q={route.q} tab={route.tab} current={current} />;
    case 'hot':
      return <HotPage />;
    case 'settings':
      return current ? <SettingsPage key={current.handle} handle={current.handle} /> : null;
    case 'messages':
      return current ? <MessagesPage key={current.handle} handle={current.handle} /> : null;
    case 'conversation':
      return current ? (
        <ConversationPage key={`${current.handle}/${route.peer}`} me={current.handle} peer={route.peer} />
      ) : null;
    case 'groups':
      return current ? <GroupsPage key={current.handle} handle={current.handle} /> : null;
    case 'notFound':
      return <NotFound />;
  }
}

/** The top bar: the brand, finding people, the language, and logging out (or in). One line at
 *  every width: on a phone 找人 is an icon button that opens the field in the bar's place
 *  (styles.css hides the field, or the rest of the bar while it is open). */
function Header({ current, route }: { current: Session | null; route: Route }) {
  const { t, locale, setLocale } = useI18n();
  const [searching, setSearching] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  return (
    <header class={`site-head${searching ? ' searching' : ''}`}>
      <a class="brand" href={href.home()}>
        {t('app.name')}
      </a>
      <PeopleSearchBox
        key={route.page === 'search' ? route.q : ''}
        initial={route.page === 'search' ? route.q : ''}
        open={searching}
        onDone={(back) => {
          setSearching(false);
          if (back) toggle.current?.focus();
        }}
      />
      <button
        ref={toggle}
        type="button"
        class="icon-button search-toggle"
        aria-expanded={searching}
        aria-controls="site-search"
        aria-label={t(searching ? 'search.close' : 'search.open')}
        onClick={() => setSearching((s) => !s)}
      >
        <Icon name={searching ? 'close' : 'search'} />
      </button>
      <label class="lang">
        <span class="sr-only">{t('nav.language')}</span>
        <select value={locale} onChange={(e) => setLocale((e.target as HTMLSelectElement).value as Locale)}>
          {LOCALES.map((l) => (
            <option key={l.id} value={l.id} lang={l.id}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
      {current && (
        <button type="button" class="secondary logout" onClick={logOut}>
          {t('nav.logout')}
        </button>
      )}
    </header>
  );
}

/** 找人: a search box whose Enter opens the search page for what was typed. `open`: shown on a
 *  phone (opened by the header's icon button), focused as it opens; Esc or a search closes it. */
function PeopleSearchBox({
  initial,
  open,
  onDone,
}: {
  initial: string;
  open: boolean;
  onDone: (back?: boolean) => void;
}) {
  const { t } = useI18n();
  const [q, setQ] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: the form is the search landmark; a <search> wrapper would change the header's layout
    <form
      role="search"
      id="site-search"
      class="site-search"
      onSubmit={(e) => {
        e.preventDefault();
        if (!q.trim()) return;
        navigate(href.search(q.trim()));
        onDone();
      }}
    >
      <input
        ref={input}
        type="search"
        value={q}
        maxLength={50}
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) onDone(true);
        }}
      />
    </form>
  );
}

/** The main navigation: a column on the left on wide screens, a tab bar at the bottom on narrow
 *  ones (styles.css), icon over a short label so no label wraps. The current page is marked. */
function Navigation({ current, route }: { current: Session | null; route: Route }) {
  const { t } = useI18n();
  const item = (to: string, icon: IconName, label: string, on: boolean) => (
    <a href={to} aria-current={on ? 'page' : undefined}>
      <Icon name={icon} />
      <span class="label">{label}</span>
    </a>
  );
  return (
    <nav class="site-nav" aria-label={t('nav.main')}>
      {current ? (
        <>
          {item(href.home(), 'home', t('nav.home'), route.page === 'home')}
          <NotificationsLink handle={current.handle} route={route} />
          <MessagesLink handle={current.handle} route={route} />
          {item(
            href.trending(),
            'topic',
            t('nav.trending'),
            route.page === 'trending' || route.page === 'topic' || route.page === 'hot',
          )}
          {item(
            href.profile(current.handle),
            'user',
            t('nav.profile'),
            route.page === 'profile' && route.handle === current.handle,
          )}
          {item(href.bookmarks(), 'bookmark', t('nav.bookmarks'), route.page === 'bookmarks')}
          {item(href.settings(), 'settings', t('nav.settings'), route.page === 'settings')}
        </>
      ) : (
        <>
          {item(
            href.trending(),
            'topic',
            t('nav.trending'),
            route.page === 'trending' || route.page === 'topic' || route.page === 'hot',
          )}
          {item(href.login(), 'login', t('nav.login'), route.page === 'login')}
          {item(href.register(), 'register', t('nav.register'), route.page === 'register')}
        </>
      )}
    </nav>
  );
}

function BrokenPage({ retry }: { retry: () => void }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('error.pageTitle')}</h1>
      <p>{t('error.page')}</p>
      <p>
        <button type="button" class="secondary" onClick={retry}>
          {t('error.retry')}
        </button>{' '}
        <a href={href.home()}>{t('notFound.back')}</a>
      </p>
    </section>
  );
}

function NotFound() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('notFound.title')}</h1>
      <p>
        <a href={href.home()}>{t('notFound.back')}</a>
      </p>
    </section>
  );
}
