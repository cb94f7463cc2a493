// test/unit/route-costs.test.ts — the read bound of the API, on the figures written in
// shared/schema/route-costs.ts (test/e2e/route-costs.test.ts measures every route against them):
// every GET answers in at most 2 sequential HBase round trips. The one exception is named here
// with its reason, so a new read cannot be written at 3 without saying why.
import { describe, expect, it } from 'vitest';
import { routes, type RouteName } from '../../shared/http/routes.js';
import { ROUTE_COSTS, type RouteCost } from '../../shared/schema/route-costs.js';

const costs: Record<RouteName, RouteCost> = ROUTE_COSTS;

/** Reads allowed a third round trip, and why it cannot go. */
const THIRD_ROUND_TRIP: Partial<Record<RouteName, string>> = {
  // Friends of friends: the candidates are known only after the followees' own lists are read
  // (2), and whether the reader follows them, the blocks and their faces need the candidates (3).
  suggestions: 'friends of friends: two hops, then the candidates’ checks',
};

describe('what a read costs', () => {
  it('every GET route is written at ≤ 2 sequential round trips, but the named exception', () => {
    const over = (Object.keys(routes) as RouteName[])
      .filter((name) => routes[name].method === 'GET' && !(name in THIRD_ROUND_TRIP))
      .filter((name) => costs[name].roundTrips > 2)
      .map((name) => `${name}: ${costs[name].roundTrips}`);
    expect(over).toEqual([]);
    for (const name of Object.keys(THIRD_ROUND_TRIP) as RouteName[])
      expect(costs[name].roundTrips, name).toBeLessThanOrEqual(3);
  });
});
