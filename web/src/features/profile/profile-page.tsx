// web/src/features/profile/profile-page.tsx — a user's page: name, counts (linking to the
// lists), follow / unfollow, their posts; on your own page, edit your display name. The
// profile, the posts and the follow state load in parallel (one round trip).
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Post, type Profile } from '../../api/client';
import { PagedFooter, usePaged } from '../../components/paged';
import { ErrorMessage } from '../../components/problem';
import { absoluteDate, useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { session } from '../../session';
import { PostCard } from '../posts/post-card';

export function ProfilePage({ handle }: { handle: string }) {
  const { t, locale } = useI18n();
  const me = session.get()?.handle;
  const [profile, setProfile] = useState<Profile | null>(null);
  const [following, setFollowing] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const loadProfile = () => {
    setError(null);
    call(api.GET('/users/{handle}', { params: { path: { handle } } }))
      .then(({ data }) => setProfile(data))
      .catch(setError);
  };
  useEffect(() => {
    setProfile(null);
    setFollowing(null);
    loadProfile();
    if (me && me !== handle) {
      call(api.GET('/users/{handle}/following/{target}', { params: { path: { handle: me, target: handle } } }))
        .then(({ data }) => setFollowing(data.following))
        .catch(() => setFollowing(null));
    }
  }, [handle, me]);

  const posts = usePaged(async (cursor?: string) => {
    const { data } = await call(api.GET('/users/{handle}/posts', { params: { path: { handle }, query: { limit: 20, ...(cursor ? { cursor } : {}) } } }));
    return { items: data.posts, nextCursor: data.nextCursor };
  }, [handle]);

  // A repost made on your own page is one of your posts: on top at once, and the count moves.
  const addOwn = (repost: Post) => {
    if (repost.author !== handle) return;
    posts.setItems((items) => [repost, ...items.filter((p) => p.id !== repost.id)]);
    loadProfile();
  };

  async function toggleFollow() {
    if (!me) return;
    setBusy(true);
    setActionError(null);
    try {
      const path = { handle: me, target: handle };
      const { data } = following
        ? await call(api.DELETE('/users/{handle}/following/{target}', { params: { path } }))
        : await call(api.PUT('/users/{handle}/following/{target}', { params: { path } }));
      setFollowing(data.following);
      loadProfile(); // the follower count moved
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(false);
    }
  }

  if (error && !profile) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title">@{handle}</h1>
        <ErrorMessage error={error} onRetry={loadProfile} />
      </section>
    );
  }

  return (
    <section aria-labelledby="page-title">
      <header class="profile">
        <h1 id="page-title">
          {profile?.displayName ?? handle} <span class="handle">@{handle}</span>
        </h1>
        {profile && (
          <>
            <p class="muted">{t('profile.joined', { date: absoluteDate(profile.createdAt, locale) })}</p>
            <ul class="counts">
              <li>
                <a href={href.relations(handle, 'following')}>
                  <strong>{profile.following}</strong> {t('profile.following')}
                </a>
              </li>
              <li>
                <a href={href.relations(handle, 'followers')}>
                  <strong>{profile.followers}</strong> {t('profile.followers')}
                </a>
              </li>
              <li>
                <strong>{profile.posts}</strong> {t('profile.posts')}
              </li>
            </ul>
          </>
        )}
        {me && me !== handle && following !== null && (
          <button type="button" class={following ? 'secondary' : ''} onClick={toggleFollow} disabled={busy} aria-pressed={following}>
            {following ? t('profile.unfollow') : t('profile.follow')}
          </button>
        )}
        {me === handle && profile && <EditName profile={profile} onSaved={setProfile} />}
        <ErrorMessage error={actionError} />
      </header>
      <h2>{t('profile.posts')}</h2>
      <div class="feed">
        {posts.items.map((post) => (
          <PostCard
            key={post.id}
            post={post}
            onChange={(next) => posts.setItems((items) => items.map((p) => (p.id === next.id ? next : p)))}
            onReposted={addOwn}
            onDeleted={(id) => posts.setItems((items) => items.filter((p) => p.id !== id))}
          />
        ))}
      </div>
      <PagedFooter list={posts} empty={t('profile.noPosts')} />
    </section>
  );
}

function EditName({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(profile.displayName);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');

  async function save(e: Event) {
    e.preventDefault();
    setError(null);
    try {
      const { data } = await call(api.PATCH('/users/{handle}', { params: { path: { handle: profile.handle } }, body: { displayName: name } }));
      onSaved(data);
      setEditing(false);
      setStatus(t('profile.saved'));
    } catch (err) {
      setError(err);
    }
  }

  if (!editing) {
    return (
      <p>
        <button type="button" class="secondary" onClick={() => (setName(profile.displayName), setEditing(true), setStatus(''))}>
          {t('profile.edit')}
        </button>{' '}
        <span role="status">{status}</span>
      </p>
    );
  }
  return (
    <form class="inline-form" onSubmit={save}>
      <label for="display-name">{t('auth.displayName')}</label>
      <input id="display-name" value={name} maxLength={50} required onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <button type="submit">{t('profile.save')}</button>
      <button type="button" class="secondary" onClick={() => setEditing(false)}>
        {t('profile.cancel')}
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
