// web/src/features/people/search-page.tsx — 找人: the people a query finds (GET /users?q=), best
// first, each with avatar, name, follower count and, for a logged-in reader, a follow button.
// The query comes from the route (#/search/<q>), which the header's search box sets.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type PersonFound } from '../../api/client';
import { Avatar, Byline, personOf } from '../../components/avatar';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import type { Session } from '../../session';

export function SearchPage({ q, current }: { q: string; current: Session | null }) {
  const { t } = useI18n();
  const [people, setPeople] = useState<PersonFound[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!q.trim()) return;
    let live = true;
    call(api.GET('/users', { params: { query: { q, limit: 30 } } }))
      .then(({ data }) => live && setPeople(data.users))
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [q]);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{q.trim() ? t('search.title', { q }) : t('search.label')}</h1>
      {!q.trim() ? (
        <p class="muted">{t('search.prompt')}</p>
      ) : error ? (
        <ErrorMessage error={error} />
      ) : people === null ? (
        <p class="muted" role="status">
          {t('timeline.loading')}
        </p>
      ) : people.length === 0 ? (
        <p class="muted" role="status">
          {t('search.empty')}
        </p>
      ) : (
        <ul class="users found">
          {people.map((p) => (
            <li key={p.handle}>
              <span class="who">
                <Avatar {...personOf(p)} />
                <span>
                  <Byline {...personOf(p)} />
                  <small class="muted">{t('search.followers', { n: p.followers })}</small>
                </span>
              </span>
              {current && current.handle !== p.handle && <FollowButton me={current.handle} person={p} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Follow or unfollow from the list; the button shows the state the API answered. */
function FollowButton({ me, person }: { me: string; person: PersonFound }) {
  const { t } = useI18n();
  const [following, setFollowing] = useState(person.followedByYou);
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    try {
      const path = { handle: me, target: person.handle };
      const { data } = following
        ? await call(api.DELETE('/users/{handle}/following/{target}', { params: { path } }))
        : await call(api.PUT('/users/{handle}/following/{target}', { params: { path } }));
      setFollowing(data.following);
    } catch {
      /* the button keeps its state; a second press tries again */
    } finally {
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      class={following ? 'secondary small' : 'small'}
      aria-pressed={following}
      aria-label={t(following ? 'search.unfollow' : 'side.follow', { handle: person.handle })}
      disabled={busy}
      onClick={toggle}
    >
      {following ? t('profile.following') : t('profile.follow')}
    </button>
  );
}
