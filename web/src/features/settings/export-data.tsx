// web/src/features/settings/export-data.tsx — 导出我的数据 in your settings: asks the API for
// your data export (GET /users/{handle}/export), says it is being prepared while the worker
// builds it (202: asked again after Retry-After), then offers the file's link, which works for
// 15 minutes.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { absoluteTime, useI18n } from '../../i18n/i18n';

/** How long the page keeps asking before it says to try later (the build takes seconds). */
const PATIENCE_MS = 120_000;

type Found = { url: string; expiresAt: string } | null;

export function ExportData({ handle }: { handle: string }) {
  const { t, locale } = useI18n();
  const [phase, setPhase] = useState<'idle' | 'building' | 'ready' | 'slow'>('idle');
  const [found, setFound] = useState<Found>(null);
  const [error, setError] = useState<unknown>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  async function ask(since: number) {
    try {
      const { data, status } = await call(api.GET('/users/{handle}/export', { params: { path: { handle } } }));
      if (status === 200 && data.state === 'ready') {
        setFound({ url: data.url, expiresAt: data.expiresAt });
        setPhase('ready');
        return;
      }
      if (Date.now() - since > PATIENCE_MS) return setPhase('slow');
      setPhase('building');
      timer.current = setTimeout(() => void ask(since), 2_000);
    } catch (err) {
      setError(err);
      setPhase('idle');
    }
  }

  return (
    <div class="export-data">
      <p>
        <button
          type="button"
          class="secondary"
          disabled={phase === 'building'}
          onClick={() => {
            setError(null);
            void ask(Date.now());
          }}
        >
          {t('export.open')}
        </button>{' '}
        <span role="status">
          {phase === 'building' && t('export.building')}
          {phase === 'slow' && t('export.slow')}
          {phase === 'ready' && found && (
            <>
              <a href={found.url} download>
                {t('export.download')}
              </a>{' '}
              <small>{t('export.until', { time: absoluteTime(found.expiresAt, locale) })}</small>
            </>
          )}
        </span>
      </p>
      <ErrorMessage error={error} />
    </div>
  );
}
