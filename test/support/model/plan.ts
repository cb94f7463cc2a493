// test/support/model/plan.ts — the seeded plan: which requests run, grouped into waves of
// concurrent requests. A pure function of the seed (it never sees a response), so a seed
// replays the same requests; only the server-side interleavings differ between runs.
import { seededRng, type Rng } from './prng.js';

/** [follower, followee], as user indices. */
export type Pair = readonly [number, number];

export type Step =
  | { kind: 'publish' | 'retry' | 'reuseKey' | 'delete'; slot: number }
  | { kind: 'follow' | 'unfollow'; pair: Pair };

/** A post the plan publishes; the slot number names it before the server gives it an id. */
export interface Slot {
  author: number;
  body: string;
  key?: string;
}

/**
 * Requests on one post or one pair that belong together. Its tasks run concurrently, the steps
 * of one task one after another. No pair and no post is touched by two groups of a wave, so
 * every edge's final state is known from the responses — except in a refollow, whose two
 * racing requests answer in an order that cannot tell which landed last: its `decider` runs
 * alone after the wave and fixes the state, while the race's queue work is still in flight.
 */
export interface Group {
  label: string;
  tasks: Step[][];
  decider?: Step;
}

export interface Plan {
  seed: number;
  users: number;
  slots: Slot[];
  waves: Group[][];
}

export const USERS = 6;
/** Followed by three users in the first wave: the celebrity paths (threshold 3 in offline-setup) run in every seed. */
const STAR = 0;
/** offline-setup's CELEBRITY_FOLLOWERS. Only steers the choice of pairs; the model never uses it. */
const CELEBRITY_FOLLOWERS = 3;
/**
 * Under a demotion's copy of 50 recent posts and the 200-post backfill, and with six users far
 * under the 800-entry inbox cap: no truncation rule is needed, the model expects every post.
 */
const MAX_POSTS_PER_AUTHOR = 40;
/** Share of pair choices that go to the seed's three hot pairs, so races on one edge really happen. */
const HOT_SHARE = 0.6;

const pairKey = ([a, b]: Pair) => `p:${a}>${b}`;
const slotKey = (slot: number) => `s:${slot}`;

export function makePlan(seed: number, groups: number): Plan {
  const rng = seededRng(seed);
  const planner = new Planner(rng, seed);
  const waves = [planner.firstWave()];
  for (let planned = 0; planned < groups; ) {
    const size = Math.min(rng.int(3, 6), groups - planned);
    waves.push(planner.wave(size));
    planned += size;
  }
  return { seed, users: USERS, slots: planner.slots, waves };
}

/**
 * Tracks what the plan intends (edges, live posts) only to choose meaningful requests — a
 * delete of a live post, an unfollow of a followed user. The model, not this, judges responses.
 */
class Planner {
  readonly slots: Slot[] = [];
  private readonly live = new Set<number>();
  private readonly deletedWithKey = new Set<number>();
  private readonly edges = new Set<string>();
  private readonly hot: Pair[];
  /** Pairs and posts already used by a group of the current wave. */
  private busy = new Set<string>();

  private readonly kinds: [weight: number, make: () => Group | undefined][] = [
    // Plain requests build up posts and edges; the racy kinds, weighted up, are what the check is for.
    [10, () => this.publish()],
    [5, () => this.publishThenRetry()],
    [4, () => this.publishThenReuseKey()],
    [5, () => this.deleteOnce()],
    [8, () => this.deleteTwiceAtOnce()],
    [8, () => this.retryAfterDelete()],
    [10, () => this.edgeGroup('follow', this.pair())],
    [5, () => this.edgeGroup('unfollow', this.pair((p) => this.follows(p)) ?? this.pair())],
    [14, () => this.refollow()],
    [12, () => this.publishThenFollowerUnfollows()],
    [10, () => this.followThenUnfollow()],
  ];

  constructor(
    private readonly rng: Rng,
    private readonly seed: number,
  ) {
    // The star's first fan, and a mutual pair among the others.
    const a = rng.int(2, USERS - 1);
    const b = rng.pick(Array.from({ length: USERS - 1 }, (_, i) => i + 1).filter((u) => u !== a));
    this.hot = [[1, STAR], [a, b], [b, a]];
  }

