// shared/use-cases/update-profile.ts — change your own profile: the display name (a rename), the
// 简介 (bio) and the location.
// Steps: the actor must be the profile's owner (403) → the text within its limits (422, as the
// edge's validation answers it) → the current name and naming version (404) → without a new name:
// the bio and location in one row write → with one: the people index entries of a new naming →
// the name, the new naming, the bio and location in ONE check-and-put on the naming read → the old
// naming's entries removed → the fresh profile. So a change lands whole or not at all. A rename
// that loses to a racing one removes its own entries and tries again on what won (invariant P:
// the index finds a user by their current name only, and always).
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../domain/errors.js';
import { BIO_MAX_CODE_POINTS, LOCATION_MAX_CODE_POINTS } from '../domain/limits.js';
import { newNaming, searchTerms } from '../domain/people-search.js';
import { codePoints } from '../domain/text-rules.js';
import type { PeopleIndex } from '../ports/people-index.js';
import type { ProfileText, UserStore } from '../ports/user-store.js';
import { getProfile } from './get-profile.js';
import type { Pictures } from './media/attach.js';
import { atStep, type StepHook } from './steps.js';

/** Renames of one user that race each other: each try after a lost one reads the winner first. */
const RENAME_TRIES = 3;

/** What a profile change may name; at least one of them. '' clears the bio or the location. */
export interface ProfileChange {
  displayName?: string;
  bio?: string;
  location?: string;
}

/** The bio and location of a change, trimmed and within their limits (422 otherwise). */
export function profileText(change: ProfileChange): ProfileText {
  const text: ProfileText = {};
  const limits = { bio: BIO_MAX_CODE_POINTS, location: LOCATION_MAX_CODE_POINTS } as const;
  for (const field of ['bio', 'location'] as const) {
    const value = change[field]?.trim();
    if (value === undefined) continue;
    if (codePoints(value) > limits[field])
      throw new InvalidInputError(`${field} must have at most ${limits[field]} characters`, 'validation_failed');
    text[field] = value;
  }
  return text;
}

export async function updateProfile(
  deps: { users: UserStore; people: PeopleIndex; pictures?: Pictures | undefined; step?: StepHook },
  actor: string,
  handle: string,
  change: ProfileChange,
) {
  if (actor !== handle) throw new ForbiddenError('You can only change your own profile');
  const text = profileText(change);
  const displayName = change.displayName?.trim();
  if (displayName === '') throw new InvalidInputError('displayName must not be empty', 'validation_failed');
  for (let attempt = 0; attempt < RENAME_TRIES; attempt++) {
    const current = await deps.users.naming(handle);
    if (!current) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
    // The same name again (and already findable by it) is no rename: the text alone is written.
    if (displayName === undefined || (displayName === current.displayName && current.naming !== null)) {
      await deps.users.describe(handle, text);
      return getProfile(deps, handle);
    }
    const naming = newNaming();
    const terms = searchTerms(handle, displayName);
    await deps.people.add(handle, terms, naming);
    await atStep(deps, 'rename.indexed', { handle });
    if (await deps.users.rename(handle, displayName, current.naming, naming, text)) {
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
