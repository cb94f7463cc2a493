// functions/http/get-post.ts — GET /posts/{postId}: one post (public; a token adds the reader's own state).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { postView } from '../../shared/http/views.js';
import { getPost } from '../../shared/use-cases/posts.js';

export const { run, handler } = httpRoute(routes.getPost, async ({ actor, params }) =>
  json(200, postView(await getPost(feedDependencies(), params.postId, actor || undefined))),
);
