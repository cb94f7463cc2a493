// functions/http/list-user-posts.ts — GET /users/{handle}/posts: an author's posts, newest first, cursor-paged (public).
import { feedDependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { pageView, postView } from '../../shared/http/views.js';
import { listUserPosts } from '../../shared/use-cases/posts.js';
import { handlePath } from '../../shared/validation/accounts.schema.js';
import { pageQuery } from '../../shared/validation/feed.schema.js';

export const { run, handler } = httpRoute({ auth: false, path: handlePath, query: pageQuery }, async ({ path, query }) => {
  const page = await listUserPosts(feedDependencies(), path.handle, query.limit, query.cursor);
  return json(200, pageView(page, 'posts', postView));
});
