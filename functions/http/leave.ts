// functions/http/leave.ts — DELETE /users/{handle}: leaving (注销). The token's user, with the
// password again, deactivates their account (shared/use-cases/leave.ts); the throttle keys on
// the caller's address as a login's does.
import { accountDependencies } from '../../shared/wiring/accounts.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { departureView } from '../../shared/http/views.js';
import { leave } from '../../shared/use-cases/leave.js';

export const { run, handler } = httpRoute(routes.leave, async ({ actor, params, body, sourceIp }) => {
  const deps = accountDependencies();
  const departure = await leave({ ...deps, tokens: await deps.tokens(), policy: deps.loginPolicy }, actor, {
    handle: params.handle,
    password: body.password,
    sourceIp,
  });
  return json(200, departureView(departure));
});
