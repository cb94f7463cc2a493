// shared/use-cases/register-user.ts — create an account.
// Steps: hash the password (scrypt, per-user salt) → put-if-absent the user row → 409 on a
// taken handle. Nothing else is written, so a lost race leaves no trace.
import { hashPassword } from '../auth/password.js';
import { ConflictError } from '../domain/errors.js';
import type { UserStore } from '../ports/user-store.js';

export interface RegisterInput {
  handle: string;
  displayName: string;
  password: string;
}

export async function registerUser(users: UserStore, input: RegisterInput, now = Date.now()) {
  const passwordHash = await hashPassword(input.password);
  const created = await users.create({ handle: input.handle, displayName: input.displayName.trim(), passwordHash, createdAt: now });
  if (!created) throw new ConflictError(`Handle "${input.handle}" is already taken`, 'handle_taken');
  return { handle: input.handle, displayName: input.displayName.trim(), createdAt: now };
}
