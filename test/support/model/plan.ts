// test/support/model/plan.ts — the seeded plan: which requests run, grouped into waves of
// concurrent requests. A pure function of the seed (it never sees a response), so a seed
// replays the same requests; only the server-side interleavings differ between runs.
import { seededRng, type Rng } from './prng.js';

/** [follower, followee], as user indices. */
export type Pair = readonly [number, number];

export type Step =
  | { kind: 'publish' | 'retry' | 'reuseKey' | 'delete'; slot: number }
  /**
   * 编辑: the author edits `slot` (an original) from version `from` to `from + 1`, appending
   * ` ✎<from + 1>` (mentions and topics unchanged). `racing`: another edit from the same version
   * runs at once (a 412 is then an answer the server may give), or a delete (a 404 may be).
   */
  | { kind: 'edit'; slot: number; from: number; racing?: 'edit' | 'delete' }
  | { kind: 'follow' | 'unfollow'; pair: Pair }
  /** `pair` = [actor, target]: the actor blocks (mutes) the target, or takes it back. */
  | { kind: 'block' | 'unblock' | 'mute' | 'unmute'; pair: Pair }
  /** A follow racing a block between the same two users: 200 or 403 `blocked`, and no edge survives. */
  | { kind: 'followRacingBlock'; pair: Pair }
  /**
   * Across a block (either way): a follow of `other`, or a like, comment or plain repost of
   * `other`'s post `slot` — refused with 403 `blocked`, nothing changes.
   */
  | { kind: 'refused'; action: 'follow' | 'like' | 'comment' | 'repost'; user: number; other: number; slot?: number }
  | { kind: 'like' | 'unlike'; user: number; slot: number }
  /** 收藏: private, no count, never refused across a block; the owner's list is read back. */
  | { kind: 'bookmark' | 'unbookmark'; user: number; slot: number }
  /** `plan.comments[comment]` says on which post, by whom, with what, in reply to which. */
  | { kind: 'comment'; comment: number }
  | { kind: 'deleteComment'; user: number; comment: number }
  /**
   * `user` reposts `target` (a repost's root original is what gets reposted). `slot` names the
   * repost: a new slot, or for a plain repost the user's live plain repost of that original
   * (the answer is that one again); absent when the original is deleted (404 expected).
   */
  | { kind: 'repost'; user: number; target: number; slot?: number; comment?: string; key?: string }
  /** 注销: the user leaves (DELETE /users/{h}); a `restore` (logging in again) follows in the same task. */
  | { kind: 'leave' | 'restore'; user: number }
  /** 分组: `user` makes their own group number `group` (1 and up; 0 is the built-in 特别关注). */
  | { kind: 'createGroup'; user: number; group: number }
  /**
   * `user` puts `member` into (takes them out of) their group number `group`. An add of someone
   * the user follows answers 200, of someone they do not 422 `not_following`. `racing`: an
   * unfollow of the two runs at once, so either answer may come, and the member ends in no group.
   */
  | { kind: 'groupAdd'; user: number; group: number; member: number; racing?: boolean }
  | { kind: 'groupRemove'; user: number; group: number; member: number };

/** A post the plan publishes; the slot number names it before the server gives it an id. */
export interface Slot {
  author: number;
  /** For a repost: the comment ('' for a plain repost); the server adds the `//@` chain. */
  body: string;
  key?: string;
  /** A repost, made by a `repost` step: of which slot (as asked) and its root original. */
  repost?: { target: number; root: number; plain: boolean };
}

/** A comment the plan writes; its number names it before the server gives it an id. */
export interface PlannedComment {
  post: number;
  author: number;
  body: string;
  replyTo?: number;
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
  comments: PlannedComment[];
  waves: Group[][];
  /** Per user, how many groups of their own the first wave makes (none: the plan has no groups). */
  groups?: number[];
}

/** Users of a plan unless asked otherwise (MODEL_USERS): few, so edges and posts are raced often. */
export const USERS = 6;
/** The handle of a plan's user: bodies mention users by it before they are registered. */
export const handleOf = (seed: number, user: number) => `m${seed}_u${user}`;
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
/**
 * Writes a user may plan per seed, per quota action (the API allows 20 comments, 60 likes +
 * unlikes, 20 reposts a minute; a seed takes about a minute). Under the limits with room for
 * resent requests, so a 429 is never the plan's doing. A kind whose user is out falls back.
 */
const WRITES_PER_USER = { comment: 14, like: 40, repost: 14 } as const;
type Quota = keyof typeof WRITES_PER_USER;
/** Share of post choices for reactions that go to the seed's hot posts (racing counts on one row). */
const HOT_POST_SHARE = 0.5;

