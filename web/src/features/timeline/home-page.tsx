// web/src/features/timeline/home-page.tsx — the home timeline: compose on top, posts newest
// first with infinite scroll, a "new posts" notice while reading (the first page is polled,
// never spliced in under the reader's eyes), and the regenerating state (206) said plainly and
// re-asked until it ends. The first render after login costs one request: the timeline page.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { PagedFooter, usePaged } from '../../components/paged';
import { useI18n } from '../../i18n/i18n';
import { Composer } from '../posts/composer';
import { PostCard } from '../posts/post-card';

const PAGE = 20;
const POLL_MS = 15_000;
const REGENERATING_RETRY_MS = 3_000;

export function HomePage({ handle }: { handle: string }) {
  const { t } = useI18n();
  const [regenerating, setRegenerating] = useState(false);
  const [fresh, setFresh] = useState<Post[]>([]);

  const fetchPage = async (cursor?: string) => {
    const { data, status } = await call(
      api.GET('/users/{handle}/timeline', { params: { path: { handle }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } }),
    );
    if (!cursor) setRegenerating(status === 206);
    return { items: data.posts, nextCursor: data.nextCursor };
  };
  const list = usePaged(fetchPage, [handle]);

  // While regenerating, ask again until the inbox is whole (206 → 200).
  useEffect(() => {
    if (!regenerating) return;
    const timer = setTimeout(list.reload, REGENERATING_RETRY_MS);
    return () => clearTimeout(timer);
  }, [regenerating, list.items]);

  // New posts while reading: poll the first page, count what is newer than the top one shown.
  const shown = useRef<Post[]>([]);
  shown.current = list.items;
  useEffect(() => {
    const timer = setInterval(async () => {
      const newest = shown.current[0];
      if (document.hidden || !newest) return;
      try {
        const { data } = await call(api.GET('/users/{handle}/timeline', { params: { path: { handle }, query: { limit: PAGE } } }));
        const ids = new Set(shown.current.map((p) => p.id));
        setFresh(data.posts.filter((p) => p.createdAt >= newest.createdAt && !ids.has(p.id)));
      } catch {
        /* a missed poll is not worth a message; the next one tries again */
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [handle]);

  // The reader's own new post or repost goes on top at once (fan-out would bring it later).
  const addMine = (post: Post) => list.setItems((items) => [post, ...items.filter((p) => p.id !== post.id)]);
  const replace = (post: Post) => list.setItems((items) => items.map((p) => (p.id === post.id ? post : p)));

  const showFresh = () => {
    setFresh([]);
    list.reload();
  };

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('timeline.title')}</h1>
      <Composer onPublished={addMine} />
      {regenerating && (
        <p class="notice" role="status">
          {t('timeline.regenerating')}
        </p>
      )}
      {fresh.length > 0 && (
        <button type="button" class="new-posts" onClick={showFresh}>
          {fresh.length === 1 ? t('timeline.newPost') : t('timeline.newPosts', { n: fresh.length >= PAGE ? `${PAGE}+` : fresh.length })}
        </button>
      )}
      <div class="feed">
        {list.items.map((post) => (
          <PostCard
            key={post.id}
            post={post}
            onChange={replace}
            onReposted={addMine}
            onDeleted={(id) => list.setItems((items) => items.filter((p) => p.id !== id))}
          />
        ))}
      </div>
      <PagedFooter list={list} empty={t('timeline.empty')} />
    </section>
  );
}