  /**
   * Three fans make the star a celebrity; everyone publishes something to backfill. With keys:
   * this wave meets cold Lambdas, and a keyed publish that times out can be sent again.
   */
  firstWave(): Group[] {
    this.busy = new Set();
    const groups = [1, 2, 3].map((fan) => this.edgeGroup('follow', this.claim([fan, STAR])));
    for (let author = 0; author < USERS; author++) groups.push(this.publishGroup('publish with key', author, true));
    return groups.filter((g): g is Group => g !== undefined);
  }

  wave(size: number): Group[] {
    this.busy = new Set();
    return Array.from({ length: size }, () => this.group());
  }

  private group(): Group {
    const total = this.kinds.reduce((sum, [w]) => sum + w, 0);
    let roll = this.rng.next() * total;
    const [, make] = this.kinds.find(([w]) => (roll -= w) < 0) ?? this.kinds[0]!;
    // A kind whose precondition fails (no live post yet, every author at the cap) falls back.
    const group = make() ?? this.publish() ?? this.edgeGroup('follow', this.pair());
    if (!group) throw new Error('plan: no request possible (every pair busy and every author at the cap)');
    return group;
  }

  // --- posts ---------------------------------------------------------------------------------

  private publish(): Group | undefined {
    const author = this.author();
    if (author === undefined) return undefined;
    const keyed = this.rng.chance(0.5);
    return this.publishGroup(keyed ? 'publish with key' : 'publish', author, keyed);
  }

  private publishGroup(label: string, author: number, keyed: boolean): Group {
    return { label, tasks: [[{ kind: 'publish', slot: this.newSlot(author, keyed) }]] };
  }

  /** A client retry: the same key and body once the first answer is in. */
  private publishThenRetry(): Group | undefined {
    const author = this.author();
    if (author === undefined) return undefined;
    const slot = this.newSlot(author, true);
    return { label: 'publish + retry', tasks: [[{ kind: 'publish', slot }, { kind: 'retry', slot }]] };
  }

  /** The key again with another body once the first answer is in: a client bug to refuse. */
  private publishThenReuseKey(): Group | undefined {
    const author = this.author();
    if (author === undefined) return undefined;
    const slot = this.newSlot(author, true);
    return { label: 'publish + same key, other body', tasks: [[{ kind: 'publish', slot }, { kind: 'reuseKey', slot }]] };
  }

  private deleteOnce(): Group | undefined {
    const slot = this.liveSlot(() => true);
    if (slot === undefined) return undefined;
    this.markDeleted(slot);
    return { label: 'delete', tasks: [[{ kind: 'delete', slot }]] };
  }

  private deleteTwiceAtOnce(): Group | undefined {
    const slot = this.liveSlot(() => true);
    if (slot === undefined) return undefined;
    this.markDeleted(slot);
    return { label: 'double delete', tasks: [[{ kind: 'delete', slot }], [{ kind: 'delete', slot }]] };
  }

  /**
   * A later retry of a deleted post's publish (each deleted post once: the same retry again
   * finds nothing new); with none waiting, delete a post and retry as soon as that answers.
   */
  private retryAfterDelete(): Group | undefined {
    const deleted = [...this.deletedWithKey].filter((s) => !this.busy.has(slotKey(s)));
    if (deleted.length > 0) {
      const slot = this.rng.pick(deleted);
      this.busy.add(slotKey(slot));
      this.deletedWithKey.delete(slot);
      return { label: 'retry after delete', tasks: [[{ kind: 'retry', slot }]] };
    }
    const slot = this.liveSlot((s) => this.slots[s]!.key !== undefined);
    if (slot === undefined) return undefined;
    this.live.delete(slot);
    return { label: 'delete → retry', tasks: [[{ kind: 'delete', slot }, { kind: 'retry', slot }]] };
  }

  // --- edges ---------------------------------------------------------------------------------

  private edgeGroup(kind: 'follow' | 'unfollow', pair: Pair | undefined): Group | undefined {
    if (!pair) return undefined;
    this.setEdge(pair, kind === 'follow');
    return { label: kind, tasks: [[{ kind, pair }]] };
  }

