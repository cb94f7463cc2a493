// web/src/features/reactions/likers-page.tsx — who liked a post (reached from its like count),
// most recent first, cursor-paged.
import { api, call, type Liker } from '../../api/client';
import { Avatar, Byline, personOf } from '../../components/avatar';
import { BackLink } from '../../components/back-link';
import { PagedFooter, usePaged } from '../../components/paged';
import { RelativeTime } from '../../components/time';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';

export function LikersPage({ id }: { id: string }) {
  const { t } = useI18n();
  const list = usePaged<Liker>(
    async (cursor?: string) => {
      const { data } = await call(
        api.GET('/posts/{postId}/likes', {
          params: { path: { postId: id }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: data.users, nextCursor: data.nextCursor };
    },
    [id],
  );

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('likers.title')}</h1>
      <BackLink href={href.post(id)}>{t('likers.back')}</BackLink>
      <ul class="users">
        {list.items.map((u) => (
          <li key={u.handle}>
            <span class="who">
              <Avatar {...personOf(u)} />
              <Byline {...personOf(u)} />
            </span>{' '}
            <span class="muted">
              <RelativeTime iso={u.likedAt} />
            </span>
          </li>
        ))}
      </ul>
      <PagedFooter list={list} empty={t('likers.empty')} />
    </section>
  );
}
