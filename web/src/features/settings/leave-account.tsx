// web/src/features/settings/leave-account.tsx — leaving (注销) from your settings: a clear
// warning with the date until which a login restores everything, the password again, then the
// API deactivates the account (DELETE /users/{handle}) and this tab (and every other) logs out.
// The login page then says what happened and until when (takeDeparture).
import { useState } from 'preact/hooks';
import { api, call, logOut } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { absoluteDate, useI18n } from '../../i18n/i18n';

/** How long a login can still restore a deactivated account (shared/domain/leaving.ts): for the warning's date. */
const RESTORE_WINDOW_DAYS = 30;

let departed: string | null = null;
let restored = false;

/** A login just brought this account back (auth-pages.tsx): the home page says so, once. */
export const markRestored = () => {
  restored = true;
};
export function takeRestored(): boolean {
  const was = restored;
  restored = false;
  return was;
}

/** The instant until which the account this tab just deactivated can be restored, once (the login page's notice). */
export function takeDeparture(): string | null {
  const until = departed;
  departed = null;
  return until;
}

export function LeaveAccount({ handle }: { handle: string }) {
  const { t, locale } = useI18n();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { data } = await call(api.DELETE('/users/{handle}', { params: { path: { handle } }, body: { password } }));
      departed = data.erasableFrom;
      logOut();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  if (!open) {
    return (
      <p>
        <button type="button" class="link danger" onClick={() => setOpen(true)}>
          {t('leave.open')}
        </button>
      </p>
    );
  }
  const until = absoluteDate(new Date(Date.now() + RESTORE_WINDOW_DAYS * 86_400_000).toISOString(), locale);
  return (
    <form class="leave-form" onSubmit={submit} aria-labelledby="leave-title">
      <h2 id="leave-title">{t('leave.title')}</h2>
      <p class="warning">{t('leave.warning', { date: until })}</p>
      <label for="leave-password">{t('leave.password')}</label>
      <input
        id="leave-password"
        type="password"
        autocomplete="current-password"
        required
        value={password}
        onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
      />
      <p>
        <button type="submit" class="danger" disabled={busy || password === ''}>
          {t('leave.confirm')}
        </button>{' '}
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setOpen(false);
            setPassword('');
            setError(null);
          }}
        >
          {t('profile.cancel')}
        </button>
      </p>
      <ErrorMessage error={error} />
    </form>
  );
}
