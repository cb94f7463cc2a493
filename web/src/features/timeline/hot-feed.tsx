// web/src/features/timeline/hot-feed.tsx — 热门微博: the posts most people liked, commented on or
// reposted lately, best first (GET /hot, ranked by a job every few minutes). Its own page, and
// the first screen of a newcomer whose home is still empty.
import { api, call, type Post } from '../../api/client';
import { usePaged } from '../../components/paged';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { PagedPosts } from '../posts/paged-posts';

export function HotFeed() {
  const { t } = useI18n();
  const list = usePaged<Post>(async (cursor?: string) => {
    const { data } = await call(api.GET('/hot', { params: { query: { limit: 20, ...(cursor ? { cursor } : {}) } } }));
    return { items: data.posts, nextCursor: data.nextCursor };
  }, []);
  return <PagedPosts list={list} empty={t('hot.empty')} />;
}

export function HotPage() {
  const { t } = useI18n();
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('hot.title')}</h1>
      <p>
        <a href={href.trending()}>{t('topics.trending')}</a>
      </p>
      <HotFeed />
    </section>
  );
}
