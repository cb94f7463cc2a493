// web/src/features/reactions/bookmarks-page.tsx — 我的收藏: the posts you bookmarked, newest
// bookmarked first, cursor-paged like every list. Yours alone (the API answers only you). A post
// you take out of your bookmarks here stays on the page until it is read again, its button off,
// so a slip is undone with one more press.
import { api, call, type Post } from '../../api/client';
import { usePaged } from '../../components/paged';
import { useI18n } from '../../i18n/i18n';
import { PagedPosts } from '../posts/paged-posts';

export function BookmarksPage({ handle }: { handle: string }) {
  const { t } = useI18n();
  const list = usePaged<Post>(
    async (cursor?: string) => {
      const { data } = await call(
        api.GET('/users/{handle}/bookmarks', {
          params: { path: { handle }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: data.posts, nextCursor: data.nextCursor };
    },
    [handle],
  );

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('bookmarks.title')}</h1>
      <PagedPosts list={list} empty={t('bookmarks.empty')} />
    </section>
  );
}
