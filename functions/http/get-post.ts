// functions/http/get-post.ts — GET /posts/{postId}: one post (public).
import { feedDependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { postView } from '../../shared/http/views.js';
import { getPost } from '../../shared/use-cases/posts.js';
import { postPath } from '../../shared/validation/feed.schema.js';

export const { run, handler } = httpRoute({ auth: false, path: postPath }, async ({ path }) =>
  json(200, postView(await getPost(feedDependencies(), path.postId))),
);
