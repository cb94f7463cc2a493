// functions/http/search-posts.ts — GET /search/posts?q=: find posts by their words (optional token).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { postView } from '../../shared/http/views.js';
import { searchPosts } from '../../shared/use-cases/search-posts.js';

export const { run, handler } = httpRoute(routes.searchPosts, async ({ actor, query }) => {
  const page = await searchPosts(feedDependencies(), query.q, query.limit, query.cursor, actor || undefined);
  return json(200, {
    query: page.query,
    posts: page.items.map(postView),
    highlights: page.highlights,
    nextCursor: page.nextCursor ?? null,
  });
});
