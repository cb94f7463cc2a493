// web/src/features/posts/post-page.tsx — a single post's page: the post (with its reaction bar)
// and its comments. The page holds the post, so the card's changes (a like) and the comments'
// (the count) both land on the one copy. Expected states are said plainly, not as failures: a
// post that is not there (no such id, or deleted) leads home; one hidden by a block offers the
// unblock.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiProblem, call, type Post } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { session } from '../../session';
import { BlockButtons } from '../blocks/block-buttons';
import { Comments } from '../reactions/comments';
import { PostCard } from './post-card';

/** `comment`: a comment to scroll to and mark (a notification's link). */
export function PostPage({ id, comment }: { id: string; comment?: string }) {
  const { t } = useI18n();
  const [post, setPost] = useState<Post | null>(null);
  const [deleted, setDeleted] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const load = () => {
    setError(null);
    call(api.GET('/posts/{postId}', { params: { path: { postId: id } } }))
      .then(({ data }) => setPost(data))
      .catch(setError);
  };
  useEffect(load, [id]);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('post.title')}</h1>
      {deleted ? (
        <p role="status">
          {t('post.deleted')} <a href={href.home()}>{t('notFound.back')}</a>
        </p>
      ) : post ? (
        <>
          <PostCard post={post} detail onChange={setPost} onDeleted={() => setDeleted(true)} />
          <Comments
            post={post}
            target={comment}
            onCount={(d) => setPost((p) => p && { ...p, commentCount: Math.max(0, p.commentCount + d) })}
          />
        </>
      ) : error instanceof ApiProblem && (error.status === 404 || error.code === 'validation_failed') ? (
        // An id that cannot be a post's is as absent as a deleted one.
        <p class="notice" role="alert">
          {t('error.post_not_found')} <a href={href.home()}>{t('notFound.back')}</a>
        </p>
      ) : error instanceof ApiProblem && error.code === 'blocked' ? (
        <Blocked id={id} onUnblocked={load} />
      ) : error ? (
        <ErrorMessage error={error} onRetry={load} />
      ) : (
        <p class="muted" role="status">
          {t('timeline.loading')}
        </p>
      )}
    </section>
  );
}

/** A post hidden by a block: said plainly; the reader who blocks its author can unblock here. */
function Blocked({ id, onUnblocked }: { id: string; onUnblocked: () => void }) {
  const { t } = useI18n();
  const me = session.get()?.handle;
  const author = id.split('.')[0]!;
  // The unblock is offered to the one who blocks; the one blocked is offered nothing.
  const [blocking, setBlocking] = useState(false);
  return (
    <div class="notice" role="alert">
      <p>{t('post.hiddenByBlock')}</p>
      {me && me !== author && (
        <div hidden={!blocking}>
          <BlockButtons
            me={me}
            handle={author}
            onChange={(state, action) => {
              if (action === 'loaded') setBlocking(state.blocking);
              if (action === 'unblock' && !state.blocking) onUnblocked();
            }}
          />
        </div>
      )}
    </div>
  );
}
