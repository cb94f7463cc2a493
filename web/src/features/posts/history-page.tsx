// web/src/features/posts/history-page.tsx — a post's edit history (编辑记录), reached from the
// 已编辑 mark beside its time: every version of the text, newest (the current one) first.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type PostHistory } from '../../api/client';
import { BackLink } from '../../components/back-link';
import { ErrorMessage } from '../../components/problem';
import { RichText } from '../../components/rich-text';
import { RelativeTime } from '../../components/time';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';

export function HistoryPage({ id }: { id: string }) {
  const { t } = useI18n();
  const [history, setHistory] = useState<PostHistory | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    call(api.GET('/posts/{postId}/history', { params: { path: { postId: id } } }))
      .then(({ data }) => live && setHistory(data))
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [id]);
  const newest = history?.versions[0]?.version;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('history.title')}</h1>
      <BackLink href={href.post(id)}>{t('history.back')}</BackLink>
      <ErrorMessage error={error} />
      {history && (
        <ol class="versions">
          {history.versions.map((v) => (
            <li key={v.version} class="post">
              <p class="muted small">
                {v.version === newest
                  ? t('history.current')
                  : v.version === 0
                    ? t('history.original')
                    : t('history.version', { n: v.version })}
                {' · '}
                <RelativeTime iso={v.at} />
              </p>
              <p class="post-body" dir="auto">
                <RichText text={v.body} mentions={v.mentions} topics={v.topics} />
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
