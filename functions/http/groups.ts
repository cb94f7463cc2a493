// functions/http/groups.ts — 分组 and 特别关注: the token's own groups (list, make, rename, delete)
// and their members (list, add, take out). Private: every route acts as the token's user.
import { feedDependencies } from '../../shared/wiring/feed.js';
import { dispatchOnRoute } from '../../shared/http/dispatch.js';
import { httpRoute, json } from '../../shared/http/http-handler.js';
import { routes } from '../../shared/http/routes.js';
import { faceView, groupView } from '../../shared/http/views.js';
import {
  addToGroup,
  createGroup,
  deleteGroup,
  groupMembers,
  listGroups,
  removeFromGroup,
  renameGroup,
} from '../../shared/use-cases/groups.js';
import { actAs } from '../../shared/use-cases/users.js';

const list = httpRoute(routes.listGroups, async ({ actor, params, query }) => {
  const groups = await listGroups(feedDependencies(), actAs(actor, params.handle), query.member);
  return json(200, { groups: groups.map(groupView) });
}).handler;

const create = httpRoute(routes.createGroup, async ({ actor, params, body }) =>
  json(201, groupView(await createGroup(feedDependencies(), actAs(actor, params.handle), body.name))),
).handler;

const rename = httpRoute(routes.renameGroup, async ({ actor, params, body }) =>
  json(200, groupView(await renameGroup(feedDependencies(), actAs(actor, params.handle), params.groupId, body.name))),
).handler;

const remove = httpRoute(routes.deleteGroup, async ({ actor, params }) => {
  const left = await deleteGroup(feedDependencies(), actAs(actor, params.handle), params.groupId);
  return json(200, { groups: left.map(groupView) });
}).handler;

const members = httpRoute(routes.groupMembers, async ({ actor, params }) => {
  const users = await groupMembers(feedDependencies(), actAs(actor, params.handle), params.groupId);
  return json(200, { users: users.map((u) => ({ ...faceView(u), addedAt: new Date(u.addedAt).toISOString() })) });
}).handler;

const add = httpRoute(routes.addGroupMember, async ({ actor, params }) =>
  json(
    200,
    groupView(await addToGroup(feedDependencies(), actAs(actor, params.handle), params.groupId, params.member)),
  ),
).handler;

const takeOut = httpRoute(routes.removeGroupMember, async ({ actor, params }) =>
  json(
    200,
    groupView(await removeFromGroup(feedDependencies(), actAs(actor, params.handle), params.groupId, params.member)),
  ),
).handler;

/** Every route of the file in one function, dispatched on the route key. */
export const handler = dispatchOnRoute([
  [routes.listGroups, list],
  [routes.createGroup, create],
  [routes.renameGroup, rename],
  [routes.deleteGroup, remove],
  [routes.groupMembers, members],
  [routes.addGroupMember, add],
  [routes.removeGroupMember, takeOut],
]);
