// web/src/router.ts — the one place routes are declared. Hash-based (`#/u/ann`), so any static
// host serves the client without rewrite rules, and a reload lands on the same page.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  /** `group`: a group's timeline (分组, 特别关注 is `special`); none: the whole home timeline. */
  | { page: 'home'; group?: string }
  | { page: 'login' }
  | { page: 'register' }
  /** `comment`: the comment to scroll to and mark (a notification's link to it). */
  | { page: 'post'; id: string; comment?: string }
  | { page: 'likers'; id: string }
  | { page: 'history'; id: string }
  | { page: 'profile'; handle: string }
  | { page: 'relations'; handle: string; direction: 'following' | 'followers' }
  | { page: 'notifications' }
  | { page: 'trending' }
  | { page: 'topic'; name: string }
  | { page: 'hidden'; kind: HiddenKind }
  | { page: 'bookmarks' }
  /** 搜索: one query over people, topics and posts; `tab` picks one (all: a little of each). */
  | { page: 'search'; q: string; tab: SearchTab }
  /** 热门微博: the posts most people engage with now. */
  | { page: 'hot' }
  | { page: 'settings' }
  /** 私信: your conversations, or the one with `peer`. */
  | { page: 'messages' }
  | { page: 'conversation'; peer: string }
  /** 分组: your groups, to make, rename, delete, and to see and trim their members. */
  | { page: 'groups' }
  | { page: 'notFound' };

export const SEARCH_TABS = ['all', 'people', 'topics', 'posts'] as const;
export type SearchTab = (typeof SEARCH_TABS)[number];

/** Whom you keep away: users you block (拉黑) or mute (屏蔽). Your own lists only. */
export type HiddenKind = 'blocks' | 'mutes';

const PATTERNS: [RegExp, (m: string[]) => Route][] = [
  [/^\/$/, () => ({ page: 'home' })],
  // A group's tab of the home page: the home stays `#/`, so its address and Back are unchanged.
  [/^\/\?group=([^&/]+)$/, (m) => ({ page: 'home', group: m[1]! })],
  [/^\/groups$/, () => ({ page: 'groups' })],
  [/^\/login$/, () => ({ page: 'login' })],
  [/^\/register$/, () => ({ page: 'register' })],
  [/^\/post\/([^/?]+)$/, (m) => ({ page: 'post', id: m[1]! })],
  [/^\/post\/([^/?]+)\?comment=([^&/]+)$/, (m) => ({ page: 'post', id: m[1]!, comment: m[2]! })],
  [/^\/post\/([^/]+)\/likes$/, (m) => ({ page: 'likers', id: m[1]! })],
  [/^\/post\/([^/]+)\/history$/, (m) => ({ page: 'history', id: m[1]! })],
  [/^\/u\/([^/]+)$/, (m) => ({ page: 'profile', handle: m[1]! })],
  [
    /^\/u\/([^/]+)\/(following|followers)$/,
    (m) => ({ page: 'relations', handle: m[1]!, direction: m[2] as 'following' | 'followers' }),
  ],
  [/^\/notifications$/, () => ({ page: 'notifications' })],
  [/^\/topics$/, () => ({ page: 'trending' })],
  // A topic name never holds '/' (the API refuses it), so one segment is the whole name.
  [/^\/topics\/([^/]+)$/, (m) => ({ page: 'topic', name: m[1]! })],
  [/^\/(blocks|mutes)$/, (m) => ({ page: 'hidden', kind: m[1] as HiddenKind })],
  [/^\/bookmarks$/, () => ({ page: 'bookmarks' })],
  [/^\/settings$/, () => ({ page: 'settings' })],
  [/^\/messages$/, () => ({ page: 'messages' })],
  [/^\/messages\/([^/]+)$/, (m) => ({ page: 'conversation', peer: m[1]! })],
  // The query is one segment: its '/' travels encoded (href.search).
  [/^\/search\/?([^/]*)$/, (m) => ({ page: 'search', q: m[1]!, tab: 'all' })],
  [/^\/search\/([^/]*)\/(all|people|topics|posts)$/, (m) => ({ page: 'search', q: m[1]!, tab: m[2] as SearchTab })],
  [/^\/hot$/, () => ({ page: 'hot' })],
];

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  for (const [re, make] of PATTERNS) {
    const m = re.exec(path);
    if (m) return make(m.map((part) => safeDecode(part)));
  }
  return { page: 'notFound' };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const href = {
  /** With `group`, that group's tab of the home page. */
  home: (group?: string) => (group ? `#/?group=${encodeURIComponent(group)}` : '#/'),
  groups: () => '#/groups',
  login: () => '#/login',
  register: () => '#/register',
  /** With `comment`, the post's page scrolls to that comment and marks it. */
  post: (id: string, comment?: string) =>
    `#/post/${encodeURIComponent(id)}${comment ? `?comment=${encodeURIComponent(comment)}` : ''}`,
  likers: (id: string) => `#/post/${encodeURIComponent(id)}/likes`,
  history: (id: string) => `#/post/${encodeURIComponent(id)}/history`,
  profile: (handle: string) => `#/u/${encodeURIComponent(handle)}`,
  relations: (handle: string, direction: 'following' | 'followers') => `#/u/${encodeURIComponent(handle)}/${direction}`,
  notifications: () => '#/notifications',
  trending: () => '#/topics',
  topic: (name: string) => `#/topics/${encodeURIComponent(name)}`,
  hidden: (kind: HiddenKind) => `#/${kind}`,
  bookmarks: () => '#/bookmarks',
  settings: () => '#/settings',
  messages: () => '#/messages',
  conversation: (peer: string) => `#/messages/${encodeURIComponent(peer)}`,
  search: (q: string, tab: SearchTab = 'all') => `#/search/${encodeURIComponent(q)}${tab === 'all' ? '' : `/${tab}`}`,
  hot: () => '#/hot',
};

