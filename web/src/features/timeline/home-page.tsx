// web/src/features/timeline/home-page.tsx — the home timeline: compose on top, posts newest
// first with infinite scroll, a "new posts" notice while reading (counted when the live channel
// tells of new posts; the posts are never spliced in under the reader's eyes), and the
// regenerating state (206) said plainly and re-asked until it ends. The first render after login costs one request: the timeline page.
// Tabs over the feed (features/groups): 全部关注 is this timeline; a group's tab (`group`) is the
// same page read through that group's members, paged the same way.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { PagedFooter, usePaged } from '../../components/paged';
import { live } from '../../live/live';
import { useI18n } from '../../i18n/i18n';
import { Composer } from '../posts/composer';
import { PostCard } from '../posts/post-card';
import { withChanged } from '../posts/sync';
import { takeRestored } from '../settings/leave-account';
import { FEED_ID, GroupTabs, tabId } from '../groups/group-tabs';
import { HotFeed } from './hot-feed';
import { href } from '../../router';

const PAGE = 20;
/** A burst of new posts is counted once, this long after its first (an author posting a thread). */
const COUNT_AFTER_MS = 150;
const REGENERATING_RETRY_MS = 3_000;

export function HomePage({ handle, group }: { handle: string; group?: string | undefined }) {
  const { t } = useI18n();
  const [regenerating, setRegenerating] = useState(false);
  // Back from leaving (注销): said once, above the timeline.
  const [welcomeBack] = useState(takeRestored);
  /** How many newer posts wait above ("20+" past the check's cap); null: none. */
  const [fresh, setFresh] = useState<number | string | null>(null);

  const fetchPage = async (cursor?: string) => {
    const query = { limit: PAGE, ...(cursor ? { cursor } : {}) };
    const { data, status } = group
      ? await call(
          api.GET('/users/{handle}/groups/{groupId}/timeline', { params: { path: { handle, groupId: group }, query } }),
        )
      : await call(api.GET('/users/{handle}/timeline', { params: { path: { handle }, query } }));
    if (!cursor) setRegenerating(status === 206);
    return { items: data.posts, nextCursor: data.nextCursor };
  };
  const list = usePaged(fetchPage, [handle, group]);

  // While regenerating, ask again until the inbox is whole (206 → 200).
  useEffect(() => {
    if (!regenerating) return;
    const timer = setTimeout(list.reload, REGENERATING_RETRY_MS);
    return () => clearTimeout(timer);
  }, [regenerating, list.items]);

  // New posts while reading: the live channel tells of each post entering the timeline, and a
  // burst of them is counted with one cheap question (one round trip, nothing read but keys) of
  // how many entries are newer than the top one shown. None while the page is hidden: one when
  // it comes back. Also asked whenever the channel (re)opens (a post may have come between the
  // page's load and the channel's first position) and when it missed more than its log holds.
  // Deleted posts leave the page; edited ones are read again.
  const shown = useRef<Post[]>([]);
  shown.current = list.items;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let due = false;
    let stopped = false;
    const check = async () => {
      const newest = shown.current[0];
      // The count reads the whole timeline: on a group's tab it would count others' posts too.
      if (stopped || !newest || group) return;
      if (document.hidden) {
        due = true; // visibilitychange asks
        return;
      }
      due = false;
      try {
        const { data } = await call(
          api.GET('/users/{handle}/timeline/newer', { params: { path: { handle }, query: { after: newest.id } } }),
          { background: true },
        );
        // Counted against the top post now shown: the reader may have reloaded meanwhile.
        if (shown.current[0]?.id === newest.id)
          setFresh(data.count === 0 ? null : data.more ? `${data.count}+` : data.count);
      } catch {
        /* a missed count is not worth a message: the next event or reconnect asks again */
      }
    };
    // Once per burst: events while a count is set change nothing (it reads them all).
    const soon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void check();
      }, COUNT_AFTER_MS);
    };
    const visible = () => !document.hidden && due && void check();
    const offEvent = live.onEvent((e) => {
      if (e.kind === 'post') soon();
      else if (e.kind === 'deleted') list.setItems((items) => items.filter((p) => p.id !== e.postId));
      else if (e.kind === 'edited' && shown.current.some((p) => p.id === e.postId)) void reread(e.postId);
    });
    const offReload = live.onReload(soon);
    const offStatus = live.onStatus((s) => s === 'open' && soon());
    document.addEventListener('visibilitychange', visible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      offEvent();
      offReload();
      offStatus();
      document.removeEventListener('visibilitychange', visible);
    };
  }, [handle, group]);

  /** A post edited elsewhere: its new text, in place. */
  const reread = async (postId: string) => {
    try {
      const { data } = await call(api.GET('/posts/{postId}', { params: { path: { postId } } }), { background: true });
      list.setItems((items) => withChanged(items, data));
    } catch {
      /* the old text stays; a reload shows the new one */
    }
  };

  // The reader's own new post or repost goes on top at once (fan-out would bring it later); a
  // group's tab holds only its members' posts.
  const addMine = (post: Post) => {
    if (!group) list.setItems((items) => [post, ...items.filter((p) => p.id !== post.id)]);
  };
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
      <GroupTabs me={handle} selected={group} />
      {regenerating && (
        <p class="notice" role="status">
          {t(group ? 'groups.regenerating' : 'timeline.regenerating')}
        </p>
      )}
      {fresh !== null && (
        <button type="button" class="new-posts" onClick={showFresh}>
          {t('timeline.newPosts', { n: fresh })}
        </button>
      )}
      <div class="feed" id={FEED_ID} role="tabpanel" aria-labelledby={tabId(group)}>
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
      {list.done && list.items.length === 0 && !group ? (
        // A newcomer's first screen: what is hot, until the home has posts of its own.
        <div class="newcomer">
          <p class="notice">{t('hot.newcomer')}</p>
          <h2 class="part-title">{t('hot.title')}</h2>
          <HotFeed />
        </div>
      ) : (
        <PagedFooter
          list={list}
          empty={
            group ? (
              <>
                {t('groups.empty')} <a href={href.groups()}>{t('groups.emptyLink')}</a>
              </>
            ) : (
              t('timeline.empty')
            )
          }
        />
      )}
    </section>
  );
}
