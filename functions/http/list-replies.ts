// functions/http/list-replies.ts — GET /posts/{postId}/comments/{commentId}/replies: one top-level comment's thread, oldest first, cursor-paged (public; a token leaves out whom the reader must not see).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { commentView, pageView } from '../../shared/http/views.js';
import { listReplies } from '../../shared/use-cases/comments.js';

export const { run, handler } = httpRoute(routes.listReplies, async ({ actor, params, query }) => {
  const page = await listReplies(
    feedDependencies(),
    params.postId,
    params.commentId,
    query.limit,
    query.cursor,
    actor || undefined,
  );
  return json(200, pageView(page, 'replies', commentView));
});
