// web/src/features/reactions/comments.tsx — a post's comments on its page: newest first (or
// oldest first, one click away), cursor-paged; a comment box with the same code-point counter as
// the composer; Reply on a comment (the reply shows "回复 @x"); Delete on your own comments and
// on any comment on your own post (who may delete is the API's rule; the buttons follow it);
// 赞 on each comment with its count, shown at once and confirmed by the answer.
// What is being written, with whom it replies to and its Idempotency-Key, is a composed item
// (features/compose): one per post, kept across a reload until the comment is confirmed, so a
// retry after a lost answer never comments twice.
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, api, call, type Comment, type Post } from '../../api/client';
import { COMMENT_MAX } from '../../api/limits';
import { CharCount, codePoints, hasVisible, sendOnCtrlEnter, textProblem } from '../../components/char-count';
import { PagedFooter, usePaged } from '../../components/paged';
import { Avatar, Byline, authorOf } from '../../components/avatar';
import { ask } from '../../components/confirm';
import { Icon } from '../../components/icons';
import { MoreMenu } from '../../components/menu';
import { ErrorMessage } from '../../components/problem';
import { RichText } from '../../components/rich-text';
import { RelativeTime } from '../../components/time';
import { useI18n } from '../../i18n/i18n';
import { href, rememberReturn } from '../../router';
import { session } from '../../session';
import { SendProblem } from '../compose/send-problem';
import { useComposed, type Composed, type Meta } from '../compose/use-composed';

const PAGE = 20;
type Order = 'newest' | 'oldest';
/** The comment a reply answers: what the box says and the request sends of it. */
type ReplyTarget = Pick<Comment, 'id' | 'author'>;

// The reply target travels in the draft's meta, so a kept reply is still a reply after a reload.
const replyOf = (meta: Meta | undefined): ReplyTarget | null =>
  meta?.replyTo && meta.replyAuthor ? { id: meta.replyTo, author: meta.replyAuthor } : null;
const replyMeta = (c: ReplyTarget | null): Meta | undefined =>
  c ? { replyTo: c.id, replyAuthor: c.author } : undefined;

/** How many pages the list walks to find a linked comment before it gives up saying so. */
const TARGET_PAGES = 10;

/**
 * `onCount`: the post's comment count moved by this much (a comment added or deleted).
 * `target`: a comment to bring into view and mark (a notification links to it): the list pages
 * on until it shows, then scrolls to it and focuses it; a comment that is gone is said so.
 */
