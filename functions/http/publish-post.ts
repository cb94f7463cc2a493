// functions/http/publish-post.ts — POST /posts: publish as the token's user (201; 200 when an Idempotency-Key replays).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { postView } from '../../shared/http/views.js';
import { freshDetail } from '../../shared/use-cases/post-details.js';
import { publishPost } from '../../shared/use-cases/publish-post.js';

export const { run, handler } = httpRoute(routes.publishPost, async ({ actor, body, headers }) => {
  const key = headers['idempotency-key'];
  const { post, replayed, face } = await publishPost(feedDependencies(), actor, {
    body: body.body,
    ...(body.media ? { media: body.media } : {}),
    ...(key ? { idempotencyKey: key } : {}),
  });
  return json(replayed ? 200 : 201, postView(freshDetail(post, face)));
});
