// web/src/features/profile/relations-page.tsx — whom a user follows, or who follows them,
// most recent first, cursor-paged.
import { api, call, type RelationEdge } from '../../api/client';
import { Avatar, Byline, personOf } from '../../components/avatar';
import { BackLink } from '../../components/back-link';
import { PagedFooter, usePaged } from '../../components/paged';
import { absoluteDate, useI18n } from '../../i18n/i18n';
import { href } from '../../router';

export function RelationsPage({ handle, direction }: { handle: string; direction: 'following' | 'followers' }) {
  const { t, locale } = useI18n();
  const list = usePaged<RelationEdge>(
    async (cursor?: string) => {
      const params = { path: { handle }, query: { limit: 50, ...(cursor ? { cursor } : {}) } };
      const { data } =
        direction === 'following'
          ? await call(api.GET('/users/{handle}/following', { params }))
          : await call(api.GET('/users/{handle}/followers', { params }));
      return { items: data.users, nextCursor: data.nextCursor };
    },
    [handle, direction],
  );

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">
        {direction === 'following' ? t('relations.followingOf', { handle }) : t('relations.followersOf', { handle })}
      </h1>
      <BackLink href={href.profile(handle)}>{t('relations.back', { handle })}</BackLink>
      <ul class="users">
        {list.items.map((u) => (
          <li key={u.handle}>
            <span class="who">
              <Avatar {...personOf(u)} />
              <Byline {...personOf(u)} />
            </span>{' '}
            <span class="muted">{t('relations.since', { date: absoluteDate(u.since, locale) })}</span>
          </li>
        ))}
      </ul>
      <PagedFooter list={list} empty={t('relations.empty')} />
    </section>
  );
}
