// web/src/features/auth/auth-pages.tsx — log in, and sign up (which logs in right after). Both
// land on the page that sent you to log in, else the home timeline (app.tsx): login + the
// timeline page are the only two round trips before it renders.
import { useState } from 'preact/hooks';
import { api, call, logIn } from '../../api/client';
import { DISPLAY_NAME_MAX, HANDLE_MAX, HANDLE_PATTERN, PASSWORD_MAX, PASSWORD_MIN } from '../../api/limits';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';

function useSubmit(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return { busy, error, submit };
}

export function LoginPage({ notice }: { notice?: string }) {
  const { t } = useI18n();
  const [handle, setHandle] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(() => logIn(handle.trim(), password));
  return (
    <section class="auth" aria-labelledby="page-title">
      <h1 id="page-title">{t('auth.loginTitle')}</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit}>
        <label for="login-handle">{t('auth.handle')}</label>
        <input id="login-handle" name="handle" autocomplete="username" required value={handle} onInput={(e) => setHandle((e.target as HTMLInputElement).value)} />
        <label for="login-password">{t('auth.password')}</label>
        <input id="login-password" name="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={busy}>
          {t('auth.login')}
        </button>
        <ErrorMessage error={error} />
      </form>
      <p>
        {t('auth.noAccount')} <a href={href.register()}>{t('nav.register')}</a>
      </p>
    </section>
  );
}

export function RegisterPage() {
  const { t } = useI18n();
  const [handle, setHandle] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    await call(api.POST('/users', { body: { handle, displayName, password } }));
    await logIn(handle, password);
  });
  return (
    <section class="auth" aria-labelledby="page-title">
      <h1 id="page-title">{t('auth.registerTitle')}</h1>
      <form onSubmit={submit}>
        <label for="reg-handle">{t('auth.handle')}</label>
        <input id="reg-handle" name="handle" autocomplete="username" required pattern={HANDLE_PATTERN} maxLength={HANDLE_MAX} aria-describedby="reg-handle-hint" value={handle} onInput={(e) => setHandle((e.target as HTMLInputElement).value)} />
        <small id="reg-handle-hint">{t('auth.handleHint', { max: HANDLE_MAX })}</small>
        <label for="reg-name">{t('auth.displayName')}</label>
        <input id="reg-name" name="displayName" autocomplete="nickname" required maxLength={DISPLAY_NAME_MAX} value={displayName} onInput={(e) => setDisplayName((e.target as HTMLInputElement).value)} />
        <label for="reg-password">{t('auth.password')}</label>
        <input id="reg-password" name="password" type="password" autocomplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} aria-describedby="reg-password-hint" value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        <small id="reg-password-hint">{t('auth.passwordHint', { min: PASSWORD_MIN })}</small>
        <button type="submit" disabled={busy}>
          {t('auth.register')}
        </button>
        <ErrorMessage error={error} />
      </form>
      <p>
        {t('auth.haveAccount')} <a href={href.login()}>{t('nav.login')}</a>
      </p>
    </section>
  );
}
