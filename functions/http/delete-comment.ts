// functions/http/delete-comment.ts — DELETE /posts/{postId}/comments/{commentId}: the comment's or the post's author deletes it (204).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { deleteComment } from '../../shared/use-cases/comments.js';

export const { run, handler } = httpRoute(routes.deleteComment, async ({ actor, params }) => {
  await deleteComment(feedDependencies(), actor, params.postId, params.commentId);
  return json(204);
});
