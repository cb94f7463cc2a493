// web/src/features/sidebar/sidebar.tsx — the right column on wide screens: trending topics and
// people to follow. It is extra, so it never delays a page: it is drawn only where there is room
// (useWide), asks once per session after the page's own requests have answered (whenQuiet), and
// a failed request leaves its box out rather than showing an error.
import { useEffect, useState } from 'preact/hooks';
import { api, call, whenQuiet, type Suggestion, type Trending } from '../../api/client';
import { Avatar, Byline, personOf } from '../../components/avatar';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import type { Session } from '../../session';

/** The width from which the sidebar shows (styles.css lays out the third column from here). */
const WIDE = '(min-width: 1100px)';
const TOPICS_SHOWN = 5;

export function useWide(): boolean {
  const [wide, setWide] = useState(() => matchMedia(WIDE).matches);
  useEffect(() => {
    const query = matchMedia(WIDE);
    const change = () => setWide(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return wide;
}

export function Sidebar({ current }: { current: Session | null }) {
  const { t } = useI18n();
  return (
    <aside class="sidebar" aria-label={t('side.label')}>
      {current && <WhoToFollow me={current.handle} />}
      <TrendingBox />
    </aside>
  );
}

function TrendingBox() {
  const { t } = useI18n();
  const [trending, setTrending] = useState<Trending | null>(null);
  useEffect(() => {
    let live = true;
    whenQuiet()
      .then(() => call(api.GET('/topics/trending'), { background: true }))
      .then(({ data }) => live && setTrending(data))
      .catch(() => {}); // extra: without it the column simply has one box less
    return () => {
      live = false;
    };
  }, []);
  if (!trending) return null;
  return (
    <section class="side-box" aria-labelledby="side-trending">
      <h2 id="side-trending">{t('topics.trending')}</h2>
      {trending.topics.length > 0 ? (
        <ol class="side-list">
          {trending.topics.slice(0, TOPICS_SHOWN).map((topic) => (
            <li key={topic.name}>
              <a class="topic" href={href.topic(topic.name)}>
                #{topic.name}#
              </a>
              <span class="muted">{t('topics.posts', { n: topic.posts })}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p class="muted">{t('topics.noneTrending')}</p>
      )}
      <a class="side-more" href={href.trending()}>
        {t('side.allTopics')}
      </a>
    </section>
  );
}

/** People followed by the people you follow (the API's suggestions); Follow takes one off the list. */
function WhoToFollow({ me }: { me: string }) {
  const { t } = useI18n();
  const [users, setUsers] = useState<Suggestion[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    whenQuiet()
      .then(() =>
        call(api.GET('/users/{handle}/suggestions', { params: { path: { handle: me } } }), { background: true }),
      )
      .then(({ data }) => live && setUsers(data.users))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [me]);

  async function follow(handle: string) {
    setBusy(handle);
    try {
      await call(api.PUT('/users/{handle}/following/{target}', { params: { path: { handle: me, target: handle } } }));
      // The API keeps suggestions a minute: the one followed leaves this list here.
      setUsers((list) => list?.filter((u) => u.handle !== handle) ?? null);
    } catch {
      /* the button stays; a second press tries again */
    } finally {
      setBusy(null);
    }
  }

  if (!users || users.length === 0) return null;
  return (
    <section class="side-box" aria-labelledby="side-follow">
      <h2 id="side-follow">{t('side.whoToFollow')}</h2>
      <ul class="side-people">
        {users.map((u) => (
          <li key={u.handle}>
            <span class="who">
              <Avatar {...personOf(u)} />
              <span>
                <Byline {...personOf(u)} />
                {u.followedBy > 0 && <small class="because">{t('side.followedBy', { n: u.followedBy })}</small>}
              </span>
            </span>
            <button
              type="button"
              class="secondary small"
              disabled={busy === u.handle}
              aria-label={t('side.follow', { handle: u.handle })}
              onClick={() => follow(u.handle)}
            >
              {t('profile.follow')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
