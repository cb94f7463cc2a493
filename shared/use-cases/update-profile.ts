// shared/use-cases/update-profile.ts — change your own display name.
// Steps: the actor must be the profile's owner (403 otherwise) → conditional update that never
// creates a row → the fresh profile.
import { ForbiddenError, NotFoundError } from '../domain/errors.js';
import type { UserStore } from '../ports/user-store.js';
import { getProfile } from './get-profile.js';
import type { Pictures } from './media/attach.js';

export async function updateProfile(deps: { users: UserStore; pictures?: Pictures | undefined }, actor: string, handle: string, change: { displayName: string }) {
  if (actor !== handle) throw new ForbiddenError('You can only change your own profile');
  if (!(await deps.users.updateDisplayName(handle, change.displayName.trim()))) {
    throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  }
  return getProfile(deps, handle);
}
