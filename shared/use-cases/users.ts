// shared/use-cases/users.ts — small checks several use cases share.
import { ForbiddenError, NotFoundError } from '../domain/errors.js';
import type { UserProfile, UserStore } from '../ports/user-store.js';

/** A profile as others may see it: 404 for nobody, and for an account that left (leave.ts), alike. */
export function shownProfile(profile: UserProfile | null, handle: string): UserProfile {
  if (profile?.standing.state !== 'active') throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  return profile;
}

/** The user exists and is active (404 otherwise): nobody follows, blocks or lists one that left. */
export async function requireUser(users: UserStore, handle: string): Promise<void> {
  shownProfile(await users.profile(handle), handle);
}

/** Routes under /users/{handle}/… that act as that user: only the token's user may. */
export function actAs(actor: string, handle: string): string {
  if (actor !== handle) throw new ForbiddenError(`You can only do this as yourself (${actor})`);
  return actor;
}
