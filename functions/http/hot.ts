// functions/http/hot.ts — GET /hot: the hot feed (热门微博), best first (optional token).
import { config } from '../../shared/config/config.js';
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { postView } from '../../shared/http/views.js';
import { listHot } from '../../shared/use-cases/hot.js';

export const { run, handler } = httpRoute(routes.hotPosts, async ({ actor, query }) => {
  const page = await listHot(feedDependencies(), query.limit, query.cursor, actor || undefined, {
    cacheMs: config().HOT_CACHE_SECONDS * 1000,
  });
  return json(200, {
    posts: page.items.map(postView),
    nextCursor: page.nextCursor ?? null,
    ...(page.rankedAt !== undefined ? { rankedAt: page.rankedAt } : {}),
  });
});