export function Comments({
  post,
  onCount,
  target,
}: {
  post: Post;
  onCount: (delta: number) => void;
  target?: string | undefined;
}) {
  const { t } = useI18n();
  const me = session.get()?.handle;
  const [order, setOrder] = useState<Order>('newest');
  const item = useComposed(`comment:${post.id}`);
  const replyTo = replyOf(item.meta);
  const setReplyTo = (c: ReplyTarget | null) => item.setMeta(replyMeta(c));
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  const list = usePaged<Comment>(
    async (cursor?: string) => {
      const query = { order, limit: PAGE, ...(cursor ? { cursor } : {}) };
      const { data } = await call(
        api.GET('/posts/{postId}/comments', { params: { path: { postId: post.id }, query } }),
      );
      return { items: data.comments, nextCursor: data.nextCursor };
    },
    [post.id, order],
  );

  const [targetGone, setTargetGone] = useState(false);
  const found = useRef<string | null>(null);
  const pagesWalked = useRef(0);
  // Another linked comment on the same post (a new hash): walk afresh.
  useEffect(() => {
    pagesWalked.current = 0;
    setTargetGone(false);
  }, [target]);
  useEffect(() => {
    if (!target || found.current === target || list.loading || list.error) return;
    const el = document.querySelector<HTMLElement>(`li.comment[data-comment-id="${CSS.escape(target)}"]`);
    if (el) {
      found.current = target;
      setTargetGone(false);
      el.scrollIntoView({ block: 'center' });
      el.focus({ preventScroll: true });
      return;
    }
    if (list.done || pagesWalked.current >= TARGET_PAGES) {
      if (list.items.length > 0 || list.done) setTargetGone(true);
      return;
    }
    if (list.items.length > 0) {
      pagesWalked.current++;
      list.loadMore();
    }
  }, [target, list.items, list.loading, list.done, list.error]);

  function added(comment: Comment) {
    setStatus(t('comments.posted'));
    // A retry's answer may be a comment the list already shows (loaded after its first try
    // reached the server): the list and the count have it already.
    if (list.items.some((c) => c.id === comment.id)) return;
    // Newest first: it goes on top. Oldest first: at the end once the end is shown; before
    // that, paging on reaches it (a new comment never shifts a later page).
    list.setItems((items) => (order === 'newest' ? [comment, ...items] : list.done ? [...items, comment] : items));
    onCount(1);
  }

  function reply(comment: Comment) {
    setReplyTo(comment);
    setStatus('');
    box.current?.focus();
  }

  // Counts like clicks per comment, so a late answer to an older click never overwrites a newer one.
  const likeClicks = useRef(new Map<string, number>());
  async function toggleLike(comment: Comment) {
    const click = (likeClicks.current.get(comment.id) ?? 0) + 1;
    likeClicks.current.set(comment.id, click);
    const want = !comment.liked;
    const delta = want ? 1 : -1;
    const set = (liked: boolean, likeCount: number) =>
      list.setItems((items) => items.map((c) => (c.id === comment.id ? { ...c, liked, likeCount } : c)));
    set(want, Math.max(0, comment.likeCount + delta)); // at once; the answer confirms the count
    setError(null);
    try {
      const params = { path: { postId: post.id, commentId: comment.id } };
      const { data } = want
        ? await call(api.PUT('/posts/{postId}/comments/{commentId}/like', { params }))
        : await call(api.DELETE('/posts/{postId}/comments/{commentId}/like', { params }));
      if (likeClicks.current.get(comment.id) === click) set(data.liked, data.likeCount);
    } catch (err) {
      if (likeClicks.current.get(comment.id) === click) set(comment.liked, comment.likeCount);
      setError(err);
    }
  }

  async function remove(comment: Comment) {
    if (!(await ask({ title: t('comments.confirmDelete'), action: t('comments.delete') }))) return;
    setError(null);
    setStatus('');
    try {
      await call(
        api.DELETE('/posts/{postId}/comments/{commentId}', {
          params: { path: { postId: post.id, commentId: comment.id } },
        }),
      );
    } catch (err) {
      setError(err);
      // Already gone (deleted elsewhere): the sentence says so, and the list stops showing it.
      if (!(err instanceof ApiProblem && err.code === 'comment_not_found')) return;
    }
    list.setItems((items) => items.filter((c) => c.id !== comment.id));
    if (replyTo?.id === comment.id) setReplyTo(null);
    onCount(-1);
    setStatus(t('comments.deleted'));
  }

  const choose = (o: Order) => (
    <button
      type="button"
      class={order === o ? 'secondary on' : 'secondary'}
      aria-pressed={order === o}
      onClick={() => setOrder(o)}
    >
      {t(o === 'newest' ? 'comments.newest' : 'comments.oldest')}
    </button>
  );

  return (
    <section class="comments" aria-labelledby="comments-title">
      <h2 id="comments-title">{t('comments.title')}</h2>
      {me ? (
        <CommentForm
          postId={post.id}
          item={item}
          replyTo={replyTo}
          box={box}
          onAdded={added}
          onCancelReply={() => setReplyTo(null)}
        />
      ) : (
        <p>
          <a href={href.login()} onClick={() => rememberReturn(location.hash)}>
            {t('comments.logIn')}
          </a>
        </p>
      )}
      <p class="sr-status" role="status">
        {status}
      </p>
      <ErrorMessage error={error} />
      {targetGone && <p class="comment-target-gone">{t('comments.targetGone')}</p>}
      {/* biome-ignore lint/a11y/useSemanticElements: a <fieldset> would bring its own border, padding and layout to this row of buttons */}
      <div class="comment-order" role="group" aria-label={t('comments.order')}>
        {choose('newest')} {choose('oldest')}
      </div>
      <ol class="comment-list">
        {list.items.map((c) => (
          <li
            key={c.id}
            class={c.id === target ? 'comment targeted' : 'comment'}
            data-comment-id={c.id}
            // The linked comment takes the focus, so keyboard and screen reader land on it too.
            tabIndex={c.id === target ? -1 : undefined}
            aria-current={c.id === target ? 'true' : undefined}
          >
            <div class="post-head">
              <span class="who">
                <Avatar {...authorOf(c)} />
                <span>
                  <Byline {...authorOf(c)} />
                  {c.replyTo && (
                    <>
                      {' '}
                      <a class="reply-to" href={href.profile(c.replyTo.author)}>
                        {t('comments.replyTo', { handle: c.replyTo.author })}
                      </a>
                    </>
                  )}
                </span>
              </span>
              <span class="post-corner">
                <span class="when">
                  <RelativeTime iso={c.createdAt} />
                </span>
                {me && (me === c.author || me === post.author) && (
                  <MoreMenu
                    label={t('comments.more')}
                    items={[{ label: t('comments.delete'), run: () => remove(c), danger: true }]}
                  />
                )}
              </span>
            </div>
            <p class="comment-body" dir="auto">
              <RichText text={c.body} mentions={c.mentions} />
            </p>
            <div class="comment-actions">
              {me && (
                <button type="button" class="link" onClick={() => reply(c)}>
                  {t('comments.reply')}
                </button>
              )}
              {me ? (
                <button
                  type="button"
                  class={c.liked ? 'link comment-like on' : 'link comment-like'}
                  aria-label={`${t('reaction.like')} ${c.likeCount}`}
                  aria-pressed={c.liked}
                  onClick={() => toggleLike(c)}
                >
                  <Icon name="like" filled={c.liked} />
                  <span class="n">{c.likeCount > 0 ? c.likeCount : t('reaction.like')}</span>
                </button>
              ) : (
                c.likeCount > 0 && (
                  <span class="comment-like">
                    <Icon name="like" />
                    <span class="sr-only">{t('reaction.like')} </span>
                    <span class="n">{c.likeCount}</span>
                  </span>
                )
              )}
            </div>
          </li>
        ))}
      </ol>
      <PagedFooter list={list} empty={t('comments.empty')} />
    </section>
  );
}

