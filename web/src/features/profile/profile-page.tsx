// web/src/features/profile/profile-page.tsx — a user's page: their cover picture (a plain band
// until they have one), avatar (initials until they have one), name, bio and location, counts
// (linking to the lists), follow / unfollow, 私信 (a message), block and mute, their posts; on your own page, a
// link to edit all of it in the settings (设置, features/settings), and to your groups (分组); on
// the page of someone you follow, the 分组 picker beside the follow button. The
// profile and the posts load in parallel (one round trip); the follow and block states once the
// profile is there, so an unknown handle does not cost four refused requests.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Post, type Profile } from '../../api/client';
import { Avatar, profileFace } from '../../components/avatar';
import { Count } from '../../components/count';
import { usePaged } from '../../components/paged';
import { ErrorMessage } from '../../components/problem';
import { absoluteDate, useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { session } from '../../session';
import { BlockButtons, type BlockAction } from '../blocks/block-buttons';
import { GroupPicker } from '../groups/group-picker';
import { PagedPosts } from '../posts/paged-posts';

export function ProfilePage({ handle }: { handle: string }) {
  const { t, locale } = useI18n();
  const me = session.get()?.handle;
  const [profile, setProfile] = useState<Profile | null>(null);
  const [following, setFollowing] = useState<boolean | null>(null);
  const [blocking, setBlocking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const loadProfile = () => {
    setError(null);
    return call(api.GET('/users/{handle}', { params: { path: { handle } } }))
      .then(({ data }) => {
        setProfile(data);
        return true;
      })
      .catch((err) => {
        setError(err);
        return false;
      });
  };
  const loadFollowing = () => {
    if (!me || me === handle) return;
    call(api.GET('/users/{handle}/following/{target}', { params: { path: { handle: me, target: handle } } }))
      .then(({ data }) => setFollowing(data.following))
      .catch(() => setFollowing(null));
  };
  useEffect(() => {
    setProfile(null);
    setFollowing(null);
    setBlocking(false);
    // Your relation to them once they are known to exist: an unknown handle costs the profile's
    // request and the posts' (asked beside it, so a real profile shows in one round trip).
    void loadProfile().then((found) => found && loadFollowing());
  }, [handle, me]);

  const posts = usePaged(
    async (cursor?: string) => {
      const { data } = await call(
        api.GET('/users/{handle}/posts', {
          params: { path: { handle }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
        }),
      );
      return { items: data.posts, nextCursor: data.nextCursor };
    },
    [handle],
  );

  // A repost made on your own page is one of your posts: on top at once, and the count moves.
  const addOwn = (repost: Post) => {
    if (repost.author !== handle) return;
    posts.setItems((items) => [repost, ...items.filter((p) => p.id !== repost.id)]);
    loadProfile();
  };

  // A block ended the follows both ways: the button and the counts show the API's truth, and
  // the posts (hidden from each other now, or visible again) are asked for anew.
  function blockChanged(state: { blocking: boolean }, action: BlockAction | 'loaded') {
    setBlocking(state.blocking);
    if (action !== 'block' && action !== 'unblock') return;
    loadFollowing();
    loadProfile();
    posts.reload();
  }

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
        <div class={profile?.cover ? 'profile-cover' : 'profile-cover none'}>
          {profile?.cover && <img src={profile.cover} alt="" />}
        </div>
        <div class="profile-title">
          <Avatar {...(profile ? profileFace(profile) : { handle })} size="large" />
          <h1 id="page-title">
            {profile?.displayName ?? handle} <span class="handle">@{handle}</span>
          </h1>
        </div>
        {profile && (
          <>
            {profile.bio && <p class="profile-bio">{profile.bio}</p>}
            <p class="muted profile-facts">
              {profile.location && (
                <>
                  <span class="profile-location">
                    <span class="sr-only">{t('profile.location')}: </span>
                    {profile.location}
                  </span>
                  {' · '}
                </>
              )}
              {t('profile.joined', { date: absoluteDate(profile.createdAt, locale) })}
            </p>
            <ul class="counts">
              <li>
                <a href={href.relations(handle, 'following')}>
                  <Count message="profile.following" n={profile.following} />
                </a>
              </li>
              <li>
                <a href={href.relations(handle, 'followers')}>
                  <Count message="profile.followers" n={profile.followers} />
                </a>
              </li>
              <li>
                <Count message="profile.postCount" n={profile.posts} />
              </li>
            </ul>
          </>
        )}
        {me && me !== handle && profile && (
          <div class="profile-actions">
            {/* 私信 first (as X puts its message button before Follow): it is there with the
                profile, so the follow button and the 分组 picker, which come with the follow
                state a moment later, never move it from under a pointer on its way to it. */}
            {!blocking && (
              <a class="button secondary message-button" href={href.conversation(handle)}>
                {t('messages.message')}
              </a>
            )}
            {following !== null && (
              // While you block them you cannot follow them (the API would refuse): unblock first.
              <button
                type="button"
                class={following ? 'secondary' : ''}
                onClick={toggleFollow}
                disabled={busy || blocking}
                aria-pressed={following}
              >
                {following ? t('profile.unfollow') : t('profile.follow')}
              </button>
            )}
            {following && !blocking && <GroupPicker me={me} member={handle} />}
            <BlockButtons me={me} handle={handle} onChange={blockChanged} />
          </div>
        )}
        {me === handle && profile && (
          <p class="profile-actions">
            <a class="button secondary" href={href.settings()}>
              {t('profile.editProfile')}
            </a>
            <a class="button secondary" href={href.bookmarks()}>
              {t('nav.bookmarks')}
            </a>
            <a class="button secondary" href={href.groups()}>
              {t('groups.manage')}
            </a>
          </p>
        )}
        <ErrorMessage error={actionError} />
      </header>
      <h2>{t('profile.posts')}</h2>
      <PagedPosts list={posts} empty={t('profile.noPosts')} onReposted={addOwn} />
    </section>
  );
}
