// web/src/features/notifications/notifications-page.tsx — your notifications (通知), newest first,
// cursor-paged. Likes, reposts and new followers come grouped as the API groups them ("carol 和另外
// 12 人赞了你的微博": the newest actor named, the rest counted — the count is exact); comments,
// replies and mentions one by one with the comment's words. Each links to the post it is about.
// Unread ones say so in words (not only by colour). Showing the first page marks everything up to
// its newest entry read, so the header's badge drops to 0; the entries keep their "new" mark
// while this page is open, so the reader still sees what was new. Tabs (全部, @我的, 评论, 赞)
// show one kind each; a comment's entry links to the comment itself on the post's page.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Notification } from '../../api/client';
import { Avatar, Byline, personOf } from '../../components/avatar';
import { PagedFooter, usePaged } from '../../components/paged';
import { RelativeTime } from '../../components/time';
import { useI18n, type Translate } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/messages';
import { href } from '../../router';
import { clearUnread, refreshUnread } from './unread';

const PAGE = 20;
/** How much of a post's text a notification shows, in code points (a comment comes cut to 100). */
const EXCERPT = 100;

/** The tabs: all, @我的, 评论 (comments and replies), 赞; each asks the API for its kinds only. */
const FILTERS = ['all', 'mentions', 'comments', 'likes'] as const;
type Filter = (typeof FILTERS)[number];

export function NotificationsPage({ handle }: { handle: string }) {
  const { t } = useI18n();
  const [filter, setFilter] = useState<Filter>('all');
  const list = usePaged<Notification>(
    async (cursor?: string) => {
      const { data } = await call(
        api.GET('/users/{handle}/notifications', {
          params: { path: { handle }, query: { limit: PAGE, filter, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: data.notifications, nextCursor: data.nextCursor };
    },
    [handle, filter],
  );

  // The first page of all of them is on screen: mark read up to its newest entry (the marker
  // only moves forward; a tab's newest is not the newest of all, so it marks nothing).
  const newest = filter === 'all' ? list.items[0] : undefined;
  useEffect(() => {
    if (!newest?.unread) return;
    call(api.PUT('/users/{handle}/notifications/read', { params: { path: { handle } }, body: { upTo: newest.id } }))
      .then(() => {
        clearUnread(handle);
        void refreshUnread(); // anything newer that arrived meanwhile
      })
      .catch(() => {}); // still unread: the badge keeps counting, the next visit marks it
  }, [newest?.id]);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('notifications.title')}</h1>
      {/* biome-ignore lint/a11y/useSemanticElements: a <fieldset> would bring its own border, padding and layout to this row of buttons */}
      <div class="notification-filters" role="group" aria-label={t('notifications.filters')}>
        {FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            class={filter === f ? 'secondary on' : 'secondary'}
            aria-pressed={filter === f}
            data-filter={f}
            onClick={() => setFilter(f)}
          >
            {t(`notifications.filter.${f}`)}
          </button>
        ))}
      </div>
      <ol class="notifications">
        {list.items.map((n) => (
          <NotificationEntry key={n.id} n={n} />
        ))}
      </ol>
      <PagedFooter list={list} empty={t(filter === 'all' ? 'notifications.empty' : 'notifications.emptyFilter')} />
    </section>
  );
}

// Grouped types: one actor alone, one actor and N others, or only a count (every actor in the
// group hidden: blocked, muted or gone); the count picks the plural form ("and 1 other").
const GROUPED = {
  like: ['notifications.like', 'notifications.likeOthers', 'notifications.likePeople'],
  commentLike: ['notifications.commentLike', 'notifications.commentLikeOthers', 'notifications.commentLikePeople'],
  repost: ['notifications.repost', 'notifications.repostOthers', 'notifications.repostPeople'],
  follow: ['notifications.follow', 'notifications.followOthers', 'notifications.followPeople'],
} as const satisfies Record<string, readonly MessageKey[]>;

function sentenceKey(n: Notification): MessageKey {
  switch (n.type) {
    case 'like':
    case 'commentLike':
    case 'repost':
    case 'follow': {
      const [alone, others, people] = GROUPED[n.type];
      if (n.actors.length === 0) return people;
      return n.count <= 1 ? alone : others;
    }
    case 'comment':
      return 'notifications.comment';
    case 'reply':
      return 'notifications.reply';
    case 'mention':
      return n.comment ? 'notifications.mentionComment' : 'notifications.mentionPost';
    case 'edit':
      return 'notifications.edit';
    case 'special':
      return 'notifications.special';
  }
}

/** The sentence with its `{who}` as the newest actor's byline (name and @handle, one link to the profile). */
function sentence(n: Notification, t: Translate): ComponentChildren {
  const actor = n.actors[0];
  // `{who}` is left in place by t() (no value given) and becomes the link here.
  const [before, after] = t(sentenceKey(n), { n: actor ? n.count - 1 : n.count }).split('{who}');
  if (after === undefined) return before; // a count only: "12 人赞了你的微博"
  if (!actor) return `${before}${t('notifications.someone')}${after}`; // not grouped, actor hidden
  return (
    <>
      {before}
      <Byline {...personOf(actor)} />
      {after}
    </>
  );
}

const excerpt = (s: string) => {
  const chars = Array.from(s);
  return chars.length > EXCERPT ? `${chars.slice(0, EXCERPT).join('')}…` : s;
};

function NotificationEntry({ n }: { n: Notification }) {
  const { t } = useI18n();
  // What it is about: the comment's words for a comment, reply or a mention in one (the link
  // goes to the post, scrolled to that comment); a repost's own words, with the post it reposts
  // under them; otherwise the post's words.
  const words = n.comment
    ? n.comment.body
    : n.repostWords
      ? n.repostWords
      : n.post
        ? n.post.body || t('repost.plain')
        : null;
  return (
    <li class={n.unread ? 'notification unread' : 'notification'} data-type={n.type} data-count={n.count}>
      {/* The newest actor’s face; none when every actor is hidden (a count only). */}
      {n.actors[0] && <Avatar {...personOf(n.actors[0])} />}
      <p class="notification-text">
        {n.unread && <span class="new">{t('notifications.new')}</span>} <span class="sentence">{sentence(n, t)}</span>{' '}
        <span class="when">
          <RelativeTime iso={n.latestAt} />
        </span>
      </p>
      {n.post && words !== null && (
        <a
          class={n.comment ? 'excerpt comment-excerpt' : n.repostWords ? 'excerpt repost-words' : 'excerpt'}
          href={href.post(n.post.id, n.comment?.id)}
        >
          {excerpt(words)}
        </a>
      )}
      {n.post && n.repostWords && (
        <p class="reposted-excerpt">
          {t('notifications.reposted', { body: excerpt(n.post.body || t('repost.plain')) })}
        </p>
      )}
    </li>
  );
}
