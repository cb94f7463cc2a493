// shared/use-cases/settings.ts — your own settings (设置): who may send you a private message
// (私信, read by the conversations to come), and which kinds of notification you are told of
// (read by the notification worker: notifications.ts, reconcileFact).
// Steps: only yourself (403) → the settings read (404 for nobody: nothing is written for a row
// that is not there) → the change written in one row write (only what it names: each kind of
// notification is a cell of its own, so two changes of different kinds never undo each other) →
// the settings read with the change applied.
import { NotFoundError } from '../domain/errors.js';
import type { SettingsChange, UserSettings } from '../domain/settings.js';
import type { UserStore } from '../ports/user-store.js';
import { actAs } from './users.js';

export type SettingsDeps = { users: Pick<UserStore, 'settings' | 'changeSettings'> };

export async function getSettings(deps: SettingsDeps, actor: string, handle: string): Promise<UserSettings> {
  actAs(actor, handle);
  const settings = await deps.users.settings(handle);
  if (!settings) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  return settings;
}

export async function changeSettings(
  deps: SettingsDeps,
  actor: string,
  handle: string,
  change: SettingsChange,
): Promise<UserSettings> {
  const now = await getSettings(deps, actor, handle);
  await deps.users.changeSettings(handle, change);
  return {
    messagesFrom: change.messagesFrom ?? now.messagesFrom,
    notifications: { ...now.notifications, ...change.notifications },
  };
}
