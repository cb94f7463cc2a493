// test/e2e/route-costs.test.ts — what every route of the HTTP contract costs in HBase work,
// measured, against the figure written for it in shared/schema/route-costs.ts. Each route is
// called through the API (serverless-offline, the real adapters, the real stack) and its
// `Server-Timing` header read: the REST requests the invocation sent and their sequential round
// trips (shared/observability/round-trips.ts). The routes come from shared/http/routes.ts, and
// both the calls below and the cost table are typed by its route names: a new route that has
// no call here or no written cost does not type-check, so none can slip past.
//
// The world is small and ordinary: B has posts with a topic, a comment, a like and a repost;
// A follows B and reads; the calls take the success path. Reads are called twice and the dearer
// call counts; each write counts once, on its state-changing call.
import sharp from 'sharp';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { routes, type RouteName } from '../../shared/http/routes.js';
import { ROUTE_COSTS, type RouteCost } from '../../shared/schema/route-costs.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';

const api = apiClient(inject('apiUrl'));
const SERVER_TIMING = /^hbase;desc="(\d+) requests?, (\d+) round trips?";dur=/;

/** Every route has its written cost (a missing name is a type error here). */
const costs: Record<RouteName, RouteCost> = ROUTE_COSTS;

interface Measured {
  status: number;
  requests: number;
  roundTrips: number;
}

function measured(res: ApiResponse): Measured {
  const m = SERVER_TIMING.exec(res.headers.get('server-timing') ?? '');
  if (!m) throw new Error(`no Server-Timing on ${res.status}: ${res.text.slice(0, 200)}`);
  return { status: res.status, requests: Number(m[1]), roundTrips: Number(m[2]) };
}

type User = Awaited<ReturnType<typeof api.newUser>>;
interface World {
  a: User;
  b: User;
  c: User;
  /** Leaves (DELETE /users/{handle}); nobody else's state depends on D. */
  d: User;
  /** B's post with a topic and a mention of A; A liked it, commented on it, C reposted it. */
  post: string;
  comment: string;
  topic: string;
  /** A's own post, to delete. */
  own: string;
  /** A post A likes first, to unlike. */
  liked: string;
  /** Users A followed, blocked and muted first, to undo. */
  followed: User;
  blocked: User;
  muted: User;
  /** A ready avatar picture of A's, and a declared upload whose bytes are in storage. */
  avatar: string;
  /** A ready cover picture of A's. */
  cover: string;
  upload: string;
  /** A's group holding B. */
  group: string;
}

const ok = (res: ApiResponse, status = 200) => {
  expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBe(status);
  return res;
};

async function picture(token: string, purpose: 'post' | 'avatar' | 'cover'): Promise<string> {
  const bytes = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();
  const declared = ok(
    await api.call('POST', '/media', { token, body: { contentType: 'image/png', size: bytes.length, purpose } }),
    201,
  );
  const { media, upload } = declared.json;
  expect((await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes })).status).toBe(200);
  return media.id as string;
}

