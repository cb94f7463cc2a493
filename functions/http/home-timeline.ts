// functions/http/home-timeline.ts — GET /users/{handle}/timeline: the token's own home timeline, newest first, cursor-paged (206 while regenerating).
import { feedDependencies } from '../../shared/composition.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { pageView, postView } from '../../shared/http/views.js';
import { homeTimeline } from '../../shared/use-cases/home-timeline.js';
import { actAs } from '../../shared/use-cases/users.js';
import { handlePath } from '../../shared/validation/accounts.schema.js';
import { pageQuery } from '../../shared/validation/feed.schema.js';

export const { run, handler } = httpRoute({ auth: true, path: handlePath, query: pageQuery }, async ({ actor, path, query }) => {
  const page = await homeTimeline(feedDependencies(), actAs(actor, path.handle), query.limit, query.cursor);
  // 206 while the inbox of a returning inactive reader is rebuilt (Mastodon does the same).
  return json(page.regenerating ? 206 : 200, { ...pageView(page, 'posts', postView), regenerating: page.regenerating });
});
