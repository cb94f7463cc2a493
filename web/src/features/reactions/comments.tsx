// web/src/features/reactions/comments.tsx — a post's comments on its page: top-level comments
// newest first (or oldest first, one click away), cursor-paged, each with its thread (楼中楼):
// its oldest two replies and "共 N 条回复", which opens the whole thread in place (paged, oldest
// first) with a box that replies in it; a deleted comment whose replies remain shows as
// "该评论已删除" with its thread. A comment box with the same code-point counter as the composer;
// Reply on a comment or a reply (the reply shows "回复 @x" and lands in the thread); Delete on
// your own comments and on any comment on your own post (who may delete is the API's rule; the
// buttons follow it); 赞 on each comment and reply with its count, shown at once and confirmed by
// the answer. A link to a reply (a notification's) opens its root's thread and marks it there.
// What is being written, with whom it replies to and its Idempotency-Key, is a composed item
// (features/compose): one per post, kept across a reload until the comment is confirmed, so a
// retry after a lost answer never comments twice.
import type { RefObject } from 'preact';
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  ApiProblem,
  api,
  call,
  type Comment,
  type DeletedComment,
  type Post,
  type ThreadedComment,
} from '../../api/client';
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
/** A thread opens this many replies at a time. */
const THREAD_PAGE = 20;
/** How many replies a top-level comment shows before "共 N 条回复" (as the API's preview). */
const PREVIEW = 2;
type Order = 'newest' | 'oldest';
/** A top-level comment as the list shows it: with its thread, or a placeholder for a deleted one. */
type Listed = ThreadedComment | DeletedComment;
/** A like as shown, by comment id: set at once on a click, then by the answer (wherever the comment shows). */
type LikeShown = { liked: boolean; likeCount: number };
/** The comment a reply answers: what the box says and the request sends of it. */
type ReplyTarget = Pick<Comment, 'id' | 'author'>;

// The reply target travels in the draft's meta, so a kept reply is still a reply after a reload.
const replyOf = (meta: Meta | undefined): ReplyTarget | null =>
  meta?.replyTo && meta.replyAuthor ? { id: meta.replyTo, author: meta.replyAuthor } : null;
const replyMeta = (c: ReplyTarget | null): Meta | undefined =>
  c ? { replyTo: c.id, replyAuthor: c.author } : undefined;

/** How many pages the list walks to find a linked comment before it gives up saying so. */
const TARGET_PAGES = 10;

/** What every comment row can do, the same in the list and in a thread. */
interface RowActions {
  me: string | undefined;
  post: Post;
  target: string | undefined;
  likes: Map<string, LikeShown>;
  onReply: (c: Comment) => void;
  onLike: (c: Comment) => void;
  onRemove: (c: Comment) => void;
}

