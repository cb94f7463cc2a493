// functions/http/notifications.ts — the token's user's notifications: GET …/notifications (grouped,
// cursor-paged), GET …/notifications/unread (the badge), PUT …/notifications/read (the marker).
// One module, one handler per route.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { notificationView, pageView, readMarkerView } from '../../shared/http/views.js';
import { listNotifications, markNotificationsRead, unreadCount } from '../../shared/use-cases/notifications.js';
import { actAs } from '../../shared/use-cases/users.js';

const list = httpRoute(routes.notifications, async ({ actor, params, query }) => {
  const page = await listNotifications(
    feedDependencies(),
    actAs(actor, params.handle),
    query.limit,
    query.cursor,
    query.filter,
  );
  return json(200, pageView(page, 'notifications', notificationView));
}).handler;

const unread = httpRoute(routes.unreadNotifications, async ({ actor, params }) =>
  json(200, await unreadCount(feedDependencies(), actAs(actor, params.handle))),
).handler;

const markRead = httpRoute(routes.markNotificationsRead, async ({ actor, params, body }) => {
  const { readUpTo } = await markNotificationsRead(feedDependencies(), actAs(actor, params.handle), body.upTo);
  return json(200, readMarkerView(readUpTo));
}).handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.notifications, list],
  [routes.unreadNotifications, unread],
  [routes.markNotificationsRead, markRead],
]);