interface CommentFormProps {
  postId: string;
  item: Composed;
  replyTo: ReplyTarget | null;
  box: RefObject<HTMLTextAreaElement>;
  onAdded: (c: Comment) => void;
  onCancelReply: () => void;
}

function CommentForm({ postId, item, replyTo, box, onAdded, onCancelReply }: CommentFormProps) {
  const { t } = useI18n();
  const { text, busy } = item;
  const over = codePoints(text) > COMMENT_MAX || textProblem(text) !== null;

  async function submit(e: Event) {
    e.preventDefault();
    if (busy || over || !hasVisible(text)) return;
    const body = { body: text, ...(replyTo ? { replyTo: replyTo.id } : {}) };
    const answer = await item.send((key, signal) =>
      call(
        api.POST('/posts/{postId}/comments', {
          params: { path: { postId }, header: { 'idempotency-key': key } },
          body,
          signal,
        }),
      ),
    );
    if (answer) onAdded(answer.data); // otherwise text and key stay: pressing Comment again is a safe retry
  }

  return (
    <form class="composer" onSubmit={submit}>
      <label for="comment-text">
        {replyTo ? t('comments.replyLabel', { handle: replyTo.author }) : t('comments.label')}
      </label>
      <textarea
        ref={box}
        id="comment-text"
        rows={2}
        value={text}
        placeholder={t('comments.placeholder')}
        aria-describedby="comment-count"
        onInput={(e) => item.edit((e.target as HTMLTextAreaElement).value)}
        onKeyDown={sendOnCtrlEnter}
      />
      <div class="composer-foot">
        <CharCount id="comment-count" text={text} max={COMMENT_MAX} />
        <span>
          {replyTo && (
            <>
              <button type="button" class="secondary" onClick={onCancelReply}>
                {t('comments.cancelReply')}
              </button>{' '}
            </>
          )}
          <button type="submit" disabled={busy || over || !hasVisible(text)}>
            {t('comments.submit')}
          </button>
        </span>
      </div>
      <SendProblem error={item.error} />
    </form>
  );
}
