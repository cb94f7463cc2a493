// functions/http/edit-post.ts — PATCH /posts/{postId}: the author edits the text, naming the version read (If-Match).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { postView } from '../../shared/http/views.js';
import { editPost } from '../../shared/use-cases/edit-post.js';

export const { run, handler } = httpRoute(routes.editPost, async ({ actor, params, body, headers }) => {
  const ifMatch = headers['if-match'];
  const post = await editPost(feedDependencies(), actor, params.postId, {
    body: body.body,
    ifMatch: ifMatch === undefined ? undefined : Number(ifMatch.replaceAll('"', '')),
  });
  return json(200, postView(post));
});
