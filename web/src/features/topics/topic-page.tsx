// web/src/features/topics/topic-page.tsx — a topic's page (#话题#): the posts carrying it, newest
// first, cursor-paged like every list. Public; with a session the posts carry your own state and
// leave out users you block or mute. The title is the name as the API normalised it.
import { useState } from 'preact/hooks';
import { api, call, type Post } from '../../api/client';
import { usePaged } from '../../components/paged';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { PagedPosts } from '../posts/paged-posts';

export function TopicPage({ name }: { name: string }) {
  const { t } = useI18n();
  // `#Tag` and `#tag` are one topic: show the API's spelling once it has answered.
  const [topic, setTopic] = useState(name);
  const list = usePaged<Post>(
    async (cursor?: string) => {
      const { data } = await call(
        api.GET('/topics/{topic}/posts', {
          params: { path: { topic: name }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
        }),
      );
      setTopic(data.topic);
      return { items: data.posts, nextCursor: data.nextCursor };
    },
    [name],
  );

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">#{topic}#</h1>
      <p>
        <a href={href.trending()}>{t('topics.trending')}</a>
      </p>
      <PagedPosts list={list} empty={t('topics.empty')} />
    </section>
  );
}
