// functions/http/like.ts — PUT /users/{handle}/likes/{postId}: the token's user likes a post (idempotent).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { likePost } from '../../shared/use-cases/likes.js';
import { actAs } from '../../shared/use-cases/users.js';

export const { run, handler } = httpRoute(routes.like, async ({ actor, params }) => {
  await likePost(feedDependencies(), actAs(actor, params.handle), params.postId);
  return json(200, { user: actor, postId: params.postId, liked: true });
});
