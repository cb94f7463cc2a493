// web/src/components/problem.tsx — every failure as a human sentence in the current language,
// never a status code or a JSON dump.
import { ApiProblem } from '../api/client';
import { hasMessage, useI18n, type Translate } from '../i18n/i18n';
import { href, rememberReturn } from '../router';

export function problemText(err: unknown, t: Translate): string {
  if (!(err instanceof ApiProblem)) return t('error.unknown', { status: '—' });
  const key = `error.${err.code}`;
  if (err.code === 'rate_limited') return t('error.rate_limited', { n: err.retryAfter ?? 60 });
  if (hasMessage(key)) return t(key);
  return t('error.unknown', { status: err.status });
}

/** Worth another try as it is: the server was unreachable or busy, not a refusal. */
export const retryable = (err: unknown) =>
  err instanceof ApiProblem && (err.status === 0 || err.status >= 500 || err.status === 429);

export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useI18n();
  if (!error) return null;
  return (
    <div class="problem" role="alert">
      <p>{problemText(error, t)}</p>
      {/* Not logged in (any more): the way on is logging in, then back here. */}
      {error instanceof ApiProblem && error.code === 'missing_token' && (
        <p>
          <a href={href.login()} onClick={() => rememberReturn(location.hash)}>
            {t('nav.login')}
          </a>
        </p>
      )}
      {onRetry && retryable(error) && (
        <button type="button" class="secondary" onClick={onRetry}>
          {t('error.retry')}
        </button>
      )}
    </div>
  );
}
