// functions/http/search-users.ts — GET /users?q=: find people by the start of a handle or name (best first).
import { peopleDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { personView } from '../../shared/http/views.js';
import { findPeople } from '../../shared/use-cases/people.js';

export const { run, handler } = httpRoute(routes.searchUsers, async ({ actor, query }) =>
  json(200, { users: (await findPeople(peopleDependencies(), actor, query.q, query.limit)).map(personView) }),
);
