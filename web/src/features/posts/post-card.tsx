// web/src/features/posts/post-card.tsx — one post wherever posts are listed: author, text,
// relative time linking to the post's page, and Delete for its author.
import { useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { RelativeTime } from '../../components/time';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { session } from '../../session';

export function PostCard({ post, onDeleted }: { post: Post; onDeleted?: (id: string) => void }) {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
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
        <a class="author" href={href.profile(post.author)}>
          @{post.author}
        </a>
        <a class="when" href={href.post(post.id)}>
          <RelativeTime iso={post.createdAt} />
        </a>
      </header>
      <p class="post-body">{post.body}</p>
      {mine && onDeleted && (
        <footer class="post-actions">
          <button type="button" class="link danger" onClick={remove} disabled={busy}>
            {t('post.delete')}
          </button>
        </footer>
      )}
      <ErrorMessage error={error} />
    </article>
  );
}
