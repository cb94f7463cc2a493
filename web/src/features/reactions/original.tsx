// web/src/features/reactions/original.tsx — what a repost (转发) points at, inside the repost's
// card: the original's author, text, pictures, time and counts, or that it has been deleted or is
// withheld from you (then nothing of it is shown, as the API sends nothing of it).
import type { Original } from '../../api/client';
import { Avatar, Byline, authorOf } from '../../components/avatar';
import { RichText } from '../../components/rich-text';
import { RelativeTime } from '../../components/time';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { PictureGrid } from '../media/picture-grid';

export function OriginalPost({ original }: { original: Original }) {
  const { t } = useI18n();
  if (original.state === 'deleted') {
    return (
      <div class="original deleted">
        <p>{t('repost.originalDeleted')}</p>
      </div>
    );
  }
  if (original.state === 'withheld') {
    // Your own repost of a post whose author has blocked you: nothing of it is sent.
    return (
      <div class="original deleted">
        <p>{t('repost.originalWithheld')}</p>
      </div>
    );
  }
  return (
    <article
      class="original"
      aria-label={t('repost.originalBy', { handle: original.author })}
      data-post-id={original.id}
    >
      <header class="post-head">
        <span class="who">
          <Avatar {...authorOf(original)} />
          <Byline {...authorOf(original)} />
        </span>
        <a class="when" href={href.post(original.id)}>
          <RelativeTime iso={original.createdAt} />
        </a>
      </header>
      <p class="original-body" dir="auto">
        <RichText text={original.body} mentions={original.mentions} topics={original.topics} />
      </p>
      <PictureGrid media={original.media} />
      <p class="original-counts">
        <a href={href.post(original.id)}>
          {[
            t('count.reposts', { n: original.repostCount }),
            t('count.comments', { n: original.commentCount }),
            t('count.likes', { n: original.likeCount }),
          ].join(' · ')}
        </a>
      </p>
    </article>
  );
}
