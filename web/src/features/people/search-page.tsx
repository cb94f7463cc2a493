// web/src/features/people/search-page.tsx — 搜索: one query over people (GET /users?q=), topic
// names (GET /topics?q=) and posts (GET /search/posts), in tabs 综合 / 用户 / 话题 / 微博. The query
// and the tab are the route (#/search/<q>[/<tab>]), which the header's search box sets, so a
// search can be shared and reloaded. Posts are cursor-paged with their matched words marked; a
// page may come back short while the search goes on (the API reads a bounded slice of the index
// each time), so "load more" stays until the cursor ends.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type PersonFound, type Post } from '../../api/client';
import { Avatar, Byline, personOf } from '../../components/avatar';
import { usePaged } from '../../components/paged';
import { ErrorMessage } from '../../components/problem';
import type { Marks } from '../../components/rich-text';
import { useI18n } from '../../i18n/i18n';
import { href, SEARCH_TABS, type SearchTab } from '../../router';
import type { Session } from '../../session';
import { GroupPicker } from '../groups/group-picker';
import { PagedPosts } from '../posts/paged-posts';

/** What 综合 shows of people and topics before its posts. */
const PEOPLE_ON_ALL = 3;
const TOPICS_ON_ALL = 5;

export function SearchPage({ q, tab, current }: { q: string; tab: SearchTab; current: Session | null }) {
  const { t } = useI18n();
  const query = q.trim();
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{query ? t('search.title', { q: query }) : t('search.label')}</h1>
      {!query ? (
        <p class="muted">{t('search.prompt')}</p>
      ) : (
        <>
          <nav class="search-tabs" aria-label={t('search.tabs')}>
            {SEARCH_TABS.map((name) => (
              <a key={name} href={href.search(query, name)} aria-current={name === tab ? 'page' : undefined}>
                {t(`search.tab.${name}`)}
              </a>
            ))}
          </nav>
          {(tab === 'all' || tab === 'people') && (
            <People q={query} limit={tab === 'all' ? PEOPLE_ON_ALL : 30} current={current} heading={tab === 'all'} />
          )}
          {(tab === 'all' || tab === 'topics') && (
            <Topics q={query} limit={tab === 'all' ? TOPICS_ON_ALL : 20} heading={tab === 'all'} />
          )}
          {(tab === 'all' || tab === 'posts') && <Posts q={query} heading={tab === 'all'} />}
        </>
      )}
    </section>
  );
}

/** 用户: people whose handle or name starts with the query, best first. */
function People({
  q,
  limit,
  current,
  heading,
}: {
  q: string;
  limit: number;
  current: Session | null;
  heading: boolean;
}) {
  const { t } = useI18n();
  const [people, setPeople] = useState<PersonFound[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    call(api.GET('/users', { params: { query: { q, limit } } }))
      .then(({ data }) => live && setPeople(data.users))
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [q, limit]);
  return (
    <div class="search-part">
      {heading && <h2 class="part-title">{t('search.tab.people')}</h2>}
      {error ? (
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
    </div>
  );
}

/** 话题: topic names the query starts (what cannot start a topic name finds none). */
function Topics({ q, limit, heading }: { q: string; limit: number; heading: boolean }) {
  const { t } = useI18n();
  const [names, setNames] = useState<string[] | null>(null);
  useEffect(() => {
    let live = true;
    call(api.GET('/topics', { params: { query: { q, limit } } }), { background: true })
      .then(({ data }) => live && setNames(data.topics.map((topic) => topic.name)))
      .catch(() => live && setNames([]));
    return () => {
      live = false;
    };
  }, [q, limit]);
  return (
    <div class="search-part">
      {heading && <h2 class="part-title">{t('search.tab.topics')}</h2>}
      {names === null ? (
        <p class="muted" role="status">
          {t('timeline.loading')}
        </p>
      ) : names.length === 0 ? (
        <p class="muted" role="status">
          {t('search.noTopics')}
        </p>
      ) : (
        <ul class="found-topics">
          {names.map((name) => (
            <li key={name}>
              <a class="topic" href={href.topic(name)}>
                #{name}#
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** 微博: posts holding every word, newest first, their matched words marked. */
function Posts({ q, heading }: { q: string; heading: boolean }) {
  const { t } = useI18n();
  const marks = useRef(new Map<string, Marks>());
  const list = usePaged<Post>(
    async (cursor?: string) => {
      const { data } = await call(
        api.GET('/search/posts', { params: { query: { q, limit: 20, ...(cursor ? { cursor } : {}) } } }),
      );
      for (const [id, spans] of Object.entries(data.highlights)) marks.current.set(id, spans);
      return { items: data.posts, nextCursor: data.nextCursor };
    },
    [q],
  );
  return (
    <div class="search-part">
      {heading && <h2 class="part-title">{t('search.tab.posts')}</h2>}
      <PagedPosts list={list} empty={t('search.noPosts')} marks={marks.current} />
    </div>
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
      {me && (
        <span class="found-actions">
          <FollowButton me={me} target={person.handle} following={following} onChange={changed} />
          {following && <GroupPicker me={me} member={person.handle} />}
        </span>
      )}
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
