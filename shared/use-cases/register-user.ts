// shared/use-cases/register-user.ts — create an account.
// Steps: hash the password (scrypt, per-user salt) → the people index entries of the new
// naming (handle and name, findable once the row holds that naming: invariant P) → put-if-absent
// the user row with that naming → 409 on a taken handle, after deleting the entries this request
// wrote (their naming never becomes current, so they would never show anyway).
import { ConflictError } from '../domain/errors.js';
import { newNaming, searchTerms } from '../domain/people-search.js';
import type { PeopleIndex } from '../ports/people-index.js';
import type { UserStore } from '../ports/user-store.js';
import { atStep, type StepHook } from './steps.js';
import type { Passwords } from '../ports/credentials.js';

export interface RegisterInput {
  handle: string;
  displayName: string;
  password: string;
}

export interface AccountDeps {
  users: UserStore;
  passwords: Pick<Passwords, 'hash'>;
  people: PeopleIndex;
  /** Tests only (./steps.ts). */
  step?: StepHook;
}

export async function registerUser(deps: AccountDeps, input: RegisterInput, now = Date.now()) {
  const displayName = input.displayName.trim();
  const naming = newNaming();
  // The entries are written while scrypt runs: registering costs no round trip more for them.
  const [passwordHash] = await Promise.all([
    deps.passwords.hash(input.password),
    deps.people.add(input.handle, searchTerms(input.handle, displayName), naming),
  ]);
  await atStep(deps, 'register.indexed', { handle: input.handle });
  const created = await deps.users.create({ handle: input.handle, displayName, passwordHash, createdAt: now, naming });
  if (!created) {
    await deps.people.remove(input.handle, searchTerms(input.handle, displayName), naming);
    throw new ConflictError(`Handle "${input.handle}" is already taken`, 'handle_taken');
  }
  return { handle: input.handle, displayName, createdAt: now };
}
