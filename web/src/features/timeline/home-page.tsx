// web/src/features/timeline/home-page.tsx — the home timeline: compose on top, posts newest
// first with infinite scroll, a "new posts" notice while reading (a cheap check every few
// seconds while visible; the posts are never spliced in under the reader's eyes), and the regenerating state (206) said plainly and
// re-asked until it ends. The first render after login costs one request: the timeline page.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { PagedFooter, usePaged } from '../../components/paged';
import { useI18n } from '../../i18n/i18n';
import { Composer } from '../posts/composer';
import { PostCard } from '../posts/post-card';
import { withChanged } from '../posts/sync';
import { takeRestored } from '../settings/leave-account';

const PAGE = 20;
/** How often a visible home page asks whether anything newer arrived (fan-out takes about 1 s). */
const CHECK_MS = 4_000;
const MAX_CHECK_MS = 60_000;
const REGENERATING_RETRY_MS = 3_000;

export function HomePage({ handle }: { handle: string }) {
  const { t } = useI18n();
  const [regenerating, setRegenerating] = useState(false);
  // Back from leaving (注销): said once, above the timeline.
  const [welcomeBack] = useState(takeRestored);
  /** How many newer posts wait above ("20+" past the check's cap); null: none. */
  const [fresh, setFresh] = useState<number | string | null>(null);

  const fetchPage = async (cursor?: string) => {
    const { data, status } = await call(
      api.GET('/users/{handle}/timeline', {
        params: { path: { handle }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
      }),
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

  // New posts while reading: a cheap check (one round trip, nothing read but keys) of how many
  // entries are newer than the top one shown, every few seconds while the page is visible; none
  // while it is hidden, and one at once when it comes back. Failures back off.
  const shown = useRef<Post[]>([]);
  shown.current = list.items;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wait = CHECK_MS;
    let stopped = false;
    const check = async () => {
      clearTimeout(timer);
      const newest = shown.current[0];
      if (stopped || document.hidden) return; // visibilitychange starts it again
      if (newest) {
        try {
          const { data } = await call(
            api.GET('/users/{handle}/timeline/newer', { params: { path: { handle }, query: { after: newest.id } } }),
            { background: true },
          );
          // Counted against the top post now shown: the reader may have reloaded meanwhile.
          if (shown.current[0]?.id === newest.id)
            setFresh(data.count === 0 ? null : data.more ? `${data.count}+` : data.count);
          wait = CHECK_MS;
        } catch {
          wait = Math.min(wait * 2, MAX_CHECK_MS); // a missed check is not worth a message
        }
      }
      if (!stopped) timer = setTimeout(check, wait);
    };
    const visible = () => !document.hidden && void check();
    timer = setTimeout(check, CHECK_MS);
    document.addEventListener('visibilitychange', visible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [handle]);

  // The reader's own new post or repost goes on top at once (fan-out would bring it later).
  const addMine = (post: Post) => list.setItems((items) => [post, ...items.filter((p) => p.id !== post.id)]);
  const replace = (post: Post) => list.setItems((items) => withChanged(items, post));

  const showFresh = () => {
    setFresh(null);
    list.reload();
  };

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('timeline.title')}</h1>
      {welcomeBack && (
        <p class="notice" role="status">
          {t('leave.restored')}
        </p>
      )}
      <Composer onPublished={addMine} />
      {regenerating && (
        <p class="notice" role="status">
          {t('timeline.regenerating')}
        </p>
      )}
      {fresh !== null && (
        <button type="button" class="new-posts" onClick={showFresh}>
          {t('timeline.newPosts', { n: fresh })}
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
