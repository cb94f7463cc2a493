// web/src/features/reactions/reactions.tsx — the bar under every post: repost (an inline form
// for an optional comment, 转发理由), comments (to the post's page, where they are), like (a
// toggle) and 收藏 (bookmark: a private toggle, no count); who liked it is on the post's page.
// Counts and the reader's own state come with the post; a like or a bookmark shows at once and
// is put back if the API refuses it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Original, type Post } from '../../api/client';
import { REPOST_COMMENT_MAX } from '../../api/limits';
import { CharCount, codePoints, hasVisible, sendOnCtrlEnter, textProblem } from '../../components/char-count';
import { Icon } from '../../components/icons';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import { href, toLogin } from '../../router';
import { session } from '../../session';
import { SendProblem } from '../compose/send-problem';
import { hasDraft, useComposed } from '../compose/use-composed';

/** Where a repost's comment is kept while written (features/compose/drafts.ts). */
const repostTarget = (postId: string) => `repost:${postId}`;

/** Applies a change to the post as it is now (not as it was when a request started). */
export type UpdatePost = (change: (p: Post) => Post) => void;

/** A repost whose original is deleted (404) or withheld from you (403 blocked) cannot be reposted. */
const canRepostOf = (post: Post) => post.repostOf === null || post.repostOf.state === 'live';

const countsOf = (o: Extract<Original, { state: 'live' }>) => ({
  likeCount: o.likeCount,
  commentCount: o.commentCount,
  repostCount: o.repostCount,
  liked: o.liked,
  reposted: o.reposted,
});

interface ReactionsProps {
  post: Post;
  update: UpdatePost;
  onReposted?: (repost: Post) => void;
}

export function Reactions({ post, update, onReposted }: ReactionsProps) {
  const { t } = useI18n();
  // Who is logged in is read when a button is pressed, not when the bar was drawn: another tab
  // may have logged out (or switched user) since, before anything here drew again.
  const currentUser = () => session.get()?.handle;
  const [liking, setLiking] = useState(false);
  // A repost comment kept from before a reload shows in its open form, where it was left.
  const [reposting, setReposting] = useState(() => canRepostOf(post) && hasDraft(repostTarget(post.id)));
  const [openedHere, setOpenedHere] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const repostButton = useRef<HTMLButtonElement>(null);
  // Counts like clicks, so a late answer to an older one never overwrites a newer change.
  const likeClicks = useRef(0);
  const [keeping, setKeeping] = useState(false);

  async function toggleLike() {
    const me = currentUser();
    if (!me) return toLogin();
    if (liking) return; // one at a time: each answer must match the change it reconciles
    const click = ++likeClicks.current;
    const want = !post.liked;
    const delta = want ? 1 : -1;
    update((p) => ({ ...p, liked: want, likeCount: p.likeCount + delta }));
    setLiking(true);
    setError(null);
    try {
      const params = { path: { handle: me, postId: post.id } };
      const { data } = want
        ? await call(api.PUT('/users/{handle}/likes/{postId}', { params }))
        : await call(api.DELETE('/users/{handle}/likes/{postId}', { params }));
      if (data.liked !== want) update((p) => ({ ...p, liked: data.liked, likeCount: p.likeCount - delta }));
    } catch (err) {
      // Not done (or not known to be): take the change back, then ask the post for the truth.
      update((p) => ({ ...p, liked: !want, likeCount: p.likeCount - delta }));
      setError(err);
      call(api.GET('/posts/{postId}', { params: { path: { postId: post.id } } }))
        .then(
          ({ data }) =>
            click === likeClicks.current && update((p) => ({ ...p, likeCount: data.likeCount, liked: data.liked })),
        )
        .catch(() => {}); // the sentence above already says it went wrong
    } finally {
      setLiking(false);
    }
  }

  async function toggleBookmark() {
    const me = currentUser();
    if (!me) return toLogin();
    if (keeping) return; // one at a time, as the like
    const want = !post.bookmarked;
    update((p) => ({ ...p, bookmarked: want }));
    setKeeping(true);
    setError(null);
    try {
      const params = { path: { handle: me, postId: post.id } };
      const { data } = want
        ? await call(api.PUT('/users/{handle}/bookmarks/{postId}', { params }))
        : await call(api.DELETE('/users/{handle}/bookmarks/{postId}', { params }));
      setStatus(data.bookmarked ? t('reaction.bookmarked') : '');
      if (data.bookmarked !== want) update((p) => ({ ...p, bookmarked: data.bookmarked }));
    } catch (err) {
      update((p) => ({ ...p, bookmarked: !want }));
      setError(err);
    } finally {
      setKeeping(false);
    }
  }

  function reposted(repost: Post) {
    closeForm();
    setStatus(t('repost.done'));
    // The API reposts the root original and answers with its counts as they are now.
    const o = repost.repostOf;
    if (o?.state === 'live')
      update((p) =>
        p.id === o.id
          ? { ...p, ...countsOf(o) }
          : p.repostOf?.state === 'live' && p.repostOf.id === o.id
            ? { ...p, repostOf: o }
            : p,
      );
    onReposted?.(repost);
  }

  function closeForm() {
    setReposting(false);
    repostButton.current?.focus(); // back where the reader was
  }

  const canRepost = canRepostOf(post);
  // Equal cells, icon and count, as Weibo's bar: the word shows where the count is 0, and
  // the name always says both ("转发 3"), so it reads the same to everyone.
  const shown = (label: string, n: number) => (n > 0 ? String(n) : label);
  const repostLabel = post.reposted ? t('reaction.reposted') : t('reaction.repost');
  return (
    <>
      <ul class="reactions" aria-label={t('reaction.bar')}>
        <li>
          <button
            ref={repostButton}
            type="button"
            class={post.reposted ? 'reaction on' : 'reaction'}
            aria-label={`${repostLabel} ${post.repostCount}`}
            aria-expanded={reposting}
            disabled={!canRepost}
            onClick={() => {
              if (currentUser()) {
                setStatus('');
                setOpenedHere(true);
                setReposting(!reposting);
              } else toLogin();
            }}
          >
            <Icon name="repost" />
            <span class="n">{shown(repostLabel, post.repostCount)}</span>
          </button>
        </li>
        <li>
          <a class="reaction" href={href.post(post.id)} aria-label={`${t('reaction.comments')} ${post.commentCount}`}>
            <Icon name="comment" />
            <span class="n">{shown(t('reaction.comments'), post.commentCount)}</span>
          </a>
        </li>
        <li>
          <button
            type="button"
            class={post.liked ? 'reaction like on' : 'reaction like'}
            aria-label={`${t('reaction.like')} ${post.likeCount}`}
            aria-pressed={post.liked}
            onClick={toggleLike}
          >
            <Icon name="like" filled={post.liked} />
            <span class="n">{shown(t('reaction.like'), post.likeCount)}</span>
          </button>
        </li>
        <li>
          <button
            type="button"
            class={post.bookmarked ? 'reaction bookmark on' : 'reaction bookmark'}
            aria-label={t('reaction.bookmark')}
            aria-pressed={post.bookmarked}
            onClick={toggleBookmark}
          >
            {/* An icon alone (its name is the label): four cells fit a phone's width. */}
            <Icon name="bookmark" filled={post.bookmarked} />
          </button>
        </li>
      </ul>
      <p class="reaction-status" role="status">
        {status}
      </p>
      {reposting && <RepostForm post={post} focus={openedHere} onDone={reposted} onCancel={closeForm} />}
      <ErrorMessage error={error} />
    </>
  );
}