/**
 * `onCount`: the post's comment count moved by this much (a comment added or deleted).
 * `target`: a comment to bring into view and mark (a notification links to it): the list pages
 * on until it shows (a reply: until its root shows, whose thread then opens and pages on until
 * the reply shows), then scrolls to it and focuses it; a comment that is gone is said so.
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
  // Replies added on this page, by root: an open thread shows them once it has paged to its end.
  const [fresh, setFresh] = useState<Map<string, Comment[]>>(new Map());
  // Comments deleted on this page: no list or thread shows them any more.
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const [likes, setLikes] = useState<Map<string, LikeShown>>(new Map());

  const list = usePaged<Listed>(
    async (cursor?: string) => {
      const query = { order, limit: PAGE, ...(cursor ? { cursor } : {}) };
      const { data } = await call(
        api.GET('/posts/{postId}/comments', { params: { path: { postId: post.id }, query } }),
      );
      return { items: data.comments, nextCursor: data.nextCursor };
    },
    [post.id, order],
  );

  // Where the linked comment lives: undefined while asked, the root of its thread (null: it is a
  // top-level comment), or 'gone'.
  const [targetRoot, setTargetRoot] = useState<string | null | 'gone' | undefined>(undefined);
  const [targetGone, setTargetGone] = useState(false);
  const found = useRef<string | null>(null);
  const pagesWalked = useRef(0);
  // Another linked comment on the same post (a new hash): walk afresh.
  useEffect(() => {
    pagesWalked.current = 0;
    setTargetGone(false);
    setTargetRoot(undefined);
    if (!target) return;
    let current = true;
    call(
      api.GET('/posts/{postId}/comments/{commentId}', { params: { path: { postId: post.id, commentId: target } } }),
    ).then(
      ({ data }) => current && setTargetRoot(data.root),
      () => current && setTargetRoot('gone'),
    );
    return () => {
      current = false;
    };
  }, [post.id, target]);
  // The list entry to walk to: the comment itself, or the root whose thread holds it.
  const seek = typeof targetRoot === 'string' && targetRoot !== 'gone' ? targetRoot : target;
  useEffect(() => {
    if (!target || targetRoot === undefined || found.current === target || list.loading || list.error) return;
    if (targetRoot === 'gone') {
      setTargetGone(true);
      return;
    }
    const el = document.querySelector<HTMLElement>(`li.comment[data-comment-id="${CSS.escape(seek!)}"]`);
    if (el) {
      found.current = target;
      setTargetGone(false);
      // A reply: its root's thread opens to it (Thread, `reveal`) and scrolls there itself.
      if (seek === target) {
        el.scrollIntoView({ block: 'center' });
        el.focus({ preventScroll: true });
      }
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
  }, [target, targetRoot, list.items, list.loading, list.done, list.error]);

  function added(comment: Comment) {
    setStatus(t('comments.posted'));
    const root = comment.root;
    if (root) {
      // A reply: into its thread, once (a retry's answer may be a reply already shown).
      const shown = [...(fresh.get(root) ?? []), ...(list.items.find((c) => c.id === root)?.replies ?? [])];
      if (shown.some((c) => c.id === comment.id)) return;
      setFresh((m) => new Map(m).set(root, [...(m.get(root) ?? []), comment]));
      list.setItems((items) =>
        items.map((c) =>
          c.id === root
            ? {
                ...c,
                replyCount: c.replyCount + 1,
                replies: c.replies.length < PREVIEW ? [...c.replies, comment] : c.replies,
              }
            : c,
        ),
      );
      onCount(1);
      return;
    }
    // A retry's answer may be a comment the list already shows (loaded after its first try
    // reached the server): the list and the count have it already.
    if (list.items.some((c) => c.id === comment.id)) return;
    const listed: Listed = { ...comment, deleted: false, replyCount: 0, replies: [] };
    // Newest first: it goes on top. Oldest first: at the end once the end is shown; before
    // that, paging on reaches it (a new comment never shifts a later page).
    list.setItems((items) => (order === 'newest' ? [listed, ...items] : list.done ? [...items, listed] : items));
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
      setLikes((m) => new Map(m).set(comment.id, { liked, likeCount }));
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
    setRemoved((s) => new Set(s).add(comment.id));
    list.setItems((items) =>
      items.flatMap((c): Listed[] => {
        // A reply leaves its root's count; a top-level comment with replies stays as a placeholder.
        if (c.id === comment.root) return [{ ...c, replyCount: Math.max(0, c.replyCount - 1) }];
        if (c.id !== comment.id) return [c];
        return c.replyCount > 0
          ? [
              {
                id: c.id,
                postId: c.postId,
                deleted: true,
                createdAt: c.createdAt,
                replyCount: c.replyCount,
                replies: c.replies,
              },
            ]
          : [];
      }),
    );
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

  const actions: RowActions = { me, post, target, likes, onReply: reply, onLike: toggleLike, onRemove: remove };

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
          <Fragment key={c.id}>
            {c.deleted ? (
              <li class="comment deleted-comment" data-comment-id={c.id}>
                <p class="comment-body">{t('comments.deletedPlaceholder')}</p>
              </li>
            ) : (
              <CommentRow c={c} actions={actions} />
            )}
            <Thread
              root={c}
              actions={actions}
              fresh={fresh.get(c.id) ?? []}
              removed={removed}
              reveal={seek !== target && seek === c.id ? target : undefined}
              onAdded={added}
              onGone={() => setTargetGone(true)}
            />
          </Fragment>
        ))}
      </ol>
      <PagedFooter list={list} empty={t('comments.empty')} />
    </section>
  );
}

/** One comment or reply: its author, words, time, and Reply, 赞 and (yours or on your post) Delete. */
function CommentRow({ c: shown, actions }: { c: Comment; actions: RowActions }) {
  const { t } = useI18n();
  const { me, post, target } = actions;
  const c = { ...shown, ...actions.likes.get(shown.id) };
  return (
    <li
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
              items={[{ label: t('comments.delete'), run: () => actions.onRemove(c), danger: true }]}
            />
          )}
        </span>
      </div>
      <p class="comment-body" dir="auto">
        <RichText text={c.body} mentions={c.mentions} />
      </p>
      <div class="comment-actions">
        {me && (
          <button type="button" class="link" onClick={() => actions.onReply(c)}>
            {t('comments.reply')}
          </button>
        )}
        {me ? (
          <button
            type="button"
            class={c.liked ? 'link comment-like on' : 'link comment-like'}
            aria-label={`${t('reaction.like')} ${c.likeCount}`}
            aria-pressed={c.liked}
            onClick={() => actions.onLike(c)}
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
  );
}

interface ThreadProps {
  root: Listed;
  actions: RowActions;
  /** Replies added on this page (shown once the open thread has paged to its end). */
  fresh: Comment[];
  removed: Set<string>;
  /** A reply to open the thread to, scroll to and mark (a link to it). */
  reveal: string | undefined;
  onAdded: (c: Comment) => void;
  onGone: () => void;
}