async function buildWorld(): Promise<World> {
  const [a, b, c, followed, blocked, muted, d] = await Promise.all(
    ['rc_a', 'rc_b', 'rc_c', 'rc_f', 'rc_x', 'rc_m', 'rc_d'].map((p) => api.newUser(p)),
  );
  const topic = `rc${Date.now().toString(36)}`;
  ok(await api.call('PUT', `/users/${a!.handle}/following/${b!.handle}`, { token: a!.token }));
  ok(await api.call('PUT', `/users/${c!.handle}/following/${b!.handle}`, { token: c!.token }));
  const post = ok(
    await api.call('POST', '/posts', { token: b!.token, body: { body: `hello #${topic}# @${a!.handle}` } }),
    201,
  ).json.id as string;
  const liked = ok(await api.call('POST', '/posts', { token: b!.token, body: { body: 'second' } }), 201).json
    .id as string;
  const own = ok(await api.call('POST', '/posts', { token: a!.token, body: { body: 'mine' } }), 201).json.id as string;
  ok(await api.call('PUT', `/users/${a!.handle}/likes/${post}`, { token: a!.token }));
  ok(await api.call('PUT', `/users/${a!.handle}/likes/${liked}`, { token: a!.token }));
  // A's bookmarks list has one post (read); the bookmark and its removal are of another (written).
  ok(await api.call('PUT', `/users/${a!.handle}/bookmarks/${liked}`, { token: a!.token }));
  const comment = ok(
    await api.call('POST', `/posts/${post}/comments`, { token: a!.token, body: { body: 'nice' } }),
    201,
  ).json.id as string;
  // The comment has a thread: the list reads its preview, the thread its replies.
  ok(
    await api.call('POST', `/posts/${post}/comments`, { token: c!.token, body: { body: 'agreed', replyTo: comment } }),
    201,
  );
  ok(await api.call('POST', `/posts/${post}/reposts`, { token: c!.token, body: { comment: 'look' } }), 201);
  ok(await api.call('PUT', `/users/${a!.handle}/following/${followed!.handle}`, { token: a!.token }));
  ok(await api.call('PUT', `/users/${a!.handle}/blocks/${blocked!.handle}`, { token: a!.token }));
  ok(await api.call('PUT', `/users/${a!.handle}/mutes/${muted!.handle}`, { token: a!.token }));
  const [avatar, cover] = await Promise.all([picture(a!.token, 'avatar'), picture(a!.token, 'cover')]);
  for (const id of [avatar, cover]) {
    ok(await api.call('POST', `/media/${id}/complete`, { token: a!.token }));
    await eventually(
      async () => expect((await api.call('GET', `/media/${id}`, { token: a!.token })).json.state).toBe('ready'),
      60_000,
    );
  }
  const upload = await picture(a!.token, 'post');
  const group = ok(
    await api.call('POST', `/users/${a!.handle}/groups`, { token: a!.token, body: { name: 'close' } }),
    201,
  ).json.id as string;
  ok(await api.call('PUT', `/users/${a!.handle}/groups/${group}/members/${b!.handle}`, { token: a!.token }));
  // 私信: B writes to A (A follows B: admitted), C and M send A requests (A follows neither).
  const dm = (from: User, to: User, text: string) =>
    api.call('POST', `/users/${from.handle}/conversations/${to.handle}/messages`, {
      token: from.token,
      body: { text, clientId: `rc${Math.random().toString(36).slice(2)}` },
    });
  ok(await dm(b!, a!, 'hello'), 201);
  ok(await dm(b!, a!, 'are you there?'), 201);
  ok(await dm(c!, a!, 'hi from c'), 201);
  ok(await dm(muted!, a!, 'hi from m'), 201);
  // The fan-out and the notifications of the above have landed: reads see the steady state.
  await eventually(
    async () =>
      expect(
        (await api.call('GET', `/users/${a!.handle}/timeline`, { token: a!.token })).json.posts.length,
      ).toBeGreaterThan(0),
    30_000,
  );
  return {
    a: a!,
    b: b!,
    c: c!,
    d: d!,
    post,
    comment,
    topic,
    own,
    liked,
    followed: followed!,
    blocked: blocked!,
    muted: muted!,
    avatar,
    cover,
    upload,
    group,
  };
}

const web = { 'x-weibo-client': 'web' };

