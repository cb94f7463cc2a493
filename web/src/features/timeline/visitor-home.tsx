// web/src/features/timeline/visitor-home.tsx — the first screen of someone logged out (#/): what
// is being talked about now (the trending topics, each with its newest posts), and the way in
// (sign up, log in). Public reads only. Each part is a section of its own, so a hot feed takes its
// place beside them when the API has one.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Post, type Trending } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { PostCard } from '../posts/post-card';
import { withChanged } from '../posts/sync';

/** How many topics get their posts shown, and how many posts each. */
const TOPICS = 3;
const POSTS_PER_TOPIC = 2;

interface TopicPosts {
  name: string;
  count: number;
  posts: Post[];
}

export function VisitorHome({ notice }: { notice?: string }) {
  const { t } = useI18n();
  const [topics, setTopics] = useState<TopicPosts[] | null>(null);
  const [windowMinutes, setWindowMinutes] = useState(60);
  const [error, setError] = useState<unknown>(null);

  const load = () => {
    setError(null);
    call(api.GET('/topics/trending'))
      .then(async ({ data }: { data: Trending }) => {
        setWindowMinutes(Math.round(data.windowSeconds / 60));
        // The topics' posts side by side: one round trip more than the list, whatever the count.
        const shown = await Promise.all(
          data.topics.slice(0, TOPICS).map(async (topic) => {
            const { data: page } = await call(
              api.GET('/topics/{topic}/posts', {
                params: { path: { topic: topic.name }, query: { limit: POSTS_PER_TOPIC } },
              }),
            );
            return { name: page.topic, count: topic.posts, posts: page.posts };
          }),
        );
        setTopics(shown);
      })
      .catch(setError);
  };
  useEffect(load, []);

  const changed = (topic: string) => (post: Post) =>
    setTopics((all) =>
      all ? all.map((x) => (x.name === topic ? { ...x, posts: withChanged(x.posts, post) } : x)) : all,
    );

  return (
    <div class="visitor">
      <section class="visitor-hero" aria-labelledby="page-title">
        <h1 id="page-title">{t('visitor.title')}</h1>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <p>{t('visitor.pitch')}</p>
        <p class="visitor-actions">
          <a class="button" href={href.register()}>
            {t('nav.register')}
          </a>
          <a class="button secondary" href={href.login()}>
            {t('nav.login')}
          </a>
        </p>
      </section>
      <section class="visitor-trending" aria-labelledby="visitor-trending">
        <h2 id="visitor-trending">{t('visitor.trending')}</h2>
        {topics ? (
          topics.length > 0 ? (
            <>
              <p class="muted">{t('topics.window', { n: windowMinutes })}</p>
              {topics.map((topic) => (
                <section class="visitor-topic" key={topic.name} aria-label={`#${topic.name}#`}>
                  <h3>
                    <a class="topic" href={href.topic(topic.name)}>
                      #{topic.name}#
                    </a>{' '}
                    <span class="muted">{t('topics.posts', { n: topic.count })}</span>
                  </h3>
                  <div class="feed">
                    {topic.posts.map((post) => (
                      <PostCard key={post.id} post={post} onChange={changed(topic.name)} />
                    ))}
                  </div>
                </section>
              ))}
              <p>
                <a href={href.trending()}>{t('visitor.allTopics')}</a>
              </p>
            </>
          ) : (
            <p>{t('topics.noneTrending')}</p>
          )
        ) : error ? (
          <ErrorMessage error={error} onRetry={load} />
        ) : (
          <p class="muted" role="status">
            {t('timeline.loading')}
          </p>
        )}
      </section>
    </div>
  );
}
