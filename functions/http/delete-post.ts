// functions/http/delete-post.ts — DELETE /posts/{postId}: the author deletes a post (204); it leaves followers' timelines.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { deletePost } from '../../shared/use-cases/posts.js';

export const { run, handler } = httpRoute(routes.deletePost, async ({ actor, params }) => {
  await deletePost(feedDependencies(), actor, params.postId);
  return json(204);
});
