// test/unit/suggestions.test.ts — who to follow (shared/use-cases/suggestions.ts) on the in-memory
// fakes: the rule (people your followees follow, best first; never you, anyone you follow,
// block or mute, or who blocks you), the fallback when that gives too few, the bounds, and the
// container's one-minute cache with an injected clock. Round trips: test/integration/home-side-reads.test.ts.
import { describe, expect, it } from 'vitest';
import { block, mute } from '../../shared/use-cases/blocks.js';
import { follow } from '../../shared/use-cases/relations.js';
import {
  CACHE_MS,
  FOLLOWEES_SAMPLED,
  SuggestionCache,
  suggestFollows,
  type Suggestion,
} from '../../shared/use-cases/suggestions.js';
import { drain, fakeFeed } from '../support/fakes/feed.js';
import { SUGGESTIONS_MAX } from '../../shared/domain/limits.js';

const T = 1_000_000;
const names = (list: Suggestion[]) => list.map((s) => `${s.face.handle}:${s.followedBy}`);
/** A fresh cache per call unless a test shares one; the sample starts at the beginning. */
const suggest = (
  deps: ReturnType<typeof fakeFeed>,
  reader: string,
  limit = 5,
  cache = new SuggestionCache(),
  now = T,
) => suggestFollows(deps, reader, limit, { now, cache, random: () => 0 });

let clock = 1;
/** `edges` as [follower, followee] pairs, each a millisecond after the previous one made. */
async function graph(deps: ReturnType<typeof fakeFeed>, edges: [string, string][]) {
  deps.limits.maxFollowing = 100;
  for (const [a, b] of edges) await follow(deps, a, b, clock++);
  await drain(deps);
}

describe('suggestFollows', () => {
  it('ranks people your followees follow by how many do, then by the newest edge, then by handle', async () => {
    const deps = fakeFeed('amy', 'bob', 'cat', 'dan', 'eve', 'fay', 'gil');
    await graph(deps, [
      ['amy', 'bob'],
      ['amy', 'cat'],
      ['bob', 'eve'],
      ['bob', 'dan'],
      ['cat', 'dan'],
      ['cat', 'fay'], // after bob → eve: fay's edge is newer
      ['bob', 'gil'],
      ['cat', 'gil'],
    ]);
    expect(names(await suggest(deps, 'amy'))).toEqual(['gil:2', 'dan:2', 'fay:1', 'eve:1']);
    expect((await suggest(deps, 'amy')).map((s) => s.face)).toContainEqual({
      handle: 'dan',
      displayName: 'dan',
      avatar: null,
    });
    expect(names(await suggest(deps, 'amy', 1))).toEqual(['gil:2']);
  });

  it('never suggests you, anyone you follow (also before your newest 20), block or mute, or who blocks you', async () => {
    const fillers = Array.from({ length: FOLLOWEES_SAMPLED }, (_, i) => `f${i}`);
    const deps = fakeFeed('amy', 'bob', 'cat', 'dan', 'eve', 'fay', 'gil', 'old', ...fillers);
    // amy's newest 20 followees: bob and f1…f19; old and f0 are older than the sample.
    await graph(deps, [['amy', 'old'], ...fillers.map((f): [string, string] => ['amy', f]), ['amy', 'bob']]);
    await graph(deps, [
      ...['amy', 'old', 'f0', 'cat', 'dan', 'eve', 'fay', 'gil'].map((x): [string, string] => ['bob', x]),
      ['f1', 'cat'],
    ]);
    await block(deps, 'amy', 'dan', T);
    await mute(deps, 'amy', 'eve', T);
    await block(deps, 'fay', 'amy', T);
    expect(names(await suggest(deps, 'amy', SUGGESTIONS_MAX))).toEqual(['cat:2', 'gil:1']);
  });

  it('falls back to the most followed in a sample of the graph when you follow nobody (followedBy 0)', async () => {
    const deps = fakeFeed('new', 'bob', 'cat', 'dan', 'eve');
    await graph(deps, [
      ['bob', 'dan'],
      ['cat', 'dan'],
      ['eve', 'dan'],
      ['bob', 'eve'],
      ['dan', 'new'],
    ]);
    expect(names(await suggest(deps, 'new'))).toEqual(['dan:0', 'eve:0']);
  });

  it('fills up with the fallback after your circle’s own suggestions', async () => {
    const deps = fakeFeed('amy', 'bob', 'cat', 'dan', 'eve');
    await graph(deps, [
      ['amy', 'bob'],
      ['bob', 'cat'],
      ['dan', 'eve'],
      ['cat', 'eve'],
    ]);
    // cat through bob; eve, followed twice in the sample (dan's and cat's edges), after.
    expect(names(await suggest(deps, 'amy'))).toEqual(['cat:1', 'eve:0']);
  });

  it('keeps a reader’s list for a minute in the container, then reads again; bounded in size', async () => {
    const deps = fakeFeed('amy', 'bob', 'cat', 'dan');
    await graph(deps, [
      ['amy', 'bob'],
      ['bob', 'cat'],
    ]);
    const cache = new SuggestionCache(CACHE_MS, 2);
    expect(names(await suggest(deps, 'amy', 5, cache, T))).toEqual(['cat:1']);
    await graph(deps, [['bob', 'dan']]);
    // Within the minute: the same list, even with a new edge (and a smaller limit is a slice of it).
    expect(names(await suggest(deps, 'amy', 5, cache, T + CACHE_MS - 1))).toEqual(['cat:1']);
    // A minute on: read again.
    expect(names(await suggest(deps, 'amy', 5, cache, T + CACHE_MS))).toEqual(['dan:1', 'cat:1']);
    // A clock gone back is not trusted.
    await graph(deps, [['amy', 'dan']]);
    expect(names(await suggest(deps, 'amy', 5, cache, T))).toEqual(['cat:1']);
    // At most 2 readers kept: the one written longest ago goes.
    await suggest(deps, 'bob', 5, cache, T);
    await suggest(deps, 'cat', 5, cache, T);
    expect(cache.size).toBe(2);
    expect(cache.get('amy', T)).toBeUndefined();
    expect(cache.get('cat', T)).toBeDefined();
  });
});