interface RepostFormProps {
  post: Post;
  /** Take the focus when shown (opened by the reader, not reopened for a kept draft). */
  focus: boolean;
  onDone: (repost: Post) => void;
  onCancel: () => void;
}

function RepostForm({ post, focus, onDone, onCancel }: RepostFormProps) {
  const { t } = useI18n();
  // The comment and its key are a composed item (features/compose): kept across a reload, and
  // pressing Repost again after a lost answer never reposts twice.
  const item = useComposed(repostTarget(post.id));
  const { text, busy } = item;
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => void (focus && box.current?.focus()), []);
  const id = `repost-${post.id}`;
  const over = codePoints(text) > REPOST_COMMENT_MAX || textProblem(text) !== null;

  // Cancel (or Escape) is putting the comment away: its draft goes too.
  const cancel = () => {
    item.edit('');
    onCancel();
  };

  async function submit(e: Event) {
    e.preventDefault();
    if (busy || over) return;
    // Without visible words it is a plain repost (the API refuses a blank comment).
    const body = hasVisible(text) ? { comment: text } : {};
    const answer = await item.send((key, signal) =>
      call(
        api.POST('/posts/{postId}/reposts', {
          params: { path: { postId: post.id }, header: { 'idempotency-key': key } },
          body,
          signal,
        }),
      ),
    );
    if (answer) onDone(answer.data);
  }

  return (
    <form
      class="repost-form"
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          cancel();
        }
      }}
    >
      <label for={id}>{t('repost.label')}</label>
      <textarea
        ref={box}
        id={id}
        rows={2}
        value={text}
        placeholder={t('repost.placeholder')}
        aria-describedby={`${id}-count`}
        onInput={(e) => item.edit((e.target as HTMLTextAreaElement).value)}
        onKeyDown={sendOnCtrlEnter}
      />
      <div class="composer-foot">
        <CharCount id={`${id}-count`} text={text} max={REPOST_COMMENT_MAX} />
        <span>
          <button type="button" class="secondary" onClick={cancel}>
            {t('repost.cancel')}
          </button>{' '}
          <button type="submit" disabled={busy || over}>
            {t('repost.submit')}
          </button>
        </span>
      </div>
      <SendProblem error={item.error} />
    </form>
  );
}