/** A top-level comment's thread, under it: the preview and "共 N 条回复", or the whole thread once opened. */
function Thread(props: ThreadProps) {
  const { t } = useI18n();
  const { root, actions, removed, reveal } = props;
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (reveal) setOpen(true);
  }, [reveal]);
  if (open) return <OpenThread {...props} onClose={() => setOpen(false)} />;
  const preview = root.replies.filter((c) => !removed.has(c.id));
  if (preview.length === 0 && root.replyCount === 0) return null;
  return (
    <li class="comment-thread">
      {preview.length > 0 && (
        <ol class="thread-replies">
          {preview.map((c) => (
            <CommentRow key={c.id} c={c} actions={actions} />
          ))}
        </ol>
      )}
      {root.replyCount > preview.length && (
        <button type="button" class="link thread-open" aria-expanded="false" onClick={() => setOpen(true)}>
          {t('comments.replies', { n: root.replyCount })}
        </button>
      )}
    </li>
  );
}

function OpenThread({
  root,
  actions,
  fresh,
  removed,
  reveal,
  onAdded,
  onGone,
  onClose,
}: ThreadProps & { onClose: () => void }) {
  const { t } = useI18n();
  const postId = actions.post.id;
  const replies = usePaged<Comment>(
    async (cursor?: string) => {
      const query = { limit: THREAD_PAGE, ...(cursor ? { cursor } : {}) };
      const { data } = await call(
        api.GET('/posts/{postId}/comments/{commentId}/replies', {
          params: { path: { postId, commentId: root.id }, query },
        }),
      );
      return { items: data.replies, nextCursor: data.nextCursor };
    },
    [postId, root.id],
  );
  const loaded = new Set(replies.items.map((c) => c.id));
  // Replies added here come after every reply paged so far: shown once the thread's end is.
  const items = [...replies.items, ...(replies.done ? fresh.filter((c) => !loaded.has(c.id)) : [])].filter(
    (c) => !removed.has(c.id),
  );

  const revealed = useRef<string | null>(null);
  useEffect(() => {
    if (!reveal || revealed.current === reveal || replies.loading || replies.error) return;
    const el = document.querySelector<HTMLElement>(`li.comment[data-comment-id="${CSS.escape(reveal)}"]`);
    if (el) {
      revealed.current = reveal;
      el.scrollIntoView({ block: 'center' });
      el.focus({ preventScroll: true });
    } else if (replies.done) {
      revealed.current = reveal;
      onGone();
    } else if (replies.items.length > 0) replies.loadMore();
  }, [reveal, replies.items, replies.loading, replies.done, replies.error]);

  const item = useComposed(`reply:${postId}:${root.id}`);
  const box = useRef<HTMLTextAreaElement>(null);
  const label = root.deleted ? t('comments.threadOf') : t('comments.threadOfAuthor', { handle: root.author });
  return (
    <li class="comment-thread open">
      <ol class="thread-replies" aria-label={label}>
        {items.map((c) => (
          <CommentRow key={c.id} c={c} actions={actions} />
        ))}
      </ol>
      {replies.error ? (
        <ErrorMessage error={replies.error} onRetry={replies.items.length ? replies.loadMore : replies.reload} />
      ) : replies.loading ? (
        <p class="muted" role="status">
          {t('timeline.loading')}
        </p>
      ) : (
        !replies.done && (
          <button type="button" class="link thread-more" onClick={replies.loadMore}>
            {t('comments.moreReplies')}
          </button>
        )
      )}{' '}
      <button type="button" class="link thread-close" aria-expanded="true" onClick={onClose}>
        {t('comments.hideReplies')}
      </button>
      {actions.me && !root.deleted && (
        <CommentForm
          postId={postId}
          item={item}
          replyTo={{ id: root.id, author: root.author }}
          box={box}
          onAdded={onAdded}
          idBase={`thread-${root.id}`}
          label={t('comments.threadReplyLabel', { handle: root.author })}
        />
      )}
    </li>
  );
}

interface CommentFormProps {
  postId: string;
  item: Composed;
  replyTo: ReplyTarget | null;
  box: RefObject<HTMLTextAreaElement>;
  onAdded: (c: Comment) => void;
  /** Absent: the box always replies to `replyTo` (a thread's box). */
  onCancelReply?: () => void;
  /** The ids of its box and counter (more than one box on a page). */
  idBase?: string;
  label?: string;
}

function CommentForm({
  postId,
  item,
  replyTo,
  box,
  onAdded,
  onCancelReply,
  idBase = 'comment',
  label,
}: CommentFormProps) {
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
    <form class={onCancelReply ? 'composer' : 'composer thread-box'} onSubmit={submit}>
      <label for={`${idBase}-text`}>
        {label ?? (replyTo ? t('comments.replyLabel', { handle: replyTo.author }) : t('comments.label'))}
      </label>
      <textarea
        ref={box}
        id={`${idBase}-text`}
        rows={2}
        value={text}
        placeholder={t('comments.placeholder')}
        aria-describedby={`${idBase}-count`}
        onInput={(e) => item.edit((e.target as HTMLTextAreaElement).value)}
        onKeyDown={sendOnCtrlEnter}
      />
      <div class="composer-foot">
        <CharCount id={`${idBase}-count`} text={text} max={COMMENT_MAX} />
        <span>
          {replyTo && onCancelReply && (
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
