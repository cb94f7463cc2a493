// functions/http/post-history.ts — GET /posts/{postId}/history: every version of a post's text, newest first.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { postHistoryView } from '../../shared/http/views.js';
import { postHistory } from '../../shared/use-cases/edit-post.js';

export const { run, handler } = httpRoute(routes.postHistory, async ({ actor, params }) =>
  json(200, postHistoryView(params.postId, await postHistory(feedDependencies(), params.postId, actor || undefined))),
);
