// functions/http/timeline-newer.ts — GET /users/{handle}/timeline/newer?after=<postId>: how many home-timeline entries are newer than the one shown (one round trip; the page polls it).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { countNewer } from '../../shared/use-cases/newer-posts.js';
import { actAs } from '../../shared/use-cases/users.js';

export const { run, handler } = httpRoute(routes.timelineNewer, async ({ actor, params, query }) =>
  json(200, await countNewer(feedDependencies(), actAs(actor, params.handle), query.after), {
    'Cache-Control': 'no-store',
  }),
);
