// functions/http/messages.ts — 私信: private conversations, every route under
// /users/{handle}/conversations (and the badge) in ONE function, dispatched on the route key.
// `handle` must be the token's user on every route.
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { conversationSummaryView, conversationView, messageView } from '../../shared/http/views.js';
import {
  acceptRequest,
  clearConversation,
  declineRequest,
  hideMessage,
  listConversations,
  markRead,
  readConversation,
  recallMessage,
  sendMessage,
  unreadBadge,
} from '../../shared/use-cases/messages.js';
import { actAs } from '../../shared/use-cases/users.js';
import { messageDependencies } from '../../shared/wiring/messages.js';

const list = httpRoute(routes.listConversations, async ({ actor, params, query }) => {
  const page = await listConversations(
    messageDependencies(),
    actAs(actor, params.handle),
    query.box,
    query.limit,
    query.cursor,
  );
  return json(200, { conversations: page.items.map(conversationSummaryView), nextCursor: page.nextCursor ?? null });
});

const badge = httpRoute(routes.messageBadge, async ({ actor, params }) =>
  json(200, await unreadBadge(messageDependencies(), actAs(actor, params.handle)), { 'Cache-Control': 'no-store' }),
);

const read = httpRoute(routes.readConversation, async ({ actor, params, query }) => {
  const page = await readConversation(
    messageDependencies(),
    actAs(actor, params.handle),
    params.peer,
    query.limit,
    query.cursor,
  );
  return json(200, conversationView(page));
});

const send = httpRoute(routes.sendMessage, async ({ actor, params, body }) => {
  const sent = await sendMessage(messageDependencies(), actAs(actor, params.handle), params.peer, body);
  return json(sent.created ? 201 : 200, { message: messageView(sent.message), state: sent.state });
});

const markReadRoute = httpRoute(routes.markMessagesRead, async ({ actor, params, body }) =>
  json(200, { readUpTo: await markRead(messageDependencies(), actAs(actor, params.handle), params.peer, body.upTo) }),
);

const accept = httpRoute(routes.acceptRequest, async ({ actor, params }) =>
  json(200, { state: await acceptRequest(messageDependencies(), actAs(actor, params.handle), params.peer) }),
);

const decline = httpRoute(routes.declineRequest, async ({ actor, params }) => {
  await declineRequest(messageDependencies(), actAs(actor, params.handle), params.peer);
  return json(200, { declined: true });
});

const recall = httpRoute(routes.recallMessage, async ({ actor, params }) =>
  json(
    200,
    messageView(await recallMessage(messageDependencies(), actAs(actor, params.handle), params.peer, params.seq)),
  ),
);

const remove = httpRoute(routes.deleteMessage, async ({ actor, params }) => {
  await hideMessage(messageDependencies(), actAs(actor, params.handle), params.peer, params.seq);
  return json(200, { deleted: true });
});

const clear = httpRoute(routes.deleteConversation, async ({ actor, params }) => {
  await clearConversation(messageDependencies(), actAs(actor, params.handle), params.peer);
  return json(200, { deleted: true });
});

export const handler = dispatchOnRoute([
  [routes.listConversations, list.handler],
  [routes.messageBadge, badge.handler],
  [routes.readConversation, read.handler],
  [routes.sendMessage, send.handler],
  [routes.markMessagesRead, markReadRoute.handler],
  [routes.acceptRequest, accept.handler],
  [routes.declineRequest, decline.handler],
  [routes.recallMessage, recall.handler],
  [routes.deleteMessage, remove.handler],
  [routes.deleteConversation, clear.handler],
]);
