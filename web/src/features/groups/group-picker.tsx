// web/src/features/groups/group-picker.tsx — 分组 beside the follow button of someone you follow
// (their profile, a search result): a button that opens a small panel with a checkbox per group
// (特别关注 first), each ticked when the group holds them, a tick or untick saved at once; and a
// field that makes a new group with them in it. What the API refuses is said in the panel. Esc or
// a click elsewhere closes it and the focus goes back to the button.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Group } from '../../api/client';
import { ErrorMessage } from '../../components/problem';
import { useI18n } from '../../i18n/i18n';
import { groupName, loadGroups } from './groups';

export function GroupPicker({ me, member }: { me: string; member: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [name, setName] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = `group-picker-${member}`;

  useEffect(() => {
    if (!open) return;
    setGroups(null);
    setError(null);
    setStatus('');
    loadGroups(me, { member }).then(setGroups, setError);
  }, [open, me, member]);

  // The focus into the panel once its boxes are there; a click outside closes it.
  useLayoutEffect(() => {
    if (!open) return;
    if (groups) panel.current?.querySelector<HTMLInputElement>('input')?.focus();
    const outside = (e: Event) => {
      if (!panel.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open, groups !== null]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  /** Saves one change; the group as the API answered it replaces the one shown (or joins the list). */
  async function change(run: () => Promise<Group>, said: (g: Group) => string) {
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      const next = await run();
      setGroups((all) =>
        all?.some((g) => g.id === next.id) ? all.map((g) => (g.id === next.id ? next : g)) : [...(all ?? []), next],
      );
      setStatus(said(next));
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** The tick shows at once; a refusal puts it back (and says why). */
  const mark = (id: string, hasMember: boolean) =>
    setGroups((all) => all?.map((g) => (g.id === id ? { ...g, hasMember } : g)) ?? null);
  const toggle = async (group: Group) => {
    mark(group.id, !group.hasMember);
    const saved = await change(
      async () => {
        const params = { path: { handle: me, groupId: group.id, member } };
        const { data } = group.hasMember
          ? await call(api.DELETE('/users/{handle}/groups/{groupId}/members/{member}', { params }))
          : await call(api.PUT('/users/{handle}/groups/{groupId}/members/{member}', { params }));
        return data;
      },
      (g) => t(g.hasMember ? 'groups.added' : 'groups.removed', { handle: member, name: groupName(g, t) }),
    );
    if (!saved) mark(group.id, group.hasMember === true);
  };

  async function create(e: Event) {
    e.preventDefault();
    const made = await change(
      async () => {
        const { data: group } = await call(
          api.POST('/users/{handle}/groups', { params: { path: { handle: me } }, body: { name } }),
        );
        const params = { path: { handle: me, groupId: group.id, member } };
        const { data } = await call(api.PUT('/users/{handle}/groups/{groupId}/members/{member}', { params }));
        return data;
      },
      (g) => t('groups.added', { handle: member, name: groupName(g, t) }),
    );
    if (made) setName('');
  }

  return (
    <span class="group-picker">
      <button
        ref={button}
        type="button"
        class="secondary"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={t('groups.pickerLabel', { handle: member })}
        onClick={() => setOpen(!open)}
      >
        {t('groups.picker')}
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          class="picker-panel"
          role="dialog"
          aria-label={t('groups.pickerTitle', { handle: member })}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              close();
            }
          }}
        >
          {groups === null && !error && (
            <p class="muted" role="status">
              {t('timeline.loading')}
            </p>
          )}
          {groups && (
            // Not disabled while a change is saved: the focus stays on the box just ticked.
            <fieldset class="picker-groups">
              <legend class="picker-title">{t('groups.pickerTitle', { handle: member })}</legend>
              {groups.map((g) => (
                <label key={g.id} class="picker-option">
                  <input
                    type="checkbox"
                    class="picker-check"
                    checked={g.hasMember === true}
                    onChange={() => void toggle(g)}
                  />
                  {groupName(g, t)}
                </label>
              ))}
            </fieldset>
          )}
          {groups && (
            <form class="group-form" onSubmit={create}>
              <label class="group-field">
                {t('groups.new')}
                <input
                  type="text"
                  value={name}
                  placeholder={t('groups.name')}
                  onInput={(e) => setName((e.target as HTMLInputElement).value)}
                />
              </label>
              <button type="submit" class="small" disabled={busy || !name.trim()}>
                {t('groups.createAndAdd')}
              </button>
            </form>
          )}
          <p class="sr-status" role="status">
            {status}
          </p>
          <ErrorMessage error={error} />
        </div>
      )}
    </span>
  );
}
