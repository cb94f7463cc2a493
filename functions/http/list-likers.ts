// functions/http/list-likers.ts — GET /posts/{postId}/likes: who liked a post, cursor-paged (public).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { likerView, pageView } from '../../shared/http/views.js';
import { listLikers } from '../../shared/use-cases/likes.js';

export const { run, handler } = httpRoute(routes.listLikers, async ({ params, query }) => {
  const page = await listLikers(feedDependencies(), params.postId, query.limit, query.cursor);
  return json(200, pageView(page, 'users', likerView));
});
