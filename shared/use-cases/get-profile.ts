// shared/use-cases/get-profile.ts — public profile: handle, display name, counts, avatar, bio, location, cover.
import type { UserStore } from '../ports/user-store.js';
import { shownProfile } from './users.js';
import { AVATAR_LARGE, AVATAR_SMALL, COVER, avatarUrl } from './faces.js';
import type { Pictures } from './media/attach.js';

/**
 * Counts are shown never below zero. They are exact but for the crash windows of docs/consistency.md
 * C: a follow stopped (a Lambda timeout) between its edge and its +1 leaves the counts one short
 * until the repair job's next run, and an unfollow of that edge meanwhile takes them to −1.
 */
export async function getProfile(deps: { users: UserStore; pictures?: Pictures | undefined }, handle: string) {
  const profile = shownProfile(await deps.users.profile(handle), handle);
  const shown = (n: number) => Math.max(0, n);
  const { avatar, cover, bio, location, standing: _, ...rest } = profile;
  return {
    ...rest,
    followers: shown(profile.followers),
    following: shown(profile.following),
    posts: shown(profile.posts),
    avatar: avatarUrl(deps.pictures, avatar, AVATAR_SMALL),
    avatarLarge: avatarUrl(deps.pictures, avatar, AVATAR_LARGE),
    bio: bio ?? '',
    location: location ?? '',
    cover: avatarUrl(deps.pictures, cover, COVER),
  };
}
