// functions/http/blocks.ts — block and mute: PUT/DELETE /users/{handle}/blocks/{target} and
// /mutes/{target}, GET /users/{handle}/blocks/{target} (the state), GET /users/{handle}/blocks and
// /mutes (the lists). Always as the token's user. One module, one handler per route.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { blockedUserView, pageView } from '../../shared/http/views.js';
import {
  block as blockUser,
  blockState,
  listBlocked,
  mute as muteUser,
  unblock as unblockUser,
  unmute as unmuteUser,
} from '../../shared/use-cases/blocks.js';
import { actAs } from '../../shared/use-cases/users.js';

type Change = typeof blockUser;

/** Every change answers with the whole state (the use case's BlockState). */
const change = (
  route: typeof routes.block | typeof routes.unblock | typeof routes.mute | typeof routes.unmute,
  run: Change,
) =>
  httpRoute(route, async ({ actor, params }) =>
    json(200, await run(feedDependencies(), actAs(actor, params.handle), params.target)),
  ).handler;

const block = change(routes.block, blockUser);
const unblock = change(routes.unblock, unblockUser);
const mute = change(routes.mute, muteUser);
const unmute = change(routes.unmute, unmuteUser);

const state = httpRoute(routes.blockState, async ({ actor, params }) =>
  json(200, await blockState(feedDependencies(), actAs(actor, params.handle), params.target)),
).handler;

const list = (route: typeof routes.listBlocks | typeof routes.listMutes, kind: 'block' | 'mute') =>
  httpRoute(route, async ({ actor, params, query }) => {
    const page = await listBlocked(feedDependencies(), actAs(actor, params.handle), kind, query.limit, query.cursor);
    return json(200, pageView(page, 'users', blockedUserView));
  }).handler;

const listBlocks = list(routes.listBlocks, 'block');
const listMutes = list(routes.listMutes, 'mute');

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.blockState, state],
  [routes.block, block],
  [routes.unblock, unblock],
  [routes.mute, mute],
  [routes.unmute, unmute],
  [routes.listBlocks, listBlocks],
  [routes.listMutes, listMutes],
]);
