// functions/http/add-comment.ts — POST /posts/{postId}/comments: comment as the token's user (201).
import { feedDependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { commentView } from '../../shared/http/views.js';
import { addComment } from '../../shared/use-cases/comments.js';

export const { run, handler } = httpRoute(routes.addComment, async ({ actor, params, body }) => {
  const comment = await addComment(feedDependencies(), actor, params.postId, { body: body.body, ...(body.replyTo ? { replyTo: body.replyTo } : {}) });
  return json(201, commentView(comment));
});
