// web/src/features/auth/auth-pages.tsx — log in, and sign up (which logs in right after). Both
// land on the page that sent you to log in, else the home timeline (app.tsx): login + the
// timeline page are the only two round trips before it renders.
import { useState } from 'preact/hooks';
import { api, call, logIn } from '../../api/client';
import { DISPLAY_NAME_MAX, HANDLE_MAX, HANDLE_PATTERN, PASSWORD_MAX, PASSWORD_MIN } from '../../api/limits';
import { hasVisible } from '../../components/char-count';
import { ErrorMessage } from '../../components/problem';
import type { MessageKey } from '../../i18n/messages';
import { absoluteDate, useI18n } from '../../i18n/i18n';
import { markRestored, takeDeparture } from '../settings/leave-account';
import { href } from '../../router';

/** A field's problem, said in the page's language (the forms are `noValidate`: the browser's own
 *  bubbles speak the browser's language, not the page's). */
type FieldProblems = Partial<Record<string, MessageKey>>;

/** `check`: the fields' problems before sending; the first field with one gets the focus. */
function useSubmit(action: () => Promise<void>, check: () => FieldProblems = () => ({})) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [tried, setTried] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setTried(true);
    const found = check();
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(first)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return { busy, error, submit, problems, tried };
}

/** An input's wiring to its problem: marked invalid, the sentence read with it. */
const invalid = (problems: FieldProblems, id: string, hint?: string) => ({
  'aria-invalid': problems[id] ? true : undefined,
  'aria-describedby': [hint, problems[id] ? `${id}-problem` : undefined].filter(Boolean).join(' ') || undefined,
});

function FieldProblem({
  problems,
  id,
  vars,
}: {
  problems: FieldProblems;
  id: string;
  vars?: Record<string, string | number>;
}) {
  const { t } = useI18n();
  const key = problems[id];
  return key ? (
    <span id={`${id}-problem`} class="field-problem">
      {t(key, vars)}
    </span>
  ) : null;
}

const HANDLE_RE = new RegExp(HANDLE_PATTERN);

export function LoginPage({ notice }: { notice?: string }) {
  const { t, locale } = useI18n();
  // Just left (profile/leave-account.tsx): that, and until when a login brings it all back.
  const [departed] = useState(takeDeparture);
  const said = departed ? t('leave.done', { date: absoluteDate(departed, locale) }) : notice;
  const [handle, setHandle] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit, problems, tried } = useSubmit(
    async () => void ((await logIn(handle.trim(), password)) && markRestored()),
    () => ({
      ...(handle.trim() ? {} : { 'login-handle': 'form.required' as const }),
      ...(password ? {} : { 'login-password': 'form.required' as const }),
    }),
  );
  return (
    <section class="auth" aria-labelledby="page-title">
      <h1 id="page-title">{t('auth.loginTitle')}</h1>
      {/* Why you are here, until you try to log in: then only the answer to that shows. */}
      {said && !tried && (
        <p class="notice" role="status">
          {said}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <label for="login-handle">{t('auth.handle')}</label>
        <input
          id="login-handle"
          name="handle"
          autocomplete="username"
          required
          {...invalid(problems, 'login-handle')}
          value={handle}
          onInput={(e) => setHandle((e.target as HTMLInputElement).value)}
        />
        <FieldProblem problems={problems} id="login-handle" />
        <label for="login-password">{t('auth.password')}</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          {...invalid(problems, 'login-password')}
          value={password}
          onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
        />
        <FieldProblem problems={problems} id="login-password" />
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
  const { busy, error, submit, problems } = useSubmit(
    async () => {
      await call(api.POST('/users', { body: { handle, displayName, password } }));
      await logIn(handle, password);
    },
    () => {
      const found: FieldProblems = {};
      if (!handle) found['reg-handle'] = 'form.required';
      else if (!HANDLE_RE.test(handle) || handle.length > HANDLE_MAX) found['reg-handle'] = 'auth.handleInvalid';
      if (!hasVisible(displayName)) found['reg-name'] = 'form.required';
      if (!password) found['reg-password'] = 'form.required';
      else if ([...password].length < PASSWORD_MIN) found['reg-password'] = 'auth.passwordShort';
      return found;
    },
  );
  return (
    <section class="auth" aria-labelledby="page-title">
      <h1 id="page-title">{t('auth.registerTitle')}</h1>
      <form onSubmit={submit} noValidate>
        <label for="reg-handle">{t('auth.handle')}</label>
        <input
          id="reg-handle"
          name="handle"
          autocomplete="username"
          required
          pattern={HANDLE_PATTERN}
          maxLength={HANDLE_MAX}
          {...invalid(problems, 'reg-handle', 'reg-handle-hint')}
          value={handle}
          onInput={(e) => setHandle((e.target as HTMLInputElement).value)}
        />
        <small id="reg-handle-hint">{t('auth.handleHint', { max: HANDLE_MAX })}</small>
        <FieldProblem problems={problems} id="reg-handle" vars={{ max: HANDLE_MAX }} />
        <label for="reg-name">{t('auth.displayName')}</label>
        <input
          id="reg-name"
          name="displayName"
          autocomplete="nickname"
          required
          maxLength={DISPLAY_NAME_MAX}
          {...invalid(problems, 'reg-name')}
          value={displayName}
          onInput={(e) => setDisplayName((e.target as HTMLInputElement).value)}
        />
        <FieldProblem problems={problems} id="reg-name" />
        <label for="reg-password">{t('auth.password')}</label>
        <input
          id="reg-password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          {...invalid(problems, 'reg-password', 'reg-password-hint')}
          value={password}
          onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
        />
        <small id="reg-password-hint">{t('auth.passwordHint', { min: PASSWORD_MIN })}</small>
        <FieldProblem problems={problems} id="reg-password" vars={{ min: PASSWORD_MIN }} />
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
