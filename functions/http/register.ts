// functions/http/register.ts — POST /users: create an account (201, or 409 if the handle is taken).
import { dependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { registerUser } from '../../shared/use-cases/register-user.js';
import { registerBody } from '../../shared/validation/accounts.schema.js';

export const { run, handler } = httpRoute({ auth: false, body: registerBody }, async ({ body }) =>
  json(201, await registerUser(dependencies().users, body)),
);
