// functions/http/repost.ts — POST /posts/{postId}/reposts: repost as the token's user (201; 200 for an existing plain repost or a key replay).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { postView } from '../../shared/http/views.js';
import { repost } from '../../shared/use-cases/reposts.js';

export const { run, handler } = httpRoute(routes.repost, async ({ actor, params, body, headers }) => {
  const key = headers['idempotency-key'];
  const { post, replayed } = await repost(feedDependencies(), actor, params.postId, {
    ...(body.comment ? { comment: body.comment } : {}),
    ...(key ? { idempotencyKey: key } : {}),
  });
  return json(replayed ? 200 : 201, postView(post));
});
