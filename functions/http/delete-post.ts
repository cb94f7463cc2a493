// functions/http/delete-post.ts — DELETE /posts/{postId}: the author deletes a post (204); it leaves followers' timelines.
import { feedDependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { deletePost } from '../../shared/use-cases/posts.js';
import { postPath } from '../../shared/validation/feed.schema.js';

export const { run, handler } = httpRoute({ auth: true, path: postPath }, async ({ actor, path }) => {
  await deletePost(feedDependencies(), actor, path.postId);
  return json(204);
});
