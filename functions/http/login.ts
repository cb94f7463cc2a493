// functions/http/login.ts — POST /sessions: handle + password → short-lived bearer token.
import { dependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { logIn } from '../../shared/use-cases/log-in.js';

export const { run, handler } = httpRoute(routes.login, async ({ body }) => {
  const deps = dependencies();
  const session = await logIn({ users: deps.users, throttle: deps.throttle, tokens: deps.tokens(), policy: deps.loginPolicy }, body);
  return json(200, { ...session, tokenType: 'Bearer' }, { 'Cache-Control': 'no-store' });
});
