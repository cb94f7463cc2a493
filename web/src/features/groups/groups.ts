// web/src/features/groups/groups.ts — your groups (分组) as the pages read them: the list (特别关注
// first, as the API orders it), the name each shows (特别关注 in the page's language), and the
// list as last read, so the home's tabs draw at once when you move between them.
import { api, call, type Group } from '../../api/client';
import type { Translate } from '../../i18n/i18n';

/** The built-in group's id: it always exists, cannot be renamed or deleted. */
export const SPECIAL = 'special';

let last: { handle: string; groups: Group[] } | null = null;

/** The groups as last read for `handle` (none yet: null). */
export const knownGroups = (handle: string): Group[] | null => (last?.handle === handle ? last.groups : null);

/** Reads your groups; with `member`, each says whether it holds them. `background`: a hint that
 *  waits for nothing and is waited on by nothing (api/client.ts `call`). */
export async function loadGroups(handle: string, { member, background = false }: LoadOptions = {}) {
  const { data } = await call(
    api.GET('/users/{handle}/groups', { params: { path: { handle }, query: member ? { member } : {} } }),
    { background },
  );
  remember(handle, data.groups);
  return data.groups;
}

interface LoadOptions {
  member?: string;
  background?: boolean;
}

/** The list as it now is (after a change the page made). */
export function remember(handle: string, groups: Group[]): void {
  last = { handle, groups: groups.map(({ hasMember: _, ...g }) => g) };
}

export const groupName = (group: Group, t: Translate) => (group.special ? t('groups.special') : group.name);
