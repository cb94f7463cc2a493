// web/src/features/topics/trending-page.tsx — 热门话题: the topics with the most posts in the last
// hour (the API's window), each leading to its page. Public. A page of its own rather than a box
// on the home page: the home timeline's first render stays at two round trips.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Trending } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';

export function TrendingPage() {
  const { t } = useI18n();
  const [trending, setTrending] = useState<Trending | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => {
    setError(null);
    call(api.GET('/topics/trending'))
      .then(({ data }) => setTrending(data))
      .catch(setError);
  };
  useEffect(load, []);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('topics.trending')}</h1>
      <p>
        <a href={href.hot()}>{t('hot.title')}</a>
      </p>
      {trending ? (
        <>
          <p class="muted">{t('topics.window', { n: Math.round(trending.windowSeconds / 60) })}</p>
          {trending.topics.length > 0 ? (
            <ol class="trending">
              {trending.topics.map((topic) => (
                <li key={topic.name}>
                  <a class="topic" href={href.topic(topic.name)}>
                    #{topic.name}#
                  </a>{' '}
                  <span class="muted">{t('topics.posts', { n: topic.posts })}</span>
                </li>
              ))}
            </ol>
          ) : (
            <p>{t('topics.noneTrending')}</p>
          )}
        </>
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
