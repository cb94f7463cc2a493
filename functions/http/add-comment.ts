// functions/http/add-comment.ts — POST /posts/{postId}/comments: comment as the token's user (201; 200 when an Idempotency-Key replays).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { commentView } from '../../shared/http/views.js';
import { addComment } from '../../shared/use-cases/comments.js';

export const { run, handler } = httpRoute(routes.addComment, async ({ actor, params, body, headers }) => {
  const key = headers['idempotency-key'];
  const input = {
    body: body.body,
    ...(body.replyTo ? { replyTo: body.replyTo } : {}),
    ...(key ? { idempotencyKey: key } : {}),
  };
  const comment = await addComment(feedDependencies(), actor, params.postId, input);
  return json(comment.replayed ? 200 : 201, commentView(comment));
});