const pairKey = ([a, b]: Pair) => `p:${a}>${b}`;
/** Two users, either way round: what a block separates. */
const usersKey = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`);
/** Share of posts that mention other users of the seed (and now and then someone unregistered). */
const MENTION_SHARE = 0.35;
const slotKey = (slot: number) => `s:${slot}`;
/** Share of waves followed by a wave in which one user leaves, with a like of theirs in flight, and logs in again. */
const LEAVE_SHARE = 0.15;
const likeKey = (user: number, slot: number) => `${user}>${slot}`;
/** Groups of their own each user makes in the first wave (besides the built-in 特别关注, group 0). */
const OWN_GROUPS = [1, 2] as const;
const memberKey = ([owner, member]: Pair, group: number) => `${owner}>${member}>${group}`;

/** The plan of a seed: `groups` request groups among `users` users (at least 6: the first wave uses four, the hot pairs three). */
export function makePlan(seed: number, groups: number, users = USERS): Plan {
  if (!Number.isInteger(users) || users < 6) throw new RangeError(`a plan needs at least 6 users (got ${users})`);
  const rng = seededRng(seed);
  const planner = new Planner(rng, seed, users);
  const waves = [planner.firstWave()];
  for (let planned = 0; planned < groups; ) {
    const size = Math.min(rng.int(3, 6), groups - planned);
    waves.push(planner.wave(size));
    planned += size;
    // Now and then a user leaves and comes back, in a wave of its own: nobody else acts on them meanwhile.
    if (rng.chance(LEAVE_SHARE)) waves.push(planner.leaveWave());
  }
  // The waves' unfollows leave few follows, and so few members, standing: a last wave puts one
  // person into a group of each user, while the waves' queued work (backfills, settles) still runs.
  waves.push(planner.groupWave());
  return { seed, users, slots: planner.slots, comments: planner.comments, waves, groups: planner.groupCounts };
}

/**
 * Tracks what the plan intends (edges, live posts) only to choose meaningful requests — a
 * delete of a live post, an unfollow of a followed user. The model, not this, judges responses.
 */
class Planner {
  readonly slots: Slot[] = [];
  readonly comments: PlannedComment[] = [];
  private readonly live = new Set<number>();
  private readonly deleted = new Set<number>();
  private readonly deletedWithKey = new Set<number>();
  private readonly edges = new Set<string>();
  private readonly hot: Pair[];
  /** Pairs and posts already used by a group of the current wave. */
  private busy = new Set<string>();
  /** `user>slot` of every like the plan leaves in place. */
  private readonly likes = new Set<string>();
  /** Edits planned per slot (the version the next edit starts from). */
  private readonly versions = new Map<number, number>();
  /** `user>slot` of every bookmark the plan leaves in place. */
  private readonly bookmarks = new Set<string>();
  /** Comments the plan expects to exist (their posts may since be deleted). */
  private readonly liveComments = new Set<number>();
  /** `user>root slot` → that user's live plain repost of the root (what a plain repost answers again). */
  private readonly plainReposts = new Map<string, number>();
  private readonly writes = new Map<string, number>();
  /** `a>b`: user a blocks (mutes) user b, as the plan leaves it. */
  private readonly blocks = new Set<string>();
  private readonly mutes = new Set<string>();
  /**
   * Per wave: user pairs a block or unblock changes (no other group of the wave may act across
   * them: a like racing a block may or may not be refused), and user pairs other groups act
   * across (no block or unblock of the wave may choose them).
   */
  private blockBusy = new Set<string>();
  private pairsUsed = new Set<string>();
  /** Per user, their own groups; `owner>member>group` of every membership the plan leaves in place. */
  readonly groupCounts: number[];
  private readonly memberships = new Set<string>();

  private readonly kinds: [weight: number, make: () => Group | undefined][] = [
    // Plain requests build up posts and edges; the racy kinds, weighted up, are what the check is for.
    [10, () => this.publish()],
    [5, () => this.publishThenRetry()],
    [4, () => this.publishThenReuseKey()],
    [5, () => this.deleteOnce()],
    [8, () => this.deleteTwiceAtOnce()],
    [8, () => this.retryAfterDelete()],
    [4, () => this.editGroup()],
    [10, () => this.edgeGroup('follow', this.pair())],
    [5, () => this.edgeGroup('unfollow', this.pair((p) => this.follows(p)) ?? this.pair())],
    [14, () => this.refollow()],
    [12, () => this.publishThenFollowerUnfollows()],
    [10, () => this.followThenUnfollow()],
    // Reactions (issue 10): likes, comments, reposts, and deleting originals under them.
    [6, () => this.likes1to3()],
    [5, () => this.doubleLike()],
    [3, () => this.unlikeGroup(false)],
    [2, () => this.unlikeGroup(true)],
    [5, () => this.relike()],
    [2, () => this.likeThenUnlike()],
    [3, () => this.bookmarkGroup()],
    [2, () => this.unbookmarkGroup()],
    [2, () => this.rebookmark()],
    [6, () => this.comments1to3()],
    [3, () => this.commentThenDelete()],
    [3, () => this.deleteCommentGroup(false)],
    [3, () => this.deleteCommentGroup(true)],
    [1, () => this.strangerDeletesComment()],
    [1, () => this.replyToDeletedComment()],
    [5, () => this.repostGroup({ plain: true })],
    [4, () => this.repostGroup({ plain: true, twice: true })],
    [5, () => this.repostGroup({ plain: false })],
    [4, () => this.repostGroup({ plain: this.rng.chance(0.5), ofRepost: true })],
    [5, () => this.deleteOriginal()],
    [2, () => this.reactToDeleted()],
    // Blocks and mutes: a block removes follows both ways and refuses follow / like / comment /
    // repost across it; both hide posts from timelines; neither is refused anything itself.
    [3, () => this.blockGroup(false)],
    [2, () => this.blockGroup(true)],
    [3, () => this.unblockGroup()],
    [3, () => this.refusedGroup()],
    [3, () => this.muteGroup()],
    [2, () => this.unmuteGroup()],
    // 分组: adds and removes of members among the follows above; an add racing an unfollow.
    [16, () => this.groupAddGroup()],
    [4, () => this.groupRemoveGroup()],
    [5, () => this.groupAddRacingUnfollow()],
  ];

  constructor(
    private readonly rng: Rng,
    private readonly seed: number,
    private readonly userCount: number,
  ) {
    // The star's first fan, and a mutual pair among the others.
    const a = rng.int(2, this.userCount - 1);
    const b = rng.pick(Array.from({ length: this.userCount - 1 }, (_, i) => i + 1).filter((u) => u !== a));
    this.hot = [
      [1, STAR],
      [a, b],
      [b, a],
    ];
    this.groupCounts = Array.from({ length: this.userCount }, () => rng.pick(OWN_GROUPS));
  }

  /**
   * Three fans make the star a celebrity; everyone publishes something to backfill. With keys:
   * this wave meets cold Lambdas, and a keyed publish that times out can be sent again.
   */
  firstWave(): Group[] {
    this.newWave();
    const groups = [1, 2, 3].map((fan) => this.edgeGroup('follow', this.claim([fan, STAR])));
    for (let author = 0; author < this.userCount; author++)
      groups.push(this.publishGroup('publish with key', author, true));
    // Each user's own groups, one after another (one book per user: its changes serialise anyway).
    for (let user = 0; user < this.userCount; user++)
      groups.push({
        label: 'create groups',
        tasks: [
          Array.from(
            { length: this.groupCounts[user]! },
            (_, g): Step => ({ kind: 'createGroup', user, group: g + 1 }),
          ),
        ],
      });
    return groups.filter((g): g is Group => g !== undefined);
  }

  wave(size: number): Group[] {
    this.newWave();
    return Array.from({ length: size }, () => this.group());
  }

  /**
   * One user leaves (注销) and logs in again, which restores the account; beside it, now and
   * then, a like of theirs is in flight (sent with the access token they had: it lands, hidden
   * until the restore). After the restore everything must be as the model says: nothing lost.
   */
  leaveWave(): Group[] {
    this.newWave();
    const user = this.rng.int(0, this.userCount - 1);
    const tasks: Step[][] = [
      [
        { kind: 'leave', user },
        { kind: 'restore', user },
      ],
    ];
    const slot = this.reactionSlot((s) => this.canReact(user, s) && !this.likes.has(likeKey(user, s)));
    if (slot !== undefined && this.users('like', 1, (u) => u === user).length === 1) {
      this.likes.add(likeKey(user, slot));
      tasks.push([{ kind: 'like', user, slot }]);
    }
    return [{ label: tasks.length > 1 ? 'leave → restore, a like in flight' : 'leave → restore', tasks }];
  }

  /**
   * Each user adds someone they follow to one of their groups, or follows someone new and, once
   * that answers, adds them (their backfill still queued): the groups the compare reads hold people.
   */
  groupWave(): Group[] {
    this.newWave();
    return Array.from({ length: this.userCount }, (_, user): Group | undefined => {
      const followed = this.rng.chance(0.5) ? this.pairOf(user, (p) => this.follows(p)) : undefined;
      const pair = followed ?? this.pairOf(user, (p) => !this.follows(p));
      if (!pair) return undefined;
      const group = this.someGroup(user);
      const add: Step = { kind: 'groupAdd', user, group, member: pair[1] };
      this.memberships.add(memberKey(pair, group));
      if (followed) return { label: 'group add', tasks: [[add]] };
      this.setEdge(pair, true);
      return { label: 'follow → group add', tasks: [[{ kind: 'follow', pair }, add]] };
    }).filter((g): g is Group => g !== undefined);
  }

  private newWave(): void {
    this.busy = new Set();
    this.blockBusy = new Set();
    this.pairsUsed = new Set();
  }

  private group(): Group {
    const total = this.kinds.reduce((sum, [w]) => sum + w, 0);
    let roll = this.rng.next() * total;
    const [, make] =
      this.kinds.find(([w]) => {
        roll -= w;
        return roll < 0;
      }) ?? this.kinds[0]!;
    // A kind whose precondition fails (no live post yet, every author at the cap) falls back.
    const group = make() ?? this.publish() ?? this.edgeGroup('follow', this.pair());
    if (!group) throw new Error('plan: no request possible (every pair busy and every author at the cap)');
    for (const key of this.acrossOf(group)) this.pairsUsed.add(key);
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
    return {
      label: 'publish + retry',
      tasks: [
        [
          { kind: 'publish', slot },
          { kind: 'retry', slot },
        ],
      ],
    };
  }

  /** The key again with another body once the first answer is in: a client bug to refuse. */
  private publishThenReuseKey(): Group | undefined {
    const author = this.author();
    if (author === undefined) return undefined;
    const slot = this.newSlot(author, true);
    return {
      label: 'publish + same key, other body',
      tasks: [
        [
          { kind: 'publish', slot },
          { kind: 'reuseKey', slot },
        ],
      ],
    };
  }

  private deleteOnce(): Group | undefined {
    const slot = this.liveSlot(() => true);
    if (slot === undefined) return undefined;
    this.markDeleted(slot);
    return { label: 'delete', tasks: [[{ kind: 'delete', slot }]] };
  }

  /**
   * An edit of an original by its author: alone; or two from one version at once (one lands,
   * the other is 412); or racing a delete of the post (200 or 404, and the post ends deleted).
   * At most MAX_EDITS a post, and only within the 24 hours every post of a run is in.
   */
  private editGroup(): Group | undefined {
    const slot = this.liveSlot((s) => !this.slots[s]!.repost && (this.versions.get(s) ?? 0) < 9);
    if (slot === undefined) return undefined;
    const from = this.versions.get(slot) ?? 0;
    this.versions.set(slot, from + 1);
    const roll = this.rng.next();
    if (roll < 0.5) return { label: 'edit', tasks: [[{ kind: 'edit', slot, from }]] };
    if (roll < 0.8)
      return {
        label: 'edits at once',
        tasks: [[{ kind: 'edit', slot, from, racing: 'edit' }], [{ kind: 'edit', slot, from, racing: 'edit' }]],
      };
    this.markDeleted(slot);
    return {
      label: 'edit racing a delete',
      tasks: [[{ kind: 'edit', slot, from, racing: 'delete' }], [{ kind: 'delete', slot }]],
    };
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
    // Publishes only: a keyed repost's retry is another request (POST /posts/{id}/reposts).
    const slot = this.liveSlot((s) => this.slots[s]!.key !== undefined && !this.slots[s]!.repost);
    if (slot === undefined) return undefined;
    this.markDeleted(slot);
    this.deletedWithKey.delete(slot);
    return {
      label: 'delete → retry',
      tasks: [
        [
          { kind: 'delete', slot },
          { kind: 'retry', slot },
        ],
      ],
    };
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
    // The racing unfollow takes the followee out of every group of the follower, whatever the decider does.
    this.leaveGroups(pair);
    this.setEdge(pair, decider === 'follow');
    return { label: 'refollow', tasks: racing, decider: { kind: decider, pair } };
  }

  /** The followee publishes and, as soon as that answers, a follower unfollows: fan-out is in flight. */
  private publishThenFollowerUnfollows(): Group | undefined {
    const pair = this.pair(
      (p) => this.follows(p) && !this.celebrity(p[1]) && this.postsBy(p[1]) < MAX_POSTS_PER_AUTHOR,
    );
    if (!pair) return undefined;
    const slot = this.newSlot(pair[1], this.rng.chance(0.3));
    this.setEdge(pair, false);
    return {
      label: 'publish → follower unfollows',
      tasks: [
        [
          { kind: 'publish', slot },
          { kind: 'unfollow', pair },
        ],
      ],
    };
  }

  /** Unfollow as soon as the follow answers: its backfill is still queued. */
  private followThenUnfollow(): Group | undefined {
    const pair = this.pair((p) => !this.follows(p) && this.followers(p[1]) + 1 < CELEBRITY_FOLLOWERS) ?? this.pair();
    if (!pair) return undefined;
    this.setEdge(pair, false);
    return {
      label: 'follow → unfollow',
      tasks: [
        [
          { kind: 'follow', pair },
          { kind: 'unfollow', pair },
        ],
      ],
    };
  }

  // --- planned state ---------------------------------------------------------------------------

  /** A pair no other group of this wave touches, mostly a hot one; `fits` narrows the choice. */
  private pair(fits: (p: Pair) => boolean = () => true): Pair | undefined {
    for (let attempt = 0; attempt < 30; attempt++) {
      const pair = this.rng.chance(HOT_SHARE) ? this.rng.pick(this.hot) : this.randomPair();
      if (this.freePair(pair) && fits(pair)) return this.claim(pair);
    }
    return undefined;
  }

  /** No other group of this wave touches the pair, and no block stands between the two or changes. */
  private freePair(pair: Pair): boolean {
    return !this.busy.has(pairKey(pair)) && !this.separated(pair[0], pair[1]);
  }

  private randomPair(): Pair {
    const follower = this.rng.int(0, this.userCount - 1);
    const followee = (follower + this.rng.int(1, this.userCount - 1)) % this.userCount;
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
    else {
      this.edges.delete(pairKey(pair));
      this.leaveGroups(pair);
    }
  }

  // --- groups (分组) ----------------------------------------------------------------------------

  /** An unfollow (or a block) takes the followee out of every group of the follower. */
  private leaveGroups([owner, member]: Pair): void {
    for (let g = 0; g <= (this.groupCounts[owner] ?? 0); g++) this.memberships.delete(memberKey([owner, member], g));
  }

  /** One of the owner's groups: 特别关注 (0) or one of their own. */
  private someGroup(owner: number): number {
    return this.rng.int(0, this.groupCounts[owner]!);
  }

  /**
   * Mostly someone the user follows into one of their groups (200; now and then again: nothing
   * changes): a hot pair (refollowed often, so a member an unfollow left in would show) or any
   * follow. Else a follow of someone new and, once it answers, the add (its backfill still
   * queued: the group shows it once settled) — members that stay, so group timelines have posts
   * to compare; now and then an add of someone not followed (422 not_following).
   */
  private groupAddGroup(): Group | undefined {
    const roll = this.rng.next();
    if (roll < 0.4) {
      const pair = roll < 0.15 ? this.pair((p) => this.follows(p)) : this.anyFollow();
      if (!pair) return undefined;
      const group = this.someGroup(pair[0]);
      this.memberships.add(memberKey(pair, group));
      return { label: 'group add', tasks: [[{ kind: 'groupAdd', user: pair[0], group, member: pair[1] }]] };
    }
    const pair = roll < 0.92 ? this.coldPair((p) => !this.follows(p)) : this.pair((p) => !this.follows(p));
    if (!pair) return undefined;
    const group = this.someGroup(pair[0]);
    const add: Step = { kind: 'groupAdd', user: pair[0], group, member: pair[1] };
    if (roll >= 0.92) return { label: 'group add of someone not followed', tasks: [[add]] };
    this.setEdge(pair, true);
    this.memberships.add(memberKey(pair, group));
    return { label: 'follow → group add', tasks: [[{ kind: 'follow', pair }, add]] };
  }

  /** `user` and someone else (random), no other group of this wave touching the two. */
  private pairOf(user: number, fits: (p: Pair) => boolean): Pair | undefined {
    const open = Array.from({ length: this.userCount }, (_, other): Pair => [user, other]).filter(
      (p) => p[1] !== user && this.freePair(p) && fits(p),
    );
    return open.length > 0 ? this.claim(this.rng.pick(open)) : undefined;
  }

  /** A pair that is none of the hot ones (which races churn) and no other group of this wave touches. */
  private coldPair(fits: (p: Pair) => boolean): Pair | undefined {
    const hot = new Set(this.hot.map(pairKey));
    for (let attempt = 0; attempt < 30; attempt++) {
      const pair = this.randomPair();
      if (!hot.has(pairKey(pair)) && this.freePair(pair) && fits(pair)) return this.claim(pair);
    }
    return undefined;
  }

  /** A follow the plan leaves in place that no other group of this wave touches. */
  private anyFollow(): Pair | undefined {
    const open = [...this.edges]
      .map((k) => k.slice(2).split('>').map(Number) as [number, number])
      .filter((p) => this.freePair(p));
    return open.length > 0 ? this.claim(this.rng.pick(open)) : undefined;
  }

  /** A member taken out of a group (now and then someone not in it: nothing changes). */
  private groupRemoveGroup(): Group | undefined {
    const held = [...this.memberships]
      .map((k) => k.split('>').map(Number) as [number, number, number])
      .filter(([owner, member]) => this.freePair([owner, member]));
    const chosen = this.rng.chance(0.85) && held.length > 0 ? this.rng.pick(held) : undefined;
    const pair = chosen ? this.claim([chosen[0], chosen[1]]) : this.pair();
    if (!pair) return undefined;
    const group = chosen ? chosen[2] : this.someGroup(pair[0]);
    this.memberships.delete(memberKey(pair, group));
    return { label: 'group remove', tasks: [[{ kind: 'groupRemove', user: pair[0], group, member: pair[1] }]] };
  }

  /**
   * An add into a group and an unfollow of the same two at once (either may start first): the
   * add may answer 200 or 422, and the member ends in none of the user's groups. Mostly a follow
   * again alone after the wave, so a member the unfollow failed to take out would show.
   */
  private groupAddRacingUnfollow(): Group | undefined {
    const pair = this.pair((p) => this.follows(p));
    if (!pair) return undefined;
    const tasks: Step[][] = [
      [{ kind: 'groupAdd', user: pair[0], group: this.someGroup(pair[0]), member: pair[1], racing: true }],
      [{ kind: 'unfollow', pair }],
    ];
    if (this.rng.chance(0.5)) tasks.reverse();
    this.setEdge(pair, false);
    if (!this.rng.chance(0.7)) return { label: 'group add racing an unfollow', tasks };
    this.setEdge(pair, true);
    return { label: 'group add racing an unfollow', tasks, decider: { kind: 'follow', pair } };
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
    const open = Array.from({ length: this.userCount }, (_, u) => u).filter(
      (u) => this.postsBy(u) < MAX_POSTS_PER_AUTHOR,
    );
    return open.length > 0 ? this.rng.pick(open) : undefined;
  }

  private newSlot(author: number, keyed: boolean, repost?: Slot['repost'], comment?: string): number {
    const slot = this.slots.length;
    const body = repost ? (comment ?? '') : `seed ${this.seed} post ${slot} by u${author}${this.mentions(author)}`;
    this.slots.push({
      author,
      body,
      ...(keyed ? { key: `s${this.seed}-p${slot}` } : {}),
      ...(repost ? { repost } : {}),
    });
    this.live.add(slot);
    this.busy.add(slotKey(slot)); // not deletable by another group of the wave that publishes it
    return slot;
  }

  /**
   * A live post no other group of this wave touches, nor its original if it is a repost (a
   * delete of a repost moves the original's count and the reposter's plain-repost claim).
   */
  private liveSlot(fits: (slot: number) => boolean): number | undefined {
    const candidates = [...this.live].filter((s) => this.free(s) && fits(s));
    if (candidates.length === 0) return undefined;
    return this.claimSlot(this.rng.pick(candidates));
  }

  /** For reactions: half the time one of the first wave's posts, so some posts gather many. */
  private reactionSlot(fits: (slot: number) => boolean = () => true): number | undefined {
    if (this.rng.chance(HOT_POST_SHARE)) {
      const hot = Array.from({ length: this.userCount }, (_, s) => s).filter(
        (s) => this.live.has(s) && this.free(s) && fits(s),
      );
      if (hot.length > 0) return this.claimSlot(this.rng.pick(hot));
    }
    return this.liveSlot(fits);
  }

  private free(slot: number): boolean {
    return !this.busy.has(slotKey(slot)) && !this.busy.has(slotKey(this.rootOf(slot)));
  }

  private claimSlot(slot: number): number {
    this.busy.add(slotKey(slot));
    this.busy.add(slotKey(this.rootOf(slot)));
    return slot;
  }

  private rootOf(slot: number): number {
    return this.slots[slot]!.repost?.root ?? slot;
  }

  private markDeleted(slot: number): void {
    this.live.delete(slot);
    this.deleted.add(slot);
    const { key, repost, author } = this.slots[slot]!;
    if (key !== undefined && !repost) this.deletedWithKey.add(slot);
    // Once deleted, the next plain repost of that original is a new one.
    if (repost && this.plainReposts.get(likeKey(author, repost.root)) === slot)
      this.plainReposts.delete(likeKey(author, repost.root));
  }

  // --- reactions: likes ------------------------------------------------------------------------

  /** One to three users like one post at once (some may like it already: nothing changes for them). */
  private likes1to3(): Group | undefined {
    const slot = this.reactionSlot();
    if (slot === undefined) return undefined;
    const users = this.users(
      'like',
      this.rng.int(1, 3),
      (u) => this.canReact(u, slot) && (!this.likes.has(likeKey(u, slot)) || this.rng.chance(0.2)),
    );
    if (users.length === 0) return undefined;
    for (const u of users) this.likes.add(likeKey(u, slot));
    return {
      label: users.length > 1 ? 'likes at once' : 'like',
      tasks: users.map((user) => [{ kind: 'like', user, slot }]),
    };
  }

  /** The same user likes one post twice at once: the count moves once. */
  private doubleLike(): Group | undefined {
    const slot = this.reactionSlot();
    if (slot === undefined) return undefined;
    const [user] = this.users('like', 1, (u) => this.canReact(u, slot) && !this.likes.has(likeKey(u, slot)), 2);
    if (user === undefined) return undefined;
    this.likes.add(likeKey(user, slot));
    const step: Step = { kind: 'like', user, slot };
    return { label: 'double like', tasks: [[step], [step]] };
  }

  /** A liker takes the like back (once, or twice at once); now and then one who never liked it. */
  private unlikeGroup(twice: boolean): Group | undefined {
    const slot = this.reactionSlot((s) => this.likersOf(s).length > 0);
    if (slot === undefined) return undefined;
    const likers = this.likersOf(slot);
    const [user] = this.rng.chance(0.15)
      ? this.users('like', 1, (u) => !likers.includes(u), twice ? 2 : 1)
      : this.users('like', 1, (u) => likers.includes(u), twice ? 2 : 1);
    if (user === undefined) return undefined;
    this.likes.delete(likeKey(user, slot));
    const step: Step = { kind: 'unlike', user, slot };
    return { label: twice ? 'double unlike' : 'unlike', tasks: twice ? [[step], [step]] : [[step]] };
  }

  /** Like and unlike by one user at once (either may land last), then a decider alone. */
  private relike(): Group | undefined {
    const slot = this.reactionSlot();
    if (slot === undefined) return undefined;
    const [user] = this.users('like', 1, (u) => this.canReact(u, slot), 3);
    if (user === undefined) return undefined;
    const racing: Step[][] = [[{ kind: 'unlike', user, slot }], [{ kind: 'like', user, slot }]];
    if (this.rng.chance(0.5)) racing.reverse();
    const decider = this.rng.chance(0.6) ? 'like' : 'unlike';
    if (decider === 'like') this.likes.add(likeKey(user, slot));
    else this.likes.delete(likeKey(user, slot));
    return { label: 'relike', tasks: racing, decider: { kind: decider, user, slot } };
  }

  private likeThenUnlike(): Group | undefined {
    const slot = this.reactionSlot();
    if (slot === undefined) return undefined;
    const [user] = this.users('like', 1, (u) => this.canReact(u, slot) && !this.likes.has(likeKey(u, slot)), 2);
    if (user === undefined) return undefined;
    return {
      label: 'like → unlike',
      tasks: [
        [
          { kind: 'like', user, slot },
          { kind: 'unlike', user, slot },
        ],
      ],
    };
  }

  private likersOf(slot: number): number[] {
    return Array.from({ length: this.userCount }, (_, u) => u).filter((u) => this.likes.has(likeKey(u, slot)));
  }

  // --- bookmarks (收藏) ---------------------------------------------------------------------------

  /** One or two users bookmark one post at once; now and then one user twice at once. Counted with likes. */
  private bookmarkGroup(): Group | undefined {
    const slot = this.reactionSlot();
    if (slot === undefined) return undefined;
    const twice = this.rng.chance(0.3);
    const users = this.users('like', twice ? 1 : this.rng.int(1, 2), () => true, twice ? 2 : 1);
    if (users.length === 0) return undefined;
    for (const u of users) this.bookmarks.add(likeKey(u, slot));
    const tasks = users.map((user): Step[] => [{ kind: 'bookmark', user, slot }]);
    return { label: twice ? 'double bookmark' : 'bookmark', tasks: twice ? [tasks[0]!, tasks[0]!] : tasks };
  }

  /** A bookmarker takes it out (once, or twice at once); now and then one who never bookmarked it. */
  private unbookmarkGroup(): Group | undefined {
    const slot = this.reactionSlot((s) => this.bookmarkersOf(s).length > 0);
    if (slot === undefined) return undefined;
    const keepers = this.bookmarkersOf(slot);
    const twice = this.rng.chance(0.3);
    const [user] = this.users(
      'like',
      1,
      (u) => (this.rng.chance(0.15) ? !keepers.includes(u) : keepers.includes(u)),
      twice ? 2 : 1,
    );
    if (user === undefined) return undefined;
    this.bookmarks.delete(likeKey(user, slot));
    const step: Step = { kind: 'unbookmark', user, slot };
    return { label: twice ? 'double unbookmark' : 'unbookmark', tasks: twice ? [[step], [step]] : [[step]] };
  }

  /** A bookmark and its removal by one user at once (either may land last), then a decider alone. */
  private rebookmark(): Group | undefined {
    const slot = this.reactionSlot();
    if (slot === undefined) return undefined;
    const [user] = this.users('like', 1, () => true, 3);
    if (user === undefined) return undefined;
    const racing: Step[][] = [[{ kind: 'unbookmark', user, slot }], [{ kind: 'bookmark', user, slot }]];
    if (this.rng.chance(0.5)) racing.reverse();
    const decider = this.rng.chance(0.6) ? 'bookmark' : 'unbookmark';
    if (decider === 'bookmark') this.bookmarks.add(likeKey(user, slot));
    else this.bookmarks.delete(likeKey(user, slot));
    return { label: 'rebookmark', tasks: racing, decider: { kind: decider, user, slot } };
  }

  private bookmarkersOf(slot: number): number[] {
    return Array.from({ length: this.userCount }, (_, u) => u).filter((u) => this.bookmarks.has(likeKey(u, slot)));
  }

  // --- reactions: comments ---------------------------------------------------------------------

  /** One to three comments on one post at once, some in reply to a comment already there. */
  private comments1to3(): Group | undefined {
    const slot = this.reactionSlot();
    if (slot === undefined) return undefined;
    const users = this.users('comment', this.rng.int(1, 3), (u) => this.canReact(u, slot));
    if (users.length === 0) return undefined;
    const earlier = this.commentsOn(slot);
    const tasks = users.map((u): Step[] => {
      const replyTo = earlier.length > 0 && this.rng.chance(0.4) ? this.rng.pick(earlier) : undefined;
      return [{ kind: 'comment', comment: this.newComment(slot, u, replyTo) }];
    });
    return { label: users.length > 1 ? 'comments at once' : 'comment', tasks };
  }

  /** Comment, and delete it as soon as that answers: by its author or by the post's author. */
  private commentThenDelete(): Group | undefined {
    const slot = this.reactionSlot();
    if (slot === undefined) return undefined;
    const [user] = this.users('comment', 1, (u) => this.canReact(u, slot));
    if (user === undefined) return undefined;
    const comment = this.newComment(slot, user);
    this.liveComments.delete(comment);
    const deleter = this.rng.chance(0.5) ? user : this.slots[slot]!.author;
    return {
      label: 'comment → delete it',
      tasks: [
        [
          { kind: 'comment', comment },
          { kind: 'deleteComment', user: deleter, comment },
        ],
      ],
    };
  }

  /** A live comment deleted by its author or the post's author; or by both at once (one wins). */
  private deleteCommentGroup(twice: boolean): Group | undefined {
    const slot = this.reactionSlot((s) => this.commentsOn(s).length > 0);
    if (slot === undefined) return undefined;
    const comment = this.rng.pick(this.commentsOn(slot));
    this.liveComments.delete(comment);
    const [byAuthor, byPostAuthor]: Step[] = [
      { kind: 'deleteComment', user: this.comments[comment]!.author, comment },
      { kind: 'deleteComment', user: this.slots[slot]!.author, comment },
    ];
    if (twice)
      return {
        label: 'double delete comment',
        tasks: this.rng.chance(0.5) ? [[byAuthor!], [byPostAuthor!]] : [[byAuthor!], [byAuthor!]],
      };
    return { label: 'delete comment', tasks: [[this.rng.chance(0.6) ? byAuthor! : byPostAuthor!]] };
  }

  /** Neither the comment's author nor the post's: 403, and the comment stays. */
  private strangerDeletesComment(): Group | undefined {
    const slot = this.reactionSlot((s) => this.commentsOn(s).length > 0);
    if (slot === undefined) return undefined;
    const comment = this.rng.pick(this.commentsOn(slot));
    const allowed = [this.comments[comment]!.author, this.slots[slot]!.author];
    const strangers = Array.from({ length: this.userCount }, (_, u) => u).filter((u) => !allowed.includes(u));
    return {
      label: 'stranger deletes comment',
      tasks: [[{ kind: 'deleteComment', user: this.rng.pick(strangers), comment }]],
    };
  }

  /** A reply to a deleted comment: 404 comment_not_found, nothing is written. */
  private replyToDeletedComment(): Group | undefined {
    const gone = (s: number) => this.comments.some((c, i) => c.post === s && !this.liveComments.has(i));
    const slot = this.reactionSlot(gone);
    if (slot === undefined) return undefined;
    const [user] = this.users('comment', 1, (u) => this.canReact(u, slot));
    if (user === undefined) return undefined;
    const deleted = this.comments.flatMap((c, i) => (c.post === slot && !this.liveComments.has(i) ? [i] : []));
    const comment = this.newComment(slot, user, this.rng.pick(deleted));
    this.liveComments.delete(comment);
    return { label: 'reply to a deleted comment', tasks: [[{ kind: 'comment', comment }]] };
  }

  private newComment(post: number, author: number, replyTo?: number): number {
    const index = this.comments.length;
    this.comments.push({
      post,
      author,
      body: `seed ${this.seed} comment ${index} by u${author}`,
      ...(replyTo === undefined ? {} : { replyTo }),
    });
    this.liveComments.add(index);
    return index;
  }

  private commentsOn(slot: number): number[] {
    return [...this.liveComments].filter((c) => this.comments[c]!.post === slot);
  }

  // --- reactions: reposts and deleted originals ------------------------------------------------

  /**
   * A repost: plain (new, or the user's existing plain repost of that original again; twice at
   * once: one 201, one 200, one post) or with a comment (always new; mostly with a key). Of a
   * repost: its root original is reposted, and if that is deleted the answer is 404.
   */
  private repostGroup(opts: { plain: boolean; twice?: boolean; ofRepost?: boolean }): Group | undefined {
    const target = opts.ofRepost ? this.liveSlot((s) => this.slots[s]!.repost !== undefined) : this.reactionSlot();
    if (target === undefined) return undefined;
    const root = this.rootOf(target);
    const [user] = this.users(
      'repost',
      1,
      (u) => this.canReact(u, target) && this.postsBy(u) < MAX_POSTS_PER_AUTHOR,
      opts.twice ? 2 : 1,
    );
    if (user === undefined) return undefined;
    const label = `${opts.twice ? 'double ' : ''}${opts.plain ? 'plain repost' : 'repost with comment'}${opts.ofRepost ? ' of a repost' : ''}`;
    let step: Step;
    if (!this.live.has(root)) {
      step = {
        kind: 'repost',
        user,
        target,
        ...(opts.plain ? {} : { comment: `seed ${this.seed} repost of #${target} by u${user}` }),
      };
    } else if (opts.plain) {
      const claim = likeKey(user, root);
      let slot = this.plainReposts.get(claim);
      if (slot === undefined) {
        slot = this.newSlot(user, false, { target, root, plain: true });
        this.plainReposts.set(claim, slot);
      }
      step = { kind: 'repost', user, target, slot };
    } else {
      const keyed = this.rng.chance(0.7);
      const slot = this.newSlot(
        user,
        keyed,
        { target, root, plain: false },
        `seed ${this.seed} repost ${this.slots.length} by u${user}`,
      );
      const { body, key } = this.slots[slot]!;
      step = { kind: 'repost', user, target, slot, comment: body, ...(key ? { key } : {}) };
    }
    return { label, tasks: opts.twice ? [[step], [step]] : [[step]] };
  }

  /** Delete a post others reacted to: mostly an original with live reposts (they show it deleted). */
  private deleteOriginal(): Group | undefined {
    const reposted = (s: number) => [...this.live].some((r) => r !== s && this.slots[r]!.repost?.root === s);
    const reacted = (s: number) => this.likersOf(s).length > 0 || this.commentsOn(s).length > 0;
    const slot = this.liveSlot(reposted) ?? this.liveSlot(reacted);
    if (slot === undefined) return undefined;
    this.markDeleted(slot);
    return { label: 'delete original', tasks: [[{ kind: 'delete', slot }]] };
  }

  /** Like, comment on or repost a deleted post: 404 post_not_found, nothing changes. */
  private reactToDeleted(): Group | undefined {
    const candidates = [...this.deleted].filter((s) => this.free(s));
    if (candidates.length === 0) return undefined;
    const slot = this.claimSlot(this.rng.pick(candidates));
    const roll = this.rng.int(0, 2);
    const action: Quota = roll === 0 ? 'like' : roll === 1 ? 'comment' : 'repost';
    const [user] = this.users(action, 1, (u) => this.canReact(u, slot));
    if (user === undefined) return undefined;
    let step: Step;
    if (action === 'like') step = { kind: 'like', user, slot };
    else if (action === 'comment') {
      const comment = this.newComment(slot, user);
      this.liveComments.delete(comment);
      step = { kind: 'comment', comment };
    } else step = { kind: 'repost', user, target: slot };
    return { label: `${action} a deleted post`, tasks: [[step]] };
  }

  // --- blocks and mutes ------------------------------------------------------------------------

  /** Whether a block stands between two users (either way), or one of this wave changes it. */
  private separated(a: number, b: number): boolean {
    return (
      a !== b && (this.blocks.has(`${a}>${b}`) || this.blocks.has(`${b}>${a}`) || this.blockBusy.has(usersKey(a, b)))
    );
  }

  /** May `user` like, comment on or repost `slot`: no block with its author, nor with its original's. */
  private canReact(user: number, slot: number): boolean {
    return (
      !this.separated(user, this.slots[slot]!.author) && !this.separated(user, this.slots[this.rootOf(slot)]!.author)
    );
  }

  /** The user pairs a group acts across: a block of the same wave must not touch them. */
  private acrossOf(group: Group): string[] {
    const out: string[] = [];
    const across = (a: number, b: number) => {
      if (a !== b) out.push(usersKey(a, b));
    };
    const withSlot = (user: number, slot: number) => {
      across(user, this.slots[slot]!.author);
      across(user, this.slots[this.rootOf(slot)]!.author);
    };
    for (const step of [...group.tasks.flat(), ...(group.decider ? [group.decider] : [])]) {
      switch (step.kind) {
        case 'follow':
        case 'unfollow':
        case 'block':
        case 'unblock':
        case 'mute':
        case 'unmute':
        case 'followRacingBlock':
          across(step.pair[0], step.pair[1]);
          break;
        case 'like':
        case 'unlike':
          withSlot(step.user, step.slot);
          break;
        case 'comment': {
          const c = this.comments[step.comment]!;
          withSlot(c.author, c.post);
          break;
        }
        case 'repost':
          withSlot(step.user, step.target);
          break;
        case 'refused':
          across(step.user, step.other);
          break;
        case 'groupAdd':
        case 'groupRemove':
          across(step.user, step.member);
          break;
        default:
          break;
      }
    }
    return out;
  }

  /** Two users no group of this wave acts across and no block of it changes, in random order. */
  private quietUsers(fits: (a: number, b: number) => boolean): Pair | undefined {
    for (let attempt = 0; attempt < 30; attempt++) {
      const a = this.rng.int(0, this.userCount - 1);
      const b = (a + this.rng.int(1, this.userCount - 1)) % this.userCount;
      const key = usersKey(a, b);
      if (!this.pairsUsed.has(key) && !this.blockBusy.has(key) && fits(a, b)) return [a, b];
    }
    return undefined;
  }

  /**
   * a blocks b (mostly someone not blocked yet; now and then again: idempotent). Racing: at the
   * same moment one of them follows the other — whichever lands first, no edge survives.
   */
  private blockGroup(racing: boolean): Group | undefined {
    // Mostly across a follow, so the block has edges to remove (random pairs rarely have one).
    const followed = (a: number, b: number) => this.follows([a, b]) || this.follows([b, a]);
    const fresh = (a: number, b: number) => !this.blocks.has(`${a}>${b}`) || this.rng.chance(0.15);
    const pair =
      (this.rng.chance(0.6) ? this.quietUsers((a, b) => followed(a, b) && fresh(a, b)) : undefined) ??
      this.quietUsers(fresh);
    if (!pair) return undefined;
    const [a, b] = pair;
    this.blockBusy.add(usersKey(a, b));
    this.blocks.add(`${a}>${b}`);
    this.setEdge([a, b], false);
    this.setEdge([b, a], false);
    const block: Step = { kind: 'block', pair };
    if (!racing) return { label: 'block', tasks: [[block]] };
    const follow: Step = { kind: 'followRacingBlock', pair: this.rng.chance(0.5) ? [b, a] : [a, b] };
    return { label: 'block racing a follow', tasks: this.rng.chance(0.5) ? [[block], [follow]] : [[follow], [block]] };
  }

  private unblockGroup(): Group | undefined {
    const pair = this.quietUsers((a, b) => this.blocks.has(`${a}>${b}`));
    if (!pair) return undefined;
    this.blockBusy.add(usersKey(pair[0], pair[1]));
    this.blocks.delete(`${pair[0]}>${pair[1]}`);
    const step: Step = { kind: 'unblock', pair };
    return {
      label: this.rng.chance(0.2) ? 'double unblock' : 'unblock',
      tasks: this.rng.chance(0.2) ? [[step], [step]] : [[step]],
    };
  }

  /** Across a block: a follow, or a like, comment or plain repost of the other's live post — 403 blocked. */
  private refusedGroup(): Group | undefined {
    const pair = this.quietUsers((a, b) => this.blocks.has(`${a}>${b}`) || this.blocks.has(`${b}>${a}`));
    if (!pair) return undefined;
    const [user, other] = this.rng.chance(0.5) ? pair : ([pair[1], pair[0]] as const);
    const action = this.rng.pick(['follow', 'like', 'comment', 'repost'] as const);
    if (action === 'follow')
      return { label: 'follow across a block', tasks: [[{ kind: 'refused', action, user, other }]] };
    const slot = this.liveSlot((s) => this.slots[s]!.author === other);
    // A refused write still counts against the quota (abuse that fails is still abuse).
    if (slot === undefined || this.users(action, 1, (u) => u === user).length === 0)
      return { label: 'follow across a block', tasks: [[{ kind: 'refused', action: 'follow', user, other }]] };
    return { label: `${action} across a block`, tasks: [[{ kind: 'refused', action, user, other, slot }]] };
  }

  /** a mutes b (mostly someone not muted yet); now and then twice at once. Nothing is refused to anyone. */
  private muteGroup(): Group | undefined {
    const a = this.rng.int(0, this.userCount - 1);
    const b = (a + this.rng.int(1, this.userCount - 1)) % this.userCount;
    this.mutes.add(`${a}>${b}`);
    const step: Step = { kind: 'mute', pair: [a, b] };
    return { label: 'mute', tasks: this.rng.chance(0.2) ? [[step], [step]] : [[step]] };
  }

  private unmuteGroup(): Group | undefined {
    const muted = [...this.mutes];
    if (muted.length === 0) return undefined;
    const key = this.rng.pick(muted);
    this.mutes.delete(key);
    const [a, b] = key.split('>').map(Number) as [number, number];
    return { label: 'unmute', tasks: [[{ kind: 'unmute', pair: [a, b] }]] };
  }

  /** ` @m<seed>_u<x>` for one or two other users now and then, rarely the author or someone unregistered. */
  private mentions(author: number): string {
    if (!this.rng.chance(MENTION_SHARE)) return '';
    const named = Array.from({ length: this.rng.int(1, 2) }, () => {
      const roll = this.rng.next();
      if (roll < 0.1) return this.userCount + 3; // nobody has this handle: plain text
      if (roll < 0.2) return author; // yourself: linked, but notifies nobody
      return (author + this.rng.int(1, this.userCount - 1)) % this.userCount;
    });
    return named.map((u) => ` @${handleOf(this.seed, u)}`).join('');
  }

  // --- per-user write quotas -------------------------------------------------------------------

  /**
   * Up to `count` distinct users (random order) who fit and still have `times` writes of
   * `action` left in this seed's budget; the writes are taken.
   */
  private users(action: Quota, count: number, fits: (u: number) => boolean, times = 1): number[] {
    const open = Array.from({ length: this.userCount }, (_, u) => u).filter(
      (u) => (this.writes.get(`${action}:${u}`) ?? 0) + times <= WRITES_PER_USER[action] && fits(u),
    );
    const chosen: number[] = [];
    while (chosen.length < count && open.length > 0) chosen.push(open.splice(this.rng.int(0, open.length - 1), 1)[0]!);
    for (const u of chosen) this.writes.set(`${action}:${u}`, (this.writes.get(`${action}:${u}`) ?? 0) + times);
    return chosen;
  }
}
