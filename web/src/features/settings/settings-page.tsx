// web/src/features/settings/settings-page.tsx — 设置: everything about your own account on one
// page, in sections a contents list jumps to: the profile (name, bio, location, avatar, cover),
// privacy (who may message you; the users you block or mute), the notifications you are told of,
// the language and the colour theme, and your data export and leaving. The profile and the
// settings load side by side; each switch saves as it is flipped, the profile form on Save.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Profile } from '../../api/client';
import type { components } from '../../api/schema';
import { BIO_MAX, DISPLAY_NAME_MAX, LOCATION_MAX } from '../../api/limits';
import { Avatar, profileFace } from '../../components/avatar';
import { ErrorMessage } from '../../components/problem';
import { LOCALES, useI18n, type Locale } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/messages';
import { href } from '../../router';
import { THEMES, savedTheme, setTheme, type Theme } from '../../theme';
import { EditPicture } from './edit-picture';
import { ExportData } from './export-data';
import { LeaveAccount } from './leave-account';

type Settings = components['schemas']['Settings'];
type MessagesFrom = Settings['messagesFrom'];
type NotificationKind = keyof Settings['notifications'];

const MESSAGES_FROM: MessagesFrom[] = ['everyone', 'following', 'nobody'];
const NOTIFICATION_KINDS: NotificationKind[] = ['likes', 'comments', 'reposts', 'mentions', 'follows'];
const SECTIONS: [id: string, title: MessageKey][] = [
  ['settings-profile', 'settings.profile'],
  ['settings-privacy', 'settings.privacy'],
  ['settings-notifications', 'settings.notifications'],
  ['settings-display', 'settings.display'],
  ['settings-account', 'settings.account'],
];

