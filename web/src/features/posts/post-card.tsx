// web/src/features/posts/post-card.tsx — one post wherever posts are listed: author, text (its
// @mentions and #topics# as links), relative time linking to the post's page, a repost's
// pictures (a Weibo grid with a lightbox), a repost's original (with its pictures), the reaction
// bar (repost, comments, like) and Delete for its author; the author's avatar beside the name.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { Avatar, Byline, authorOf } from '../../components/avatar';
import { Boundary } from '../../components/boundary';
import { ErrorMessage } from '../../components/problem';
import { RichText } from '../../components/rich-text';
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

function Card({ post: given, onDeleted, onChange, onReposted }: PostCardProps) {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [post, setPost] = useState(given);
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
  const mine = session.get()?.handle === post.author;

  async function remove() {
    if (!confirm(t('post.confirmDelete'))) return;
    setBusy(true);
    setError(null);
    try {
      await call(api.DELETE('/posts/{postId}', { params: { path: { postId: post.id } } }));
      onDeleted?.(post.id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <article class="post" aria-label={t('post.by', { handle: post.author })} data-post-id={post.id}>
      <header class="post-head">
        <span class="who">
          <Avatar {...authorOf(post)} />
          <Byline {...authorOf(post)} />
        </span>
        <a class="when" href={href.post(post.id)}>
          <RelativeTime iso={post.createdAt} />
        </a>
      </header>
      {/* A plain repost has no words of its own. */}
      <p class="post-body" dir="auto">{post.body ? <RichText text={post.body} mentions={post.mentions} topics={post.topics} /> : post.repostOf ? t('repost.plain') : ''}</p>
      <PictureGrid media={post.media} />
      {post.repostOf && <OriginalPost original={post.repostOf} />}
      <footer class="post-actions">
        <Reactions post={post} update={update} onReposted={onReposted}>
          {mine && onDeleted && (
            <button type="button" class="link danger" onClick={remove} disabled={busy}>
              {t('post.delete')}
            </button>
          )}
        </Reactions>
      </footer>
      <ErrorMessage error={error} />
    </article>
  );
}
