// shared/use-cases/get-profile.ts — public profile: handle, display name, counts.
import { NotFoundError } from '../domain/errors.js';
import type { UserStore } from '../ports/user-store.js';

/**
 * Counts are shown never below zero. They are exact but for the crash windows of consistency.md
 * C: a follow stopped (a Lambda timeout) between its edge and its +1 leaves the counts one short
 * until the repair job's next run, and an unfollow of that edge meanwhile takes them to −1.
 */
export async function getProfile(users: UserStore, handle: string) {
  const profile = await users.profile(handle);
  if (!profile) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  const shown = (n: number) => Math.max(0, n);
  return { ...profile, followers: shown(profile.followers), following: shown(profile.following), posts: shown(profile.posts) };
}
