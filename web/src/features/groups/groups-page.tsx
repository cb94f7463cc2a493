// web/src/features/groups/groups-page.tsx — 分组 (#/groups): your groups, 特别关注 first, each with
// its member count and a link to its tab on the home page; make one, rename or delete your own
// (deleting asks first, in the page's dialog: the people stay followed), and open a group's
// members to take someone out. 特别关注 cannot be renamed or deleted. Reached from the home's tabs
// and your own profile.
import { useEffect, useState } from 'preact/hooks';
import { api, call, type Group, type GroupMember } from '../../api/client';
import { Avatar, Byline, personOf } from '../../components/avatar';
import { ask } from '../../components/confirm';
import { Count } from '../../components/count';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import { href } from '../../router';
import { groupName, loadGroups, remember } from './groups';

export function GroupsPage({ handle }: { handle: string }) {
  const { t } = useI18n();
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const load = () => {
    setLoadError(null);
    loadGroups(handle).then(setGroups, setLoadError);
  };
  useEffect(load, [handle]);

  /** The list after a change (kept for the home's tabs too). */
  const update = (change: (all: Group[]) => Group[]) =>
    setGroups((all) => {
      const next = change(all ?? []);
      remember(handle, next);
      return next;
    });
  /** The group as the API answered a change to it, in its place. */
  const replace = (group: Group) => update((all) => all.map((g) => (g.id === group.id ? group : g)));

  /** Runs one change; its sentence in the status line, or the API's refusal. */
  async function act(run: () => Promise<string>) {
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      setStatus(await run());
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function create(e: Event) {
    e.preventDefault();
    const made = await act(async () => {
      const { data } = await call(api.POST('/users/{handle}/groups', { params: { path: { handle } }, body: { name } }));
      update((all) => [...all, data]);
      return t('groups.created', { name: data.name });
    });
    if (made) setName('');
  }

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('groups.title')}</h1>
      <form class="group-form" onSubmit={create}>
        <label class="group-field">
          {t('groups.new')}
          <input
            id="group-new-name"
            type="text"
            value={name}
            placeholder={t('groups.name')}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={busy || !name.trim()}>
          {t('groups.create')}
        </button>
      </form>
      <p class="sr-status" role="status">
        {status}
      </p>
      <ErrorMessage error={error} />
      {loadError ? <ErrorMessage error={loadError} onRetry={load} /> : null}
      {!groups && !loadError && <p class="muted">{t('timeline.loading')}</p>}
      {groups && (
        <ul class="group-list">
          {groups.map((g) => (
            <GroupRow
              key={g.id}
              me={handle}
              group={g}
              act={act}
              onChanged={replace}
              onDeleted={(left) => update(() => left)}
            />
          ))}
        </ul>
      )}
      {groups?.length === 1 && <p class="muted">{t('groups.none')}</p>}
    </section>
  );
}

function GroupRow({
  me,
  group,
  act,
  onChanged,
  onDeleted,
}: {
  me: string;
  group: Group;
  act: (run: () => Promise<string>) => Promise<boolean>;
  onChanged: (group: Group) => void;
  onDeleted: (left: Group[]) => void;
}) {
  const { t } = useI18n();
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState(group.name);
  const [members, setMembers] = useState<GroupMember[] | null>(null);
  const [showing, setShowing] = useState(false);
  const [membersError, setMembersError] = useState<unknown>(null);
  const name = groupName(group, t);
  const path = { handle: me, groupId: group.id };
  const membersId = `group-members-${group.id}`;

  const loadMembers = () => {
    setMembersError(null);
    call(api.GET('/users/{handle}/groups/{groupId}/members', { params: { path } })).then(
      ({ data }) => setMembers(data.users),
      setMembersError,
    );
  };
  useEffect(() => {
    if (showing) loadMembers();
  }, [showing]);

  async function rename(e: Event) {
    e.preventDefault();
    const done = await act(async () => {
      const { data } = await call(
        api.PATCH('/users/{handle}/groups/{groupId}', { params: { path }, body: { name: newName } }),
      );
      onChanged(data);
      return t('groups.renamed', { name: data.name });
    });
    if (done) setRenaming(false);
  }

  async function remove() {
    const yes = await ask({
      title: t('groups.deleteTitle', { name }),
      detail: t('groups.deleteDetail'),
      action: t('groups.delete'),
    });
    if (!yes) return;
    await act(async () => {
      const { data } = await call(api.DELETE('/users/{handle}/groups/{groupId}', { params: { path } }));
      onDeleted(data.groups);
      return t('groups.deleted', { name });
    });
  }

  const takeOut = (member: string) =>
    act(async () => {
      const { data } = await call(
        api.DELETE('/users/{handle}/groups/{groupId}/members/{member}', { params: { path: { ...path, member } } }),
      );
      setMembers((all) => all?.filter((m) => m.handle !== member) ?? null);
      onChanged(data);
      return t('groups.removed', { handle: member, name });
    });

  return (
    <li class="group-row">
      <div class="group-head">
        <h2 class="group-name">
          <a class="group-link" href={href.home(group.id)}>
            {name}
          </a>
        </h2>
        <span class="muted">
          <Count message="groups.members" n={group.members} />
        </span>
        <button
          type="button"
          class="secondary small"
          aria-expanded={showing}
          aria-controls={showing ? membersId : undefined}
          aria-label={t('groups.membersOf', { name })}
          onClick={() => setShowing(!showing)}
        >
          {t('groups.showMembers')}
        </button>
        {!group.special && (
          <>
            <button
              type="button"
              class="secondary small"
              aria-expanded={renaming}
              onClick={() => {
                setNewName(group.name);
                setRenaming(!renaming);
              }}
            >
              {t('groups.rename')}
              <span class="sr-only"> {name}</span>
            </button>
            <button type="button" class="danger small" aria-label={t('groups.deleteLabel', { name })} onClick={remove}>
              {t('groups.delete')}
            </button>
          </>
        )}
      </div>
      {group.special && <p class="muted">{t('groups.specialHint')}</p>}
      {renaming && (
        <form class="group-form" onSubmit={rename}>
          <label class="group-field">
            {t('groups.renameLabel', { name })}
            <input
              type="text"
              value={newName}
              onInput={(e) => setNewName((e.target as HTMLInputElement).value)}
              onKeyDown={(e) => e.key === 'Escape' && setRenaming(false)}
            />
          </label>
          <button type="submit" class="small">
            {t('groups.save')}
          </button>
          <button type="button" class="secondary small" onClick={() => setRenaming(false)}>
            {t('groups.cancel')}
          </button>
        </form>
      )}
      {showing && (
        <div id={membersId}>
          <ErrorMessage error={membersError} onRetry={loadMembers} />
          {members === null && !membersError && <p class="muted">{t('timeline.loading')}</p>}
          {members?.length === 0 && <p class="muted">{t('groups.noMembers')}</p>}
          {members && members.length > 0 && (
            <ul class="users" aria-label={t('groups.membersOf', { name })}>
              {members.map((m) => (
                <li key={m.handle}>
                  <span class="who">
                    <Avatar {...personOf(m)} />
                    <Byline {...personOf(m)} />
                  </span>{' '}
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={t('groups.removeLabel', { handle: m.handle, name })}
                    onClick={() => void takeOut(m.handle)}
                  >
                    {t('groups.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}