const RETURN_TO = 'weibo.returnTo';

/**
 * A page that needs a login was asked for while logged out: remember it, so the login lands
 * there (sessionStorage: this tab only, survives a reload of the login page; not a secret).
 */
export function rememberReturn(hash: string): void {
  const route = parseRoute(hash);
  if (route.page === 'login' || route.page === 'register' || route.page === 'notFound') return;
  try {
    sessionStorage.setItem(RETURN_TO, hash);
  } catch {
    /* no storage: the login lands on home */
  }
}

/** Where a login should land: the page remembered (once), else home. */
export function takeReturn(): string {
  try {
    const to = sessionStorage.getItem(RETURN_TO);
    sessionStorage.removeItem(RETURN_TO);
    if (to && parseRoute(to).page !== 'notFound') return to;
  } catch {
    /* no storage */
  }
  return href.home();
}

/** To the login page, which comes back here after the login. */
export function toLogin(): void {
  rememberReturn(location.hash);
  navigate(href.login());
}

export function navigate(to: string): void {
  if (location.hash !== to) location.hash = to;
}

// Every history entry gets an id (in history.state) the first time it is shown. Coming back to an
// entry (Back, Forward) finds the same id, so a page can restore what it had loaded (paged.tsx)
// and the reader's place in it; a link makes a new entry, which starts afresh at the top.
const scrolls = new Map<string, number>();
let entry = entryOf();
history.scrollRestoration = 'manual'; // the browser would restore before the list is drawn
addEventListener('scroll', () => scrolls.set(entry, scrollY), { passive: true });

function entryOf(): string {
  const state = history.state as { entry?: string } | null;
  if (state?.entry) return state.entry;
  const id = crypto.randomUUID();
  history.replaceState({ ...state, entry: id }, '');
  return id;
}

/** The id of the history entry shown now. */
export function currentEntry(): string {
  return entry;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => {
      entry = entryOf();
      const back = scrolls.get(entry) ?? 0;
      setRoute(parseRoute(location.hash));
      // After the new page has drawn (a restored list draws in its first render).
      requestAnimationFrame(() => requestAnimationFrame(() => window.scrollTo(0, back)));
    };
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
