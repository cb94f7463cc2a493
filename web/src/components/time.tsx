// web/src/components/time.tsx — a relative, localised time that stays current, with the exact
// time for screen readers and on hover.
import { useEffect, useState } from 'preact/hooks';
import { absoluteTime, relativeTime, useI18n } from '../i18n/i18n';

export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function RelativeTime({ iso }: { iso: string }) {
  const { locale, t } = useI18n();
  const now = useNow();
  return (
    <time dateTime={iso} title={absoluteTime(iso, locale)}>
      {relativeTime(iso, locale, t, now)}
    </time>
  );
}
