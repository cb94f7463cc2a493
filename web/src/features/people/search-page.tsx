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
            <FoundPerson
              key={p.handle}
              person={p}
              me={current && current.handle !== p.handle ? current.handle : null}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * One person found: the follower count moves with a follow or unfollow from here, as the API
 * answered it (a follow that changed nothing moves nothing).
 */
function FoundPerson({ person, me }: { person: PersonFound; me: string | null }) {
  const { t } = useI18n();
  const [following, setFollowing] = useState(person.followedByYou);
  const [followers, setFollowers] = useState(person.followers);
  const changed = (now: boolean) => {
    if (now !== following) setFollowers((n) => Math.max(0, n + (now ? 1 : -1)));
    setFollowing(now);
  };
  return (
    <li>
      <span class="who">
        <Avatar {...personOf(person)} />
        <span>
          <Byline {...personOf(person)} />
          <small class="muted">{t('search.followers', { n: followers })}</small>
        </span>
      </span>
      {me && <FollowButton me={me} target={person.handle} following={following} onChange={changed} />}
    </li>
  );
}

/**
 * Follow or unfollow from the list. It reads as the profile's button does: 关注 / Follow, then
 * 取消关注 / Unfollow, the state the API answered.
 */
function FollowButton(props: {
  me: string;
  target: string;
  following: boolean;
  onChange: (following: boolean) => void;
}) {
  const { me, target, following, onChange } = props;
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    try {
      const path = { handle: me, target };
      const { data } = following
        ? await call(api.DELETE('/users/{handle}/following/{target}', { params: { path } }))
        : await call(api.PUT('/users/{handle}/following/{target}', { params: { path } }));
      onChange(data.following);
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
      aria-label={t(following ? 'search.unfollow' : 'side.follow', { handle: target })}
      disabled={busy}
      onClick={toggle}
    >
      {following ? t('profile.unfollow') : t('profile.follow')}
    </button>
  );
}
