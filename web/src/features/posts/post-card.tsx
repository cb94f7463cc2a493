// web/src/features/posts/post-card.tsx — one post wherever posts are listed: author, text (its
// @mentions and #topics# as links), relative time linking to the post's page, a repost's
// pictures (a Weibo grid with a lightbox), a repost's original (with its pictures), the reaction
// bar (repost, comments, like), and a "⋯" menu: Edit and Delete for its author, mute or block for
// others. An edited post says 已编辑 beside its time, linking to its history. A long text folds
// at about six lines. The author's avatar beside the name.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { Avatar, Byline, authorOf } from '../../components/avatar';
import { Boundary } from '../../components/boundary';
import { ask } from '../../components/confirm';
import { MoreMenu, type MenuItem } from '../../components/menu';
import { ErrorMessage } from '../../components/problem';
import { RichText, type Marks } from '../../components/rich-text';
import { RelativeTime } from '../../components/time';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { session } from '../../session';
import { PictureGrid } from '../media/picture-grid';
import { OriginalPost } from '../reactions/original';
import { Reactions, type UpdatePost } from '../reactions/reactions';

export interface PostCardProps {
  post: Post;
  onDeleted?: (id: string) => void;
  /** The card changed the post (a like, a repost's counts): the list keeps the new one. */
  onChange?: (post: Post) => void;
  /** The reader reposted from this card: lists that show the reader's posts add it. */
  onReposted?: (repost: Post) => void;
  /** The post's own page: the whole text, and who liked it. */
  detail?: boolean;
  /** A search's matched spans of the text (code points), marked. */
  marks?: Marks;
}

/** A post that cannot be shown (a malformed answer) says so in its place; the list goes on. */
export function PostCard(props: PostCardProps) {
  const { t } = useI18n();
  return (
    <Boundary
      fallback={() => (
        <article class="post broken" aria-label={t('post.broken')} data-post-id={props.post.id}>
          <p class="muted">{t('post.broken')}</p>
        </article>
      )}
    >
      <Card {...props} />
    </Boundary>
  );
}

function Card({ post: given, onDeleted, onChange, onReposted, detail = false, marks }: PostCardProps) {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>(null);
  const [post, setPost] = useState(given);
  /** The author is editing the text in place. */
  const [editing, setEditing] = useState(false);
  /** The reader muted or blocked the author from this card: it steps aside, saying so. */
  const [hidden, setHidden] = useState<'mute' | 'block' | null>(null);
  // The latest state, for changes that land after a request (a like's answer, its undoing).
  const current = useRef(given);
  useEffect(() => {
    current.current = given;
    setPost(given);
  }, [given]);
  const update: UpdatePost = (change) => {
    const next = change(current.current);
    current.current = next;
    setPost(next);
    onChange?.(next);
  };
  const me = session.get()?.handle;

  async function remove() {
    if (!(await ask({ title: t('post.confirmDelete'), action: t('post.delete') }))) return;
    setError(null);
    try {
      await call(api.DELETE('/posts/{postId}', { params: { path: { postId: post.id } } }));
      onDeleted?.(post.id);
    } catch (err) {
      setError(err);
    }
  }

  async function keepAway(action: 'mute' | 'block') {
    if (!me) return;
    if (
      action === 'block' &&
      !(await ask({
        title: t('blocks.blockTitle', { handle: post.author }),
        detail: t('blocks.blockDetail'),
        action: t('blocks.block'),
      }))
    )
      return;
    setError(null);
    try {
      const params = { path: { handle: me, target: post.author } };
      await call(
        action === 'block'
          ? api.PUT('/users/{handle}/blocks/{target}', { params })
          : api.PUT('/users/{handle}/mutes/{target}', { params }),
      );
      setHidden(action);
    } catch (err) {
      setError(err);
    }
  }

  if (hidden) {
    return (
      <p class="post notice" role="status" data-post-id={post.id}>
        {t(`blocks.done.${hidden}`, { handle: post.author })}
      </p>
    );
  }

  const own: MenuItem[] = [
    // Weibo's rule: within 24 hours (the API says so past it). A plain repost has no text to edit.
    ...(post.body || !post.repostOf ? [{ label: t('post.edit'), run: () => setEditing(true) }] : []),
    ...(onDeleted ? [{ label: t('post.delete'), run: remove, danger: true }] : []),
  ];
  const menu: MenuItem[] = !me
    ? []
    : me === post.author
      ? own
      : [
          { label: t('blocks.muteHandle', { handle: post.author }), run: () => keepAway('mute') },
          { label: t('blocks.blockHandle', { handle: post.author }), run: () => keepAway('block'), danger: true },
        ];
  return (
    <article class="post" aria-label={t('post.by', { handle: post.author })} data-post-id={post.id}>
      <header class="post-head">
        <span class="who">
          <Avatar {...authorOf(post)} />
          <Byline {...authorOf(post)} />
        </span>
        <span class="post-corner">
          <a class="when" href={href.post(post.id)}>
            <RelativeTime iso={post.createdAt} />
          </a>
          {post.editedAt && (
            <a class="edited" href={href.history(post.id)} title={t('post.editedTitle')}>
              {t('post.edited')}
            </a>
          )}
          <MoreMenu label={t('post.more')} items={menu} />
        </span>
      </header>
      {/* A plain repost has no words of its own. */}
      {editing ? (
        <EditForm
          post={post}
          onDone={(edited) => {
            setEditing(false);
            if (edited) update(() => edited);
          }}
        />
      ) : post.body ? (
        <Folding text={post.body} fold={!detail}>
          <RichText text={post.body} mentions={post.mentions} topics={post.topics} {...(marks ? { marks } : {})} />
        </Folding>
      ) : (
        <p class="post-body" dir="auto">
          {post.repostOf ? t('repost.plain') : ''}
        </p>
      )}
      <PictureGrid media={post.media} />
      {post.repostOf && <OriginalPost original={post.repostOf} />}
      {/* Who liked it, once someone has: nobody to list is said, not linked. */}
      {detail && (
        <p class="post-stats">
          {post.likeCount > 0 ? (
            <a class="like-count" href={href.likers(post.id)}>
              {t('post.likedBy', { n: post.likeCount })}
            </a>
          ) : (
            <span class="muted">{t('post.noLikes')}</span>
          )}
        </p>
      )}
      <footer class="post-actions">
        <Reactions post={post} update={update} onReposted={onReposted} />
      </footer>
      <ErrorMessage error={error} />
    </article>
  );
}

