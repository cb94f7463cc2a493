// functions/http/unlike.ts — DELETE /users/{handle}/likes/{postId}: the token's user takes a like back (idempotent).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { unlikePost } from '../../shared/use-cases/likes.js';
import { actAs } from '../../shared/use-cases/users.js';

export const { run, handler } = httpRoute(routes.unlike, async ({ actor, params }) => {
  await unlikePost(feedDependencies(), actAs(actor, params.handle), params.postId);
  return json(200, { user: actor, postId: params.postId, liked: false });
});
