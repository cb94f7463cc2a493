// functions/http/home-timeline.ts — GET /users/{handle}/timeline: the token's own home timeline, newest first, cursor-paged (206 while regenerating).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { pageView, postView } from '../../shared/http/views.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { actAs } from '../../shared/use-cases/users.js';

export const { run, handler } = httpRoute(routes.homeTimeline, async ({ actor, params, query }) => {
  const page = await homeTimeline(feedDependencies(), actAs(actor, params.handle), query.limit, query.cursor);
  // 206 while the inbox of a returning inactive reader is rebuilt (Mastodon does the same).
  return json(page.regenerating ? 206 : 200, { ...pageView(page, 'posts', postView), regenerating: page.regenerating });
});