/** The author's text in a box, saved with the version it was read at (If-Match): a lost race says so. */
function EditForm({ post, onDone }: { post: Post; onDone: (edited: Post | null) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(post.body);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []);
  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { data } = await call(
        api.PATCH('/posts/{postId}', {
          params: { path: { postId: post.id }, header: { 'if-match': `"${post.version}"` } },
          body: { body: text },
        }),
      );
      onDone(data);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const id = `edit-${post.id}`;
  return (
    <form class="edit-post" onSubmit={save} onKeyDown={(e) => e.key === 'Escape' && onDone(null)}>
      <label for={id} class="sr-only">
        {t('post.editLabel')}
      </label>
      <textarea
        id={id}
        ref={box}
        value={text}
        rows={3}
        dir="auto"
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      <p class="muted small">{t('post.editNote')}</p>
      <div class="row">
        <button type="submit" disabled={busy || text === post.body}>
          {t('profile.save')}
        </button>
        <button type="button" class="secondary" onClick={() => onDone(null)}>
          {t('profile.cancel')}
        </button>
      </div>
      <ErrorMessage error={error} />
    </form>
  );
}

/** A long text folds at about six lines, with "展开全文" to read the rest in place. */
function Folding({ text, fold, children }: { text: string; fold: boolean; children: ComponentChildren }) {
  const { t } = useI18n();
  const body = useRef<HTMLParagraphElement>(null);
  const [open, setOpen] = useState(false);
  const [long, setLong] = useState(false);
  // Measured once drawn (the width decides where lines break); only a folded text can be long.
  useLayoutEffect(() => {
    const p = body.current;
    if (p && fold && !open) setLong(p.scrollHeight > p.clientHeight + 1);
  }, [text, fold, open]);
  return (
    <>
      <p ref={body} class={fold && !open ? 'post-body folded' : 'post-body'} dir="auto">
        {children}
      </p>
      {fold && long && !open && (
        <button type="button" class="link unfold" onClick={() => setOpen(true)}>
          {t('post.unfold')}
        </button>
      )}
    </>
  );
}
