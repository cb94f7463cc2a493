// shared/use-cases/get-profile.ts — public profile: handle, display name, counts.
import { NotFoundError } from '../domain/errors.js';
import type { UserStore } from '../ports/user-store.js';

export async function getProfile(users: UserStore, handle: string) {
  const profile = await users.profile(handle);
  if (!profile) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  return profile;
}
