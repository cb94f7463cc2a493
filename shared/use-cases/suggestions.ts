// shared/use-cases/suggestions.ts — who to follow: people followed by the people you follow,
// most of your followees first, never yourself, anyone you follow, block or mute, or who blocks
// you. Bounded, at most 3 sequential HBase round trips, and kept a minute per reader.
// Steps (round trips):
//   1. your newest FOLLOWEES_SAMPLED followees (the following list, newest first) ∥ a sample of
//      follow edges from anywhere in the graph (the fallback, below);
//   2. each sampled followee's newest FOLLOWING_READ_EACH followees, in parallel (skipped when
//      you follow nobody: then 2 round trips);
//   3. for the best CANDIDATES_CHECKED candidates, in parallel: your follow edges to them (you may
//      follow someone older than the sample), the visibility rule's edges (visibility.ts), their
//      faces (UserStore.faces; someone not registered drops out).
// Ranking: how many of your sampled followees follow them (`followedBy`), then the newest of
// those edges first (someone your circle took up lately), then by handle.
// Fallback, when that yields fewer than asked (you follow nobody yet, or your followees follow
// only people you follow): the most-followed in a sample of follow edges read from a random
// point of the lists table (RelationStore.sampleEdges) — a user turns up there about as often as
// they have edges, so the popular are likely, without a ranking kept anywhere. Trending topics'
// authors were the other choice, but a topic page is a scanner (create, read, delete: 2–3 round
// trips of its own), which would not fit after step 1; the sample is one stateless scan, read in
// step 1 whatever happens so the fallback never costs a 4th round trip. Those suggestions say
// `followedBy: 0` (none of your followees follow them) and come after every other.
// Lists are read as indexed: an entry a crash left stale can count once (approximate by design).
// Cached: the whole ranked list (SUGGESTIONS_MAX) per reader for CACHE_MS in the container, at
// most CACHE_ENTRIES readers; the route tells browsers the same (Cache-Control: private, max-age).
import type { FeedDeps } from './feed-deps.js';
import { readFaces, type Face } from './faces.js';
import { hiddenFrom } from './visibility.js';
import { SUGGESTIONS_MAX } from '../domain/limits.js';

/** Your newest followees whose following lists are read. */
export const FOLLOWEES_SAMPLED = 20;
/** Each one's newest followees read. */
export const FOLLOWING_READ_EACH = 30;
/** Candidates checked in step 3 (edges, blocks and faces of each: one multi-get per store). */
export const CANDIDATES_CHECKED = 40;
/** Follow edges read for the fallback (one stateless scan). */
export const SAMPLE_EDGES = 100;
/** How long a reader's list is reused in this container, and how many readers are kept. */
export const CACHE_MS = 60_000;
export const CACHE_ENTRIES = 1000;

export interface Suggestion {
  face: Face;
  /** How many of your (sampled) followees follow them; 0 for a fallback suggestion. */
  followedBy: number;
}

/** The ranked lists of recent readers, oldest insertion first (Map order), TTL CACHE_MS. */
export class SuggestionCache {
  private readonly entries = new Map<string, { at: number; value: Suggestion[] }>();
  constructor(
    private readonly ttlMs = CACHE_MS,
    private readonly maxEntries = CACHE_ENTRIES,
  ) {}

  get(reader: string, now: number): Suggestion[] | undefined {
    const hit = this.entries.get(reader);
    // Stale, or the clock went back: recompute.
    if (!hit || now - hit.at >= this.ttlMs || now < hit.at) return undefined;
    return hit.value;
  }

  set(reader: string, value: Suggestion[], now: number): void {
    this.entries.delete(reader);
    this.entries.set(reader, { at: now, value });
    // Bounded: the entry written longest ago goes first.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

const perContainer = new SuggestionCache();

interface Candidate {
  handle: string;
  followedBy: number;
  /** The newest edge to them among those counted (for ties). */
  newest: number;
}

const byRank = (a: Candidate, b: Candidate) =>
  b.followedBy - a.followedBy || b.newest - a.newest || (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0);

type SuggestionDeps = Pick<FeedDeps, 'relations' | 'blocks' | 'users' | 'pictures'>;

export interface SuggestionOptions {
  now?: number;
  cache?: SuggestionCache;
  /** Where the fallback's sample starts, in [0, 1) (tests fix it). */
  random?: () => number;
}

/** Up to `limit` people `reader` might follow, best first. */
export async function suggestFollows(
  deps: SuggestionDeps,
  reader: string,
  limit: number,
  opts: SuggestionOptions = {},
): Promise<Suggestion[]> {
  const { now = Date.now(), cache = perContainer, random = Math.random } = opts;
  const cached = cache.get(reader, now);
  if (cached) return cached.slice(0, limit);
  const ranked = await rank(deps, reader, random());
  cache.set(reader, ranked, now);
  return ranked.slice(0, limit);
}

async function rank(deps: SuggestionDeps, reader: string, at: number): Promise<Suggestion[]> {
  // 1. Your newest followees ∥ the fallback's sample.
  const [mine, sample] = await Promise.all([
    deps.relations.listed(reader, 'following', FOLLOWEES_SAMPLED),
    deps.relations.sampleEdges(at, SAMPLE_EDGES),
  ]);
  const followees = mine.items.map((e) => e.handle);
  // Known not to suggest before anything else is read: yourself and the followees just read.
  const known = new Set([reader, ...followees]);

  // 2. Their newest followees, counted.
  const lists = await Promise.all(followees.map((f) => deps.relations.listed(f, 'following', FOLLOWING_READ_EACH)));
  const counted = new Map<string, Candidate>();
  for (const list of lists) {
    for (const edge of list.items) {
      if (known.has(edge.handle)) continue;
      const c = counted.get(edge.handle) ?? { handle: edge.handle, followedBy: 0, newest: 0 };
      c.followedBy++;
      c.newest = Math.max(c.newest, edge.since);
      counted.set(edge.handle, c);
    }
  }
  const circle = [...counted.values()].sort(byRank).slice(0, CANDIDATES_CHECKED);

  // The fallback: the most followed in the sample, ranked as the circle's (followedBy 0 in the answer).
  const popular = new Map<string, Candidate>();
  for (const edge of sample) {
    if (known.has(edge.followee) || counted.has(edge.followee)) continue;
    const c = popular.get(edge.followee) ?? { handle: edge.followee, followedBy: 0, newest: 0 };
    c.followedBy++;
    c.newest = Math.max(c.newest, edge.since);
    popular.set(edge.followee, c);
  }
  const fallback = [...popular.values()].sort(byRank).slice(0, SUGGESTIONS_MAX);

  // 3. Your edges to them, whom you may not see, and their faces: one parallel stage.
  const handles = [...circle, ...fallback].map((c) => c.handle);
  if (handles.length === 0) return [];
  const [sinces, hidden, faces] = await Promise.all([
    deps.relations.followSinces(handles.map((followee) => ({ follower: reader, followee }))),
    hiddenFrom(deps, reader, handles),
    readFaces(deps, handles),
  ]);
  const followed = new Set(handles.filter((_, i) => sinces[i] !== null));
  const shown = (c: Candidate) => !followed.has(c.handle) && !hidden.has(c.handle) && faces.has(c.handle);
  return [
    ...circle.filter(shown).map((c) => ({ face: faces.get(c.handle)!, followedBy: c.followedBy })),
    ...fallback.filter(shown).map((c) => ({ face: faces.get(c.handle)!, followedBy: 0 })),
  ].slice(0, SUGGESTIONS_MAX);
}
