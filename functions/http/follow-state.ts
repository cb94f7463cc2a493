// functions/http/follow-state.ts — GET /users/{handle}/following/{target}: whether handle follows target (public).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { followState } from '../../shared/use-cases/relations.js';

export const { run, handler } = httpRoute(routes.followState, async ({ params }) =>
  json(200, await followState(feedDependencies(), params.handle, params.target)),
);
