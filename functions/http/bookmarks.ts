// functions/http/bookmarks.ts — 收藏: PUT and DELETE /users/{handle}/bookmarks/{postId} (the
// token's user keeps a post, or lets it go; idempotent) and GET /users/{handle}/bookmarks (that
// user's own list, newest first; private).
import { feedDependencies } from '../../shared/wiring/feed.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { pageView, postView } from '../../shared/http/views.js';
import { bookmarkPost, listBookmarks, unbookmarkPost } from '../../shared/use-cases/bookmarks.js';
import { actAs } from '../../shared/use-cases/users.js';

const bookmark = httpRoute(routes.bookmark, async ({ actor, params }) => {
  await bookmarkPost(feedDependencies(), actAs(actor, params.handle), params.postId);
  return json(200, { user: actor, postId: params.postId, bookmarked: true });
}).handler;

const unbookmark = httpRoute(routes.unbookmark, async ({ actor, params }) => {
  await unbookmarkPost(feedDependencies(), actAs(actor, params.handle), params.postId);
  return json(200, { user: actor, postId: params.postId, bookmarked: false });
}).handler;

const list = httpRoute(routes.listBookmarks, async ({ actor, params, query }) => {
  const page = await listBookmarks(feedDependencies(), actAs(actor, params.handle), query.limit, query.cursor);
  return json(200, pageView(page, 'posts', postView));
}).handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.bookmark, bookmark],
  [routes.unbookmark, unbookmark],
  [routes.listBookmarks, list],
]);
