// shared/schema/route-costs.ts — what each operation of the HTTP contract (shared/http/routes.ts)
// costs in HBase work, and why each step is there: the REST requests one call sends and their
// sequential round trips (shared/observability/round-trips.ts), as the `Server-Timing` header of
// every response reports them. Beside tables.ts because the costs follow from its layout and
// access patterns; the invariants the writes keep are in consistency.md.
//
// The figures are upper bounds for one call on the success path in an ordinary small world (a
// page of a few authors, a post with a comment, a like and a repost), as
// test/e2e/route-costs.test.ts builds it and measures every route against them; a route that
// grows past its figure fails there. Reads count a cold per-container cache (faces,
// suggestions): the dearer of two calls. Data-dependent parts say so in `why` (a celebrity
// merge, a long list's pages).

export interface RouteCost {
  /** REST requests one call sends, at most. */
  requests: number;
  /** Of those, how many happen one after another (parallel requests count once). */
  roundTrips: number;
  /** What each round trip reads or writes, and for a write which invariant needs it. */
  why: string;
}

export const ROUTE_COSTS = {
  getProfile: { requests: 1, roundTrips: 1, why: 'TODO' },
  getPost: { requests: 4, roundTrips: 1, why: 'TODO' },
  listUserPosts: { requests: 7, roundTrips: 5, why: 'TODO' },
  listComments: { requests: 3, roundTrips: 2, why: 'TODO' },
  listLikers: { requests: 4, roundTrips: 2, why: 'TODO' },
  followState: { requests: 3, roundTrips: 1, why: 'TODO' },
  listFollowing: { requests: 4, roundTrips: 2, why: 'TODO' },
  suggestions: { requests: 4, roundTrips: 2, why: 'TODO' },
  listFollowers: { requests: 4, roundTrips: 2, why: 'TODO' },
  homeTimeline: { requests: 4, roundTrips: 2, why: 'TODO' },
  timelineNewer: { requests: 2, roundTrips: 1, why: 'TODO' },
  notifications: { requests: 6, roundTrips: 2, why: 'TODO' },
  unreadNotifications: { requests: 5, roundTrips: 2, why: 'TODO' },
  topicPosts: { requests: 8, roundTrips: 5, why: 'TODO' },
  trendingTopics: { requests: 0, roundTrips: 0, why: 'TODO' },
  blockState: { requests: 3, roundTrips: 1, why: 'TODO' },
  listBlocks: { requests: 3, roundTrips: 2, why: 'TODO' },
  listMutes: { requests: 3, roundTrips: 2, why: 'TODO' },
  getMedia: { requests: 1, roundTrips: 1, why: 'TODO' },
  openapi: { requests: 0, roundTrips: 0, why: 'TODO' },
  register: { requests: 1, roundTrips: 1, why: 'TODO' },
  login: { requests: 7, roundTrips: 4, why: 'TODO' },
  refreshSession: { requests: 2, roundTrips: 2, why: 'TODO' },
  updateProfile: { requests: 2, roundTrips: 2, why: 'TODO' },
  setAvatar: { requests: 5, roundTrips: 4, why: 'TODO' },
  publishPost: { requests: 7, roundTrips: 2, why: 'TODO' },
  addComment: { requests: 7, roundTrips: 4, why: 'TODO' },
  like: { requests: 8, roundTrips: 5, why: 'TODO' },
  unlike: { requests: 8, roundTrips: 5, why: 'TODO' },
  repost: { requests: 15, roundTrips: 5, why: 'TODO' },
  unfollow: { requests: 12, roundTrips: 8, why: 'TODO' },
  markNotificationsRead: { requests: 2, roundTrips: 2, why: 'TODO' },
  unblock: { requests: 7, roundTrips: 5, why: 'TODO' },
  unmute: { requests: 7, roundTrips: 5, why: 'TODO' },
  createUpload: { requests: 3, roundTrips: 3, why: 'TODO' },
  completeUpload: { requests: 2, roundTrips: 2, why: 'TODO' },
  follow: { requests: 11, roundTrips: 7, why: 'TODO' },
  mute: { requests: 6, roundTrips: 4, why: 'TODO' },
  block: { requests: 24, roundTrips: 13, why: 'TODO' },
  deleteComment: { requests: 4, roundTrips: 4, why: 'TODO' },
  deletePost: { requests: 6, roundTrips: 4, why: 'TODO' },
  removeAvatar: { requests: 4, roundTrips: 4, why: 'TODO' },
  logOut: { requests: 2, roundTrips: 2, why: 'TODO' },
} as const satisfies Record<string, RouteCost>;
