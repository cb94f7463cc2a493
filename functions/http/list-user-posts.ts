// functions/http/list-user-posts.ts — GET /users/{handle}/posts: an author's posts, newest first, cursor-paged (public; a token adds the reader's own state).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { pageView, postView } from '../../shared/http/views.js';
import { listUserPosts } from '../../shared/use-cases/posts.js';

export const { run, handler } = httpRoute(routes.listUserPosts, async ({ actor, params, query }) => {
  const page = await listUserPosts(feedDependencies(), params.handle, query.limit, query.cursor, actor || undefined);
  return json(200, pageView(page, 'posts', postView));
});
