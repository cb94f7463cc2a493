// functions/http/topics.ts — GET /topics/{topic}/posts (a topic page; optional token) and
// GET /topics/trending and GET /topics?q= (public). One module, one handler per route.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { postView } from '../../shared/http/views.js';
import { listTopicPosts, suggestTopics, trendingTopics } from '../../shared/use-cases/topics.js';

const posts = httpRoute(routes.topicPosts, async ({ actor, params, query }) => {
  const page = await listTopicPosts(feedDependencies(), params.topic, query.limit, query.cursor, actor || undefined);
  return json(200, { topic: page.topic, posts: page.items.map(postView), nextCursor: page.nextCursor ?? null });
}).handler;

const trending = httpRoute(routes.trendingTopics, async () => {
  const { items, windowSeconds } = await trendingTopics(feedDependencies());
  return json(200, { topics: items, windowSeconds });
}).handler;

const search = httpRoute(routes.searchTopics, async ({ query }) => {
  const names = await suggestTopics(feedDependencies(), query.q, query.limit);
  return json(200, { topics: names.map((name) => ({ name })) });
}).handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.topicPosts, posts],
  [routes.searchTopics, search],
  [routes.trendingTopics, trending],
]);
