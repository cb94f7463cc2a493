// functions/http/get-comment.ts — GET /posts/{postId}/comments/{commentId}: one live comment with its likes and thread root (public; a token hides whom the reader must not see).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { commentView } from '../../shared/http/views.js';
import { getComment } from '../../shared/use-cases/comments.js';

export const { run, handler } = httpRoute(routes.getComment, async ({ actor, params }) => {
  const comment = await getComment(feedDependencies(), params.postId, params.commentId, actor || undefined);
  return json(200, commentView(comment));
});
