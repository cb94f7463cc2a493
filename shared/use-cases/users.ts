// shared/use-cases/users.ts — small checks several use cases share.
import { ForbiddenError, NotFoundError } from '../domain/errors.js';
import type { UserStore } from '../ports/user-store.js';

export async function requireUser(users: UserStore, handle: string): Promise<void> {
  if (!(await users.profile(handle))) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
}

/** Routes under /users/{handle}/… that act as that user: only the token's user may. */
export function actAs(actor: string, handle: string): string {
  if (actor !== handle) throw new ForbiddenError(`You can only do this as yourself (${actor})`);
  return actor;
}