/** One call per route, on its success path. */
const CALLS: Record<RouteName, (w: World) => Promise<ApiResponse>> = {
  register: () =>
    api.call('POST', '/users', {
      body: { handle: `rc_n_${Date.now().toString(36)}`, displayName: 'New', password: 'a new password here' },
    }),
  login: (w) => api.call('POST', '/sessions', { body: { handle: w.c.handle, password: w.c.password } }),
  refreshSession: (w) =>
    api.call('POST', '/sessions/refresh', { body: { refreshToken: w.c.refreshToken }, headers: web }),
  logOut: (w) => api.call('POST', '/sessions/logout', { body: { refreshToken: w.b.refreshToken }, headers: web }),
  getProfile: (w) => api.call('GET', `/users/${w.b.handle}`),
  exportData: (w) => api.call('GET', `/users/${w.a.handle}/export`, { token: w.a.token }),
  leave: (w) => api.call('DELETE', `/users/${w.d.handle}`, { token: w.d.token, body: { password: w.d.password } }),
  searchUsers: (w) => api.call('GET', `/users?q=${w.b.handle.slice(0, 3)}`, { token: w.a.token }),
  updateProfile: (w) =>
    api.call('PATCH', `/users/${w.a.handle}`, { token: w.a.token, body: { displayName: 'Ann Renamed' } }),
  setAvatar: (w) => api.call('PUT', `/users/${w.a.handle}/avatar`, { token: w.a.token, body: { mediaId: w.avatar } }),
  removeAvatar: (w) => api.call('DELETE', `/users/${w.a.handle}/avatar`, { token: w.a.token }),
  setCover: (w) => api.call('PUT', `/users/${w.a.handle}/cover`, { token: w.a.token, body: { mediaId: w.cover } }),
  removeCover: (w) => api.call('DELETE', `/users/${w.a.handle}/cover`, { token: w.a.token }),
  getSettings: (w) => api.call('GET', `/users/${w.a.handle}/settings`, { token: w.a.token }),
  changeSettings: (w) =>
    api.call('PATCH', `/users/${w.a.handle}/settings`, {
      token: w.a.token,
      body: { messagesFrom: 'everyone', notifications: { reposts: true } },
    }),
  publishPost: (w) => api.call('POST', '/posts', { token: w.a.token, body: { body: `a new one #${w.topic}#` } }),
  getPost: (w) => api.call('GET', `/posts/${w.post}`, { token: w.a.token }),
  deletePost: (w) => api.call('DELETE', `/posts/${w.own}`, { token: w.a.token }),
  // A topic the post never had (its trend counted) beside the one it keeps, and the mention kept.
  editPost: (w) =>
    api.call('PATCH', `/posts/${w.post}`, {
      token: w.b.token,
      headers: { 'if-match': '"0"' },
      body: { body: `hello again #${w.topic}# #${w.topic}x# @${w.a.handle}` },
    }),
  postHistory: (w) => api.call('GET', `/posts/${w.post}/history`, { token: w.a.token }),
  listUserPosts: (w) => api.call('GET', `/users/${w.b.handle}/posts`, { token: w.a.token }),
  listComments: (w) => api.call('GET', `/posts/${w.post}/comments`, { token: w.a.token }),
  getComment: (w) => api.call('GET', `/posts/${w.post}/comments/${w.comment}`, { token: w.a.token }),
  listReplies: (w) => api.call('GET', `/posts/${w.post}/comments/${w.comment}/replies`, { token: w.a.token }),
  addComment: (w) => api.call('POST', `/posts/${w.post}/comments`, { token: w.c.token, body: { body: 'me too' } }),
  deleteComment: (w) => api.call('DELETE', `/posts/${w.post}/comments/${w.comment}`, { token: w.a.token }),
  likeComment: (w) => api.call('PUT', `/posts/${w.post}/comments/${w.comment}/like`, { token: w.c.token }),
  unlikeComment: (w) => api.call('DELETE', `/posts/${w.post}/comments/${w.comment}/like`, { token: w.c.token }),
  listLikers: (w) => api.call('GET', `/posts/${w.post}/likes`, { token: w.a.token }),
  like: (w) => api.call('PUT', `/users/${w.c.handle}/likes/${w.post}`, { token: w.c.token }),
  unlike: (w) => api.call('DELETE', `/users/${w.a.handle}/likes/${w.liked}`, { token: w.a.token }),
  repost: (w) => api.call('POST', `/posts/${w.post}/reposts`, { token: w.a.token, body: { comment: 'again' } }),
  followState: (w) => api.call('GET', `/users/${w.a.handle}/following/${w.b.handle}`, { token: w.a.token }),
  follow: (w) => api.call('PUT', `/users/${w.a.handle}/following/${w.c.handle}`, { token: w.a.token }),
  unfollow: (w) => api.call('DELETE', `/users/${w.a.handle}/following/${w.followed.handle}`, { token: w.a.token }),
  listFollowing: (w) => api.call('GET', `/users/${w.a.handle}/following`, { token: w.a.token }),
  suggestions: (w) => api.call('GET', `/users/${w.a.handle}/suggestions`, { token: w.a.token }),
  listFollowers: (w) => api.call('GET', `/users/${w.b.handle}/followers`, { token: w.a.token }),
  homeTimeline: (w) => api.call('GET', `/users/${w.a.handle}/timeline`, { token: w.a.token }),
  listGroups: (w) => api.call('GET', `/users/${w.a.handle}/groups?member=${w.b.handle}`, { token: w.a.token }),
  createGroup: (w) => api.call('POST', `/users/${w.a.handle}/groups`, { token: w.a.token, body: { name: 'new one' } }),
  renameGroup: (w) =>
    api.call('PATCH', `/users/${w.a.handle}/groups/${w.group}`, { token: w.a.token, body: { name: 'closest' } }),
  deleteGroup: (w) => api.call('DELETE', `/users/${w.a.handle}/groups/${w.group}`, { token: w.a.token }),
  groupMembers: (w) => api.call('GET', `/users/${w.a.handle}/groups/${w.group}/members`, { token: w.a.token }),
  addGroupMember: (w) =>
    api.call('PUT', `/users/${w.a.handle}/groups/special/members/${w.b.handle}`, { token: w.a.token }),
  removeGroupMember: (w) =>
    api.call('DELETE', `/users/${w.a.handle}/groups/${w.group}/members/${w.b.handle}`, { token: w.a.token }),
  groupTimeline: (w) => api.call('GET', `/users/${w.a.handle}/groups/${w.group}/timeline`, { token: w.a.token }),
  timelineNewer: (w) =>
    api.call('GET', `/users/${w.a.handle}/timeline/newer?after=${encodeURIComponent(w.post)}`, { token: w.a.token }),
  notifications: (w) => api.call('GET', `/users/${w.b.handle}/notifications`, { token: w.b.token }),
  unreadNotifications: (w) => api.call('GET', `/users/${w.b.handle}/notifications/unread`, { token: w.b.token }),
  markNotificationsRead: async (w) => {
    const newest = (await api.call('GET', `/users/${w.b.handle}/notifications`, { token: w.b.token })).json
      .notifications[0].id as string;
    return api.call('PUT', `/users/${w.b.handle}/notifications/read`, { token: w.b.token, body: { upTo: newest } });
  },
  bookmark: (w) => api.call('PUT', `/users/${w.a.handle}/bookmarks/${w.post}`, { token: w.a.token }),
  unbookmark: (w) => api.call('DELETE', `/users/${w.a.handle}/bookmarks/${w.post}`, { token: w.a.token }),
  listBookmarks: (w) => api.call('GET', `/users/${w.a.handle}/bookmarks`, { token: w.a.token }),
  topicPosts: (w) => api.call('GET', `/topics/${encodeURIComponent(w.topic)}/posts`, { token: w.a.token }),
  trendingTopics: () => api.call('GET', '/topics/trending'),
  searchTopics: (w) => api.call('GET', `/topics?q=${encodeURIComponent(w.topic.slice(0, 2))}`),
  searchPosts: (w) => api.call('GET', `/search/posts?q=${encodeURIComponent(`#${w.topic}#`)}`, { token: w.a.token }),
  hotPosts: (w) => api.call('GET', '/hot', { token: w.a.token }),
  blockState: (w) => api.call('GET', `/users/${w.a.handle}/blocks/${w.c.handle}`, { token: w.a.token }),
  block: (w) => api.call('PUT', `/users/${w.b.handle}/blocks/${w.c.handle}`, { token: w.b.token }),
  unblock: (w) => api.call('DELETE', `/users/${w.a.handle}/blocks/${w.blocked.handle}`, { token: w.a.token }),
  mute: (w) => api.call('PUT', `/users/${w.a.handle}/mutes/${w.c.handle}`, { token: w.a.token }),
  unmute: (w) => api.call('DELETE', `/users/${w.a.handle}/mutes/${w.muted.handle}`, { token: w.a.token }),
  listBlocks: (w) => api.call('GET', `/users/${w.a.handle}/blocks`, { token: w.a.token }),
  listMutes: (w) => api.call('GET', `/users/${w.a.handle}/mutes`, { token: w.a.token }),
  createUpload: (w) => api.call('POST', '/media', { token: w.a.token, body: { contentType: 'image/png', size: 1000 } }),
  completeUpload: (w) => api.call('POST', `/media/${w.upload}/complete`, { token: w.a.token }),
  getMedia: (w) => api.call('GET', `/media/${w.avatar}`, { token: w.a.token }),
  openapi: () => api.call('GET', '/openapi.json'),
  listConversations: (w) => api.call('GET', `/users/${w.a.handle}/conversations`, { token: w.a.token }),
  messageBadge: (w) => api.call('GET', `/users/${w.a.handle}/message-badge`, { token: w.a.token }),
  readConversation: (w) => api.call('GET', `/users/${w.a.handle}/conversations/${w.b.handle}`, { token: w.a.token }),
  sendMessage: (w) =>
    api.call('POST', `/users/${w.a.handle}/conversations/${w.b.handle}/messages`, {
      token: w.a.token,
      body: { text: 'yes, here', clientId: 'rc-send' },
    }),
  markMessagesRead: (w) =>
    api.call('POST', `/users/${w.a.handle}/conversations/${w.b.handle}/read`, { token: w.a.token, body: { upTo: 2 } }),
  acceptRequest: (w) =>
    api.call('POST', `/users/${w.a.handle}/conversations/${w.c.handle}/accept`, { token: w.a.token }),
  declineRequest: (w) =>
    api.call('POST', `/users/${w.a.handle}/conversations/${w.muted.handle}/decline`, { token: w.a.token }),
  recallMessage: (w) =>
    api.call('POST', `/users/${w.a.handle}/conversations/${w.b.handle}/messages/3/recall`, { token: w.a.token }),
  deleteMessage: (w) =>
    api.call('DELETE', `/users/${w.a.handle}/conversations/${w.b.handle}/messages/1`, { token: w.a.token }),
  deleteConversation: (w) =>
    api.call('DELETE', `/users/${w.a.handle}/conversations/${w.c.handle}`, { token: w.a.token }),
};

/**
 * The order the calls run in: reads first (on the world as built), then the writes, arranged so
 * each finds what it needs (the unblock, unmute and unfollow undo the world's own; the block and
 * the follow act on C only after every read of C's state; the logout ends B's session last).
 */
const ORDER: RouteName[] = (Object.keys(routes) as RouteName[]).toSorted((x, y) => rank(x) - rank(y));
function rank(name: RouteName): number {
  const late: RouteName[] = [
    'deleteGroup',
    'follow',
    'mute',
    'block',
    'deleteComment',
    'deletePost',
    'removeAvatar',
    'removeCover',
    'logOut',
  ];
  if (late.includes(name)) return 2 + late.indexOf(name);
  return routes[name].method === 'GET' ? 0 : 1;
}

describe('what each route costs in HBase work', () => {
  const seen = new Map<RouteName, Measured>();
  afterAll(() => {
    const rows = ORDER.filter((n) => seen.has(n)).map((n) => {
      const m = seen.get(n)!;
      const r = routes[n];
      return `  ${`${r.method} ${r.path}`.padEnd(48)} ${String(m.status).padEnd(4)} ${String(m.requests).padStart(3)} requests ${String(m.roundTrips).padStart(2)} round trips  (written: ${costs[n].requests} / ${costs[n].roundTrips})`;
    });
    console.log(`[route-costs]\n${rows.join('\n')}`);
  });

  /** Every route called once on a world of its own, in ORDER: what each cost, and a bad status. */
  async function pass(): Promise<Map<RouteName, Measured>> {
    const w = await buildWorld();
    const costOf = new Map<RouteName, Measured>();
    for (const name of ORDER) {
      // A read is called twice and the dearer call counts: the first may fill a per-container
      // cache (faces, suggestions, trending), the second may find one cold in another container.
      const calls =
        routes[name].method === 'GET' ? [await CALLS[name](w), await CALLS[name](w)] : [await CALLS[name](w)];
      const res = calls.at(-1)!;
      costOf.set(
        name,
        calls
          .map(measured)
          .reduce((x, y) =>
            y.roundTrips > x.roundTrips || (y.roundTrips === x.roundTrips && y.requests > x.requests) ? y : x,
          ),
      );
      expect(
        Object.keys(routes[name].success).map(Number),
        `${name}: ${res.status} ${res.text.slice(0, 300)}`,
      ).toContain(res.status);
    }
    return costOf;
  }

  const overOf = (name: RouteName, m: Measured) =>
    m.roundTrips > costs[name].roundTrips || m.requests > costs[name].requests
      ? `${name}: ${m.requests} requests, ${m.roundTrips} round trips (written: ${costs[name].requests}, ${costs[name].roundTrips})`
      : undefined;

  it('every route of routes.ts is called once on its success path, within the requests and round trips written for it', async () => {
    for (const [name, m] of await pass()) seen.set(name, m);
    // Round trips are read off the requests' times: two requests sent side by side count as one
    // after the other when the second leaves after the first is back (a starved event loop on a
    // loaded machine). Time can only add round trips, never hide one, so a route over by round
    // trips alone is measured once more, on a world of its own, and its cheaper figure stands.
    const again = ORDER.filter((n) => {
      const m = seen.get(n)!;
      return m.requests <= costs[n].requests && m.roundTrips > costs[n].roundTrips;
    });
    if (again.length > 0) {
      const second = await pass();
      for (const name of again) {
        const m = second.get(name)!;
        console.log(`[route-costs] ${name} measured again: ${m.requests} requests, ${m.roundTrips} round trips`);
        if (m.roundTrips < seen.get(name)!.roundTrips && m.requests <= costs[name].requests) seen.set(name, m);
      }
    }
    const over = ORDER.flatMap((n) => overOf(n, seen.get(n)!) ?? []);
    expect(over, 'routes costing more than their written figure').toEqual([]);
  }, 240_000);
});
