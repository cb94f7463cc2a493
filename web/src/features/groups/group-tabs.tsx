// web/src/features/groups/group-tabs.tsx — the tabs over the home feed: 全部关注 (the whole home
// timeline), 特别关注, then each of your own groups, and a link to manage them. Each tab is a link
// (the selected one is in the address, so a reload keeps it); the ARIA tabs pattern for the
// keyboard: one tab stop, ← / → / Home / End move between tabs, Enter opens one. The list of
// groups is a hint on the whole timeline (asked once the page's own requests have answered, so
// the first page still costs one round trip); on a group's tab it is asked at once.
import { useEffect, useRef, useState } from 'preact/hooks';
import { whenQuiet, type Group } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { groupName, knownGroups, loadGroups, SPECIAL } from './groups';

/** The id of the feed the tabs control (home-page.tsx). */
export const FEED_ID = 'home-feed';
export const tabId = (group: string | undefined) => `home-tab-${group ?? 'all'}`;

export function GroupTabs({ me, selected }: { me: string; selected: string | undefined }) {
  const { t } = useI18n();
  const [groups, setGroups] = useState<Group[] | null>(() => knownGroups(me));
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let stopped = false;
    (async () => {
      if (!selected) await whenQuiet();
      if (stopped) return;
      try {
        const found = await loadGroups(me, { background: !selected });
        if (!stopped) setGroups(found);
      } catch {
        /* the tabs known so far stay; the manage page says what failed */
      }
    })();
    return () => {
      stopped = true;
    };
  }, [me]);

  // Until the list is read: the two tabs everyone has (and the selected one, once it is known).
  const tabs: { id: string | undefined; name: string }[] = [
    { id: undefined, name: t('groups.all') },
    ...(groups ?? []).map((g) => ({ id: g.id, name: groupName(g, t) })),
  ];
  if (!groups) tabs.push({ id: SPECIAL, name: t('groups.special') });

  const keys = (e: KeyboardEvent) => {
    const all = [...(list.current?.querySelectorAll<HTMLAnchorElement>('[role=tab]') ?? [])];
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % all.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + all.length) % all.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? all.length - 1
              : -1;
    if (to < 0 || at < 0) return;
    e.preventDefault();
    all[to]?.focus();
  };

  return (
    <div class="group-tabs">
      <div ref={list} role="tablist" aria-label={t('groups.tabs')} class="tab-list" onKeyDown={keys}>
        {tabs.map((tab, i) => {
          const on = tab.id === selected;
          // One tab stop: the selected tab, or the first while the selected one is not listed.
          return (
            <a
              key={tab.id ?? ''}
              id={tabId(tab.id)}
              role="tab"
              href={href.home(tab.id)}
              aria-selected={on}
              aria-controls={on ? FEED_ID : undefined}
              tabIndex={on || (i === 0 && !tabs.some((x) => x.id === selected)) ? 0 : -1}
              class="tab"
            >
              {tab.name}
            </a>
          );
        })}
      </div>
      <a class="manage-groups" href={href.groups()}>
        {t('groups.manage')}
      </a>
    </div>
  );
}
