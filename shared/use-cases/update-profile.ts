// shared/use-cases/update-profile.ts — change your own display name (a rename).
// Steps: the actor must be the profile's owner (403) → the current name and naming version (404)
// → the people index entries of a new naming → the name and the new naming in one check-and-put
// on the naming read → the old naming's entries removed → the fresh profile. A rename that loses
// to a racing one removes its own entries and tries again on what won (invariant P: the index
// finds a user by their current name only, and always).
import { ConflictError, ForbiddenError, NotFoundError } from '../domain/errors.js';
import { newNaming, searchTerms } from '../domain/people-search.js';
import type { PeopleIndex } from '../ports/people-index.js';
import type { UserStore } from '../ports/user-store.js';
import { getProfile } from './get-profile.js';
import type { Pictures } from './media/attach.js';
import { atStep, type StepHook } from './steps.js';

/** Renames of one user that race each other: each try after a lost one reads the winner first. */
const RENAME_TRIES = 3;

export async function updateProfile(
  deps: { users: UserStore; people: PeopleIndex; pictures?: Pictures | undefined; step?: StepHook },
  actor: string,
  handle: string,
  change: { displayName: string },
) {
  if (actor !== handle) throw new ForbiddenError('You can only change your own profile');
  const displayName = change.displayName.trim();
  for (let attempt = 0; attempt < RENAME_TRIES; attempt++) {
    const current = await deps.users.naming(handle);
    if (!current) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
    const naming = newNaming();
    const terms = searchTerms(handle, displayName);
    await deps.people.add(handle, terms, naming);
    await atStep(deps, 'rename.indexed', { handle });
    if (await deps.users.rename(handle, displayName, current.naming, naming)) {
      await atStep(deps, 'rename.won', { handle });
      // The old naming can never be current again (versions never repeat): its entries go,
      // beside the read of the profile the answer shows.
      const old =
        current.naming === null
          ? Promise.resolve()
          : deps.people.remove(handle, searchTerms(handle, current.displayName), current.naming);
      const [, profile] = await Promise.all([old, getProfile(deps, handle)]);
      return profile;
    }
    // Another rename won: this naming never becomes current.
    await deps.people.remove(handle, terms, naming);
  }
  throw new ConflictError('Your name is being changed by another request; try again', 'rename_conflict');
}
