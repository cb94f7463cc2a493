// functions/http/register.ts — POST /users: create an account (201, or 409 if the handle is taken).
import { accountDependencies } from '../../shared/wiring/accounts.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { registeredUserView } from '../../shared/http/views.js';
import { registerUser } from '../../shared/use-cases/register-user.js';

export const { run, handler } = httpRoute(routes.register, async ({ body }) =>
  json(201, registeredUserView(await registerUser(accountDependencies(), body))),
);
