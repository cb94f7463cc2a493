// functions/http/suggestions.ts — GET /users/{handle}/suggestions: who the token's user might follow (people their followees follow), best first, kept a minute.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { suggestionView } from '../../shared/http/views.js';
import { suggestFollows } from '../../shared/use-cases/suggestions.js';
import { actAs } from '../../shared/use-cases/users.js';

export const { run, handler } = httpRoute(routes.suggestions, async ({ actor, params, query }) => {
  const users = await suggestFollows(feedDependencies(), actAs(actor, params.handle), query.limit);
  // The container keeps the list a minute (the use case); the browser may too, for this user only.
  return json(200, { users: users.map(suggestionView) }, { 'Cache-Control': 'private, max-age=60' });
});
