// functions/http/comment-likes.ts — PUT / DELETE /posts/{postId}/comments/{commentId}/like: the
// token's user likes or unlikes a comment (idempotent). One module, one handler per route.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { likeComment, unlikeComment } from '../../shared/use-cases/comment-likes.js';

const like = httpRoute(routes.likeComment, async ({ actor, params }) => {
  const { liked, count } = await likeComment(feedDependencies(), actor, params.postId, params.commentId);
  return json(200, { postId: params.postId, commentId: params.commentId, liked, likeCount: count });
}).handler;

const unlike = httpRoute(routes.unlikeComment, async ({ actor, params }) => {
  const { liked, count } = await unlikeComment(feedDependencies(), actor, params.postId, params.commentId);
  return json(200, { postId: params.postId, commentId: params.commentId, liked, likeCount: count });
}).handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.likeComment, like],
  [routes.unlikeComment, unlike],
]);
