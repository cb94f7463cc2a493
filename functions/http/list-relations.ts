// functions/http/list-relations.ts — GET /users/{handle}/following and /followers: cursor-paged
// handles with since-times (public). One module, one handler per direction.
import { feedDependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { edgeView, pageView } from '../../shared/http/views.js';
import { listRelations } from '../../shared/use-cases/relations.js';
import { handlePath } from '../../shared/validation/accounts.schema.js';
import { pageQuery } from '../../shared/validation/feed.schema.js';

const route = (direction: 'following' | 'followers') =>
  httpRoute({ auth: false, path: handlePath, query: pageQuery }, async ({ path, query }) => {
    const page = await listRelations(feedDependencies(), path.handle, direction, query.limit, query.cursor);
    return json(200, pageView(page, 'users', edgeView));
  });

export const following = route('following').handler;
export const followers = route('followers').handler;