  /** Unfollow and follow of one pair at once (either may start first), then a decider alone. */
  private refollow(): Group | undefined {
    const pair = this.pair((p) => this.follows(p)) ?? this.pair();
    if (!pair) return undefined;
    const racing: Step[][] = [[{ kind: 'unfollow', pair }], [{ kind: 'follow', pair }]];
    if (this.rng.chance(0.5)) racing.reverse();
    // Mostly follow: a follow that finds the edge changes nothing, so what the race left shows.
    const decider = this.rng.chance(0.65) ? 'follow' : 'unfollow';
    this.setEdge(pair, decider === 'follow');
    return { label: 'refollow', tasks: racing, decider: { kind: decider, pair } };
  }

  /** The followee publishes and, as soon as that answers, a follower unfollows: fan-out is in flight. */
  private publishThenFollowerUnfollows(): Group | undefined {
    const pair = this.pair((p) => this.follows(p) && !this.celebrity(p[1]) && this.postsBy(p[1]) < MAX_POSTS_PER_AUTHOR);
    if (!pair) return undefined;
    const slot = this.newSlot(pair[1], this.rng.chance(0.3));
    this.setEdge(pair, false);
    return { label: 'publish → follower unfollows', tasks: [[{ kind: 'publish', slot }, { kind: 'unfollow', pair }]] };
  }

  /** Unfollow as soon as the follow answers: its backfill is still queued. */
  private followThenUnfollow(): Group | undefined {
    const pair = this.pair((p) => !this.follows(p) && this.followers(p[1]) + 1 < CELEBRITY_FOLLOWERS) ?? this.pair();
    if (!pair) return undefined;
    this.setEdge(pair, false);
    return { label: 'follow → unfollow', tasks: [[{ kind: 'follow', pair }, { kind: 'unfollow', pair }]] };
  }

  // --- planned state ---------------------------------------------------------------------------

  /** A pair no other group of this wave touches, mostly a hot one; `fits` narrows the choice. */
  private pair(fits: (p: Pair) => boolean = () => true): Pair | undefined {
    for (let attempt = 0; attempt < 30; attempt++) {
      const pair = this.rng.chance(HOT_SHARE) ? this.rng.pick(this.hot) : this.randomPair();
      if (!this.busy.has(pairKey(pair)) && fits(pair)) return this.claim(pair);
    }
    return undefined;
  }

  private randomPair(): Pair {
    const follower = this.rng.int(0, USERS - 1);
    const followee = (follower + this.rng.int(1, USERS - 1)) % USERS;
    return [follower, followee];
  }

  private claim(pair: Pair): Pair {
    this.busy.add(pairKey(pair));
    return pair;
  }

  private follows(pair: Pair): boolean {
    return this.edges.has(pairKey(pair));
  }

  private setEdge(pair: Pair, on: boolean): void {
    if (on) this.edges.add(pairKey(pair));
    else this.edges.delete(pairKey(pair));
  }

  private followers(user: number): number {
    return [...this.edges].filter((k) => k.endsWith(`>${user}`)).length;
  }

  private celebrity(user: number): boolean {
    return this.followers(user) >= CELEBRITY_FOLLOWERS;
  }

  private postsBy(author: number): number {
    return this.slots.filter((s) => s.author === author).length;
  }

  private author(): number | undefined {
    const open = Array.from({ length: USERS }, (_, u) => u).filter((u) => this.postsBy(u) < MAX_POSTS_PER_AUTHOR);
    return open.length > 0 ? this.rng.pick(open) : undefined;
  }

  private newSlot(author: number, keyed: boolean): number {
    const slot = this.slots.length;
    this.slots.push({ author, body: `seed ${this.seed} post ${slot} by u${author}`, ...(keyed ? { key: `s${this.seed}-p${slot}` } : {}) });
    this.live.add(slot);
    this.busy.add(slotKey(slot)); // not deletable by another group of the wave that publishes it
    return slot;
  }

  private liveSlot(fits: (slot: number) => boolean): number | undefined {
    const candidates = [...this.live].filter((s) => !this.busy.has(slotKey(s)) && fits(s));
    if (candidates.length === 0) return undefined;
    const slot = this.rng.pick(candidates);
    this.busy.add(slotKey(slot));
    return slot;
  }

  private markDeleted(slot: number): void {
    this.live.delete(slot);
    if (this.slots[slot]!.key !== undefined) this.deletedWithKey.add(slot);
  }
}