export function SettingsPage({ handle }: { handle: string }) {
  const { t } = useI18n();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = () => {
    setError(null);
    const path = { params: { path: { handle } } };
    Promise.all([call(api.GET('/users/{handle}', path)), call(api.GET('/users/{handle}/settings', path))])
      .then(([p, s]) => {
        setProfile(p.data);
        setSettings(s.data);
      })
      .catch(setError);
  };
  useEffect(load, [handle]);

  return (
    <section class="settings" aria-labelledby="page-title">
      <h1 id="page-title">{t('settings.title')}</h1>
      <nav class="settings-toc" aria-label={t('settings.sections')}>
        <ul>
          {SECTIONS.map(([id, title]) => (
            <li key={id}>
              {/* The hash is the router's: move to the section without changing the route. */}
              <a
                href={`#${id}`}
                onClick={(e) => {
                  e.preventDefault();
                  const to = document.getElementById(id);
                  to?.scrollIntoView();
                  to?.focus();
                }}
              >
                {t(title)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <ErrorMessage error={error} onRetry={load} />
      {profile && <ProfileSection profile={profile} onSaved={setProfile} />}
      {settings && <PrivacySection handle={handle} settings={settings} onSaved={setSettings} />}
      {settings && <NotificationsSection handle={handle} settings={settings} onSaved={setSettings} />}
      <DisplaySection />
      <section class="settings-section" id="settings-account" tabIndex={-1} aria-labelledby="settings-account-h">
        <h2 id="settings-account-h">{t('settings.account')}</h2>
        <ExportData handle={handle} />
        <LeaveAccount handle={handle} />
      </section>
    </section>
  );
}

/** Name, bio and location in one form (one PATCH of what changed), then the avatar and the cover. */
function ProfileSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState(profile.displayName);
  const [bio, setBio] = useState(profile.bio);
  const [location, setLocation] = useState(profile.location);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  async function save(e: Event) {
    e.preventDefault();
    setError(null);
    setStatus('');
    const body = {
      ...(name.trim() !== profile.displayName ? { displayName: name } : {}),
      ...(bio.trim() !== profile.bio ? { bio } : {}),
      ...(location.trim() !== profile.location ? { location } : {}),
    };
    if (Object.keys(body).length === 0) {
      setStatus(t('settings.saved'));
      return;
    }
    setBusy(true);
    try {
      const { data } = await call(api.PATCH('/users/{handle}', { params: { path: { handle: profile.handle } }, body }));
      onSaved(data);
      setStatus(t('settings.saved'));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="settings-section" id="settings-profile" tabIndex={-1} aria-labelledby="settings-profile-h">
      <h2 id="settings-profile-h">{t('settings.profile')}</h2>
      <form class="settings-form" onSubmit={save}>
        <label for="settings-name">{t('auth.displayName')}</label>
        <input
          id="settings-name"
          value={name}
          maxLength={DISPLAY_NAME_MAX}
          required
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <label for="settings-bio">{t('settings.bio')}</label>
        <textarea
          id="settings-bio"
          value={bio}
          rows={3}
          maxLength={BIO_MAX}
          aria-describedby="settings-bio-hint"
          onInput={(e) => setBio((e.target as HTMLTextAreaElement).value)}
        />
        <small id="settings-bio-hint" class="muted">
          {t('settings.bioHint', { n: BIO_MAX })}
        </small>
        <label for="settings-location">{t('settings.location')}</label>
        <input
          id="settings-location"
          value={location}
          maxLength={LOCATION_MAX}
          onInput={(e) => setLocation((e.target as HTMLInputElement).value)}
        />
        <p>
          <button type="submit" disabled={busy}>
            {t('settings.saveProfile')}
          </button>{' '}
          <span role="status">{status}</span>
        </p>
        <ErrorMessage error={error} />
      </form>
      <h3>{t('settings.avatar')}</h3>
      <div class="settings-picture">
        <Avatar {...profileFace(profile)} size="large" />
        <EditPicture kind="avatar" profile={profile} onSaved={onSaved} />
      </div>
      <h3>{t('settings.cover')}</h3>
      <div class="settings-picture">
        {profile.cover ? (
          <img class="settings-cover" src={profile.cover} alt="" />
        ) : (
          <p class="muted">{t('settings.noCover')}</p>
        )}
        <EditPicture kind="cover" profile={profile} onSaved={onSaved} />
      </div>
    </section>
  );
}

/** Saves one change of the settings; the answer is the settings as they are now. */
function useSettingsChange(handle: string, onSaved: (s: Settings) => void) {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  async function change(body: ChangeBody) {
    setError(null);
    setStatus('');
    try {
      const { data } = await call(api.PATCH('/users/{handle}/settings', { params: { path: { handle } }, body }));
      onSaved(data);
      setStatus(t('settings.saved'));
    } catch (err) {
      setError(err);
    }
  }
  return { change, error, status };
}
type ChangeBody = { messagesFrom?: MessagesFrom; notifications?: Partial<Settings['notifications']> };

/** A section of the settings the API keeps (GET / PATCH …/settings): what it shows, and who hears of a change. */
interface SettingsSectionProps {
  handle: string;
  settings: Settings;
  onSaved: (s: Settings) => void;
}

function PrivacySection({ handle, settings, onSaved }: SettingsSectionProps) {
  const { t } = useI18n();
  const { change, error, status } = useSettingsChange(handle, onSaved);
  return (
    <section class="settings-section" id="settings-privacy" tabIndex={-1} aria-labelledby="settings-privacy-h">
      <h2 id="settings-privacy-h">{t('settings.privacy')}</h2>
      <fieldset class="settings-choices">
        <legend>{t('settings.messagesFrom')}</legend>
        {MESSAGES_FROM.map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="messages-from"
              value={value}
              checked={settings.messagesFrom === value}
              onChange={() => change({ messagesFrom: value })}
            />{' '}
            {t(`settings.messages.${value}`)}
          </label>
        ))}
      </fieldset>
      <p class="settings-status" role="status">
        {status}
      </p>
      <ErrorMessage error={error} />
      <h3>{t('settings.hidden')}</h3>
      <ul class="settings-links">
        <li>
          <a href={href.hidden('blocks')}>{t('blocks.blockedTitle')}</a>
        </li>
        <li>
          <a href={href.hidden('mutes')}>{t('blocks.mutedTitle')}</a>
        </li>
      </ul>
    </section>
  );
}

function NotificationsSection({ handle, settings, onSaved }: SettingsSectionProps) {
  const { t } = useI18n();
  const { change, error, status } = useSettingsChange(handle, onSaved);
  return (
    <section
      class="settings-section"
      id="settings-notifications"
      tabIndex={-1}
      aria-labelledby="settings-notifications-h"
    >
      <h2 id="settings-notifications-h">{t('settings.notifications')}</h2>
      <fieldset class="settings-choices">
        <legend>{t('settings.notifyLegend')}</legend>
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind}>
            <input
              type="checkbox"
              checked={settings.notifications[kind]}
              onChange={(e) => change({ notifications: { [kind]: (e.target as HTMLInputElement).checked } })}
            />{' '}
            {t(`settings.notify.${kind}`)}
          </label>
        ))}
      </fieldset>
      <p class="settings-status" role="status">
        {status}
      </p>
      <ErrorMessage error={error} />
    </section>
  );
}

/** The language (the same choice as the header's) and the colour theme (theme.ts: kept in this browser). */
function DisplaySection() {
  const { t, locale, setLocale } = useI18n();
  const [theme, chooseTheme] = useState<Theme>(savedTheme);
  return (
    <section class="settings-section" id="settings-display" tabIndex={-1} aria-labelledby="settings-display-h">
      <h2 id="settings-display-h">{t('settings.display')}</h2>
      <fieldset class="settings-choices">
        <legend>{t('nav.language')}</legend>
        {LOCALES.map((l) => (
          <label key={l.id} lang={l.id}>
            <input
              type="radio"
              name="language"
              value={l.id}
              checked={locale === l.id}
              onChange={() => setLocale(l.id as Locale)}
            />{' '}
            {l.label}
          </label>
        ))}
      </fieldset>
      <fieldset class="settings-choices">
        <legend>{t('settings.theme')}</legend>
        {THEMES.map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="theme"
              value={value}
              checked={theme === value}
              onChange={() => {
                setTheme(value);
                chooseTheme(value);
              }}
            />{' '}
            {t(`settings.theme.${value}`)}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
