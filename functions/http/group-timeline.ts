// functions/http/group-timeline.ts — GET /users/{handle}/groups/{groupId}/timeline: one of the
// token's groups as a timeline, newest first, cursor-paged (206 while home is regenerating).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { pageView, postView } from '../../shared/http/views.js';
import { groupTimeline } from '../../shared/use-cases/groups.js';
import { actAs } from '../../shared/use-cases/users.js';

export const { run, handler } = httpRoute(routes.groupTimeline, async ({ actor, params, query }) => {
  const page = await groupTimeline(
    feedDependencies(),
    actAs(actor, params.handle),
    params.groupId,
    query.limit,
    query.cursor,
  );
  return json(page.regenerating ? 206 : 200, { ...pageView(page, 'posts', postView), regenerating: page.regenerating });
});
