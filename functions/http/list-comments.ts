// functions/http/list-comments.ts — GET /posts/{postId}/comments: a post's top-level comments with their threads' previews, newest or oldest first, cursor-paged (public; a token leaves out whom the reader must not see).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { pageView, threadedCommentView } from '../../shared/http/views.js';
import { listComments } from '../../shared/use-cases/comments.js';

export const { run, handler } = httpRoute(routes.listComments, async ({ actor, params, query }) => {
  const page = await listComments(
    feedDependencies(),
    params.postId,
    query.order,
    query.limit,
    query.cursor,
    actor || undefined,
  );
  return json(200, pageView(page, 'comments', threadedCommentView));
});
