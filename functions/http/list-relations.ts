// functions/http/list-relations.ts — GET /users/{handle}/following and /followers: cursor-paged
// handles with since-times (public). One module, one handler per direction.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { edgeView, pageView } from '../../shared/http/views.js';
import { listRelations } from '../../shared/use-cases/relations.js';

const route = (direction: 'following' | 'followers') =>
  httpRoute(direction === 'following' ? routes.listFollowing : routes.listFollowers, async ({ params, query }) => {
    const page = await listRelations(feedDependencies(), params.handle, direction, query.limit, query.cursor);
    return json(200, pageView(page, 'users', edgeView));
  });

const following = route('following').handler;
const followers = route('followers').handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.listFollowing, following],
  [routes.listFollowers, followers],
]);
