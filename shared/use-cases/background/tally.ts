// shared/use-cases/background/tally.ts — a count change its request was cut before is applied by
// the operation's own delayed message, once (invariant M in docs/consistency.md).
//
// A like, comment, repost or follow writes its truth, then moves its counts; a request cut in
// between (a Lambda timeout, an out-of-memory, a crashed container) left a count wrong until the
// 6-hourly repair. Now every count change names its FACT and sets that fact's mark in the same
// atomic row mutation (CountTally), and every such operation queues a delayed message BEFORE its
// first write (the delayed notify of likes, comments and reposts; the settle of follows). That
// message, a settle window later, judges the fact by its truth and its marks:
//
//   created = the truth holds, or a mark of the fact is set, or this operation took the fact back
//             (a removal read the fact from its truth: it existed)
//   +1 owed = created, and no + mark                     (applied by any delivery)
//   −1 owed = created, the truth no longer holds, no − mark (applied by a removal's delivery only)
//
// Why it is exact, whatever interleaves:
// - A mark is there exactly when its change was applied (one atomic Increment), so a change is
//   owed only when it truly is missing.
// - A delivery runs a settle window W after its operation began, so that operation is over (W is
//   longer than any function's timeout). The + change's request (the creating one) always began
//   before any delivery of the fact. The − change's request can still be running during the
//   CREATING operation's delivery (an unlike right behind the like): so only a removal's delivery
//   applies a −, and that one runs after the winning removal has ended (W ≥ 2 × the API timeout:
//   a losing removal's read preceded the winner's write).
// - Deliveries of one fact race each other (at-least-once, the creating and the removing one):
//   an owed change is applied only under a claim (put-if-absent; a claim older than W is taken
//   over, its holder timed out), and re-judged under it.
// - Marks expire (TALLY_TTL_SECONDS); a fact older than the horizon counts as added (its own
//   delivery ran long ago), and a delivery older than the horizon does nothing.
import type { CountTally, UserCounter } from '../../ports/feed-store.js';
import type { NotificationFact } from '../../domain/notification.js';
import type { FeedDeps } from '../feed-deps.js';
import { atStep } from '../steps.js';
import { TALLY_HORIZON_SECONDS } from '../../domain/limits.js';

/** Settling a fact's counts: the posts' and users' counters it moves, and the truth it is read against. */
export type FactTallyDeps = Pick<FeedDeps, 'posts' | 'counters' | 'reactions' | 'comments' | 'limits' | 'step'>;

/** One count a fact moves: whose (`id`), which counter, and the fact's name in its tally. */
interface TalliedCount {
  tally: CountTally<string>;
  id: string;
  counter: string;
  fact: string;
  /** The change with its mark (PostStore.count / CounterStore.add). */
  apply(delta: 1 | -1): Promise<void>;
}

const postCount = (
  deps: Pick<FeedDeps, 'posts'>,
  id: string,
  counter: 'likes' | 'comments' | 'reposts',
  fact: string,
): TalliedCount => ({
  tally: deps.posts,
  id,
  counter,
  fact,
  apply: (delta) => deps.posts.count(id, counter, delta, fact),
});

const userCount = (deps: Pick<FeedDeps, 'counters'>, id: string, counter: UserCounter, fact: string): TalliedCount => ({
  tally: deps.counters,
  id,
  counter,
  fact,
  apply: (delta) => deps.counters.add(id, counter, delta, fact),
});

/** What a delayed message knows of its operation. */
export interface TallyHeal {
  /** When the operation that queued the message began. */
  at: number;
  /** It took the fact back (unlike, comment, post or repost deleted, unfollow). */
  removal: boolean;
}

/** The fact's truth now: it holds, and whether it ever existed as far as the truth can tell. */
interface Truth {
  holds: boolean;
  created: boolean;
}

export interface TallyOutcome {
  /** Count changes applied that their request had been cut before. */
  applied: number;
  skipped?: 'too-old' | 'gone';
}

/** The fact a like names in the post's `likes` tally. */
export const likeFact = (actor: string, since: number) => `${actor}.${since}`;
/** A follow's fact in the follower's `following` tally and in the followee's `followers` tally. */
export const followFacts = (follower: string, followee: string, since: number) => ({
  following: `${followee}.${since}`,
  followers: `${follower}.${since}`,
});

const horizonMs = TALLY_HORIZON_SECONDS * 1000;

/** The like, comment or repost of a delayed notify: its post-side count. Follows settle elsewhere (settleFollowTally). */
export async function settleFactTally(
  deps: FactTallyDeps,
  fact: NotificationFact,
  heal: TallyHeal,
  now = Date.now(),
): Promise<TallyOutcome> {
  if (now - heal.at > horizonMs) return { applied: 0, skipped: 'too-old' };
  switch (fact.kind) {
    case 'like': {
      const [post, since] = await Promise.all([
        deps.posts.lookup(fact.postId),
        deps.reactions.likeSince(fact.actor, fact.postId),
      ]);
      // A deleted post's counts went with its body: nothing to count into.
      if (post.state !== 'live') return { applied: 0, skipped: 'gone' };
      const holds = since === fact.since;
      return settleCounts(
        deps,
        [postCount(deps, fact.postId, 'likes', likeFact(fact.actor, fact.since))],
        { holds, created: holds },
        fact.since,
        heal,
        now,
      );
    }
    case 'comment': {
      const [post, comment] = await Promise.all([
        deps.posts.lookup(fact.postId),
        deps.comments.lookup(fact.postId, fact.commentId),
      ]);
      if (post.state !== 'live') return { applied: 0, skipped: 'gone' };
      // The comment row is the truth, and its tombstone stays: it tells a deleted comment from one never written.
      const truth = { holds: comment.state === 'live', created: comment.state !== 'absent' };
      return settleCounts(
        deps,
        [postCount(deps, fact.postId, 'comments', fact.commentId)],
        truth,
        fact.since,
        heal,
        now,
      );
    }
    case 'repost': {
      const [original, repost] = await Promise.all([deps.posts.lookup(fact.original), deps.posts.lookup(fact.postId)]);
      const truth = {
        holds: repost.state === 'live' && repost.post.repostOf === fact.original,
        created: repost.state !== 'absent',
      };
      // A repost is a post of its reposter's too. A deleted original's counts went with its body:
      // only the reposter's count is left to settle then.
      const posts = userCount(deps, fact.actor, 'posts', fact.postId);
      if (original.state !== 'live') return settleCounts(deps, [posts], truth, fact.since, heal, now);
      // The reposter's `reposted` state is derived from the repost too: put back in line (idempotent
      // puts; a delete landing after this read runs its own delivery, a removal, after it).
      const [outcome] = await Promise.all([
        settleCounts(
          deps,
          [postCount(deps, fact.original, 'reposts', fact.postId), posts],
          truth,
          fact.since,
          heal,
          now,
        ),
        truth.holds
          ? deps.reactions.addRepost(fact.actor, fact.original, fact.postId, fact.since)
          : heal.removal
            ? deps.reactions.removeRepost(fact.actor, fact.original, fact.postId)
            : undefined,
      ]);
      return outcome;
    }
    case 'post': {
      // Its author's posts count: the post row is the truth, and its tombstone stays.
      const post = await deps.posts.lookup(fact.postId);
      const truth = { holds: post.state === 'live', created: post.state !== 'absent' };
      return settleCounts(deps, [userCount(deps, fact.actor, 'posts', fact.postId)], truth, fact.since, heal, now);
    }
    case 'follow':
    case 'edit':
    case 'special':
    // A comment's like count moves with its likers in one atomic row change: nothing to settle.
    case 'commentLike':
      return { applied: 0 };
  }
}

/** A follow's two counts, from its settle message; `edgeSince` is the edge the settle read. */
export function settleFollowTally(
  deps: Pick<FeedDeps, 'counters' | 'limits' | 'step'>,
  follower: string,
  followee: string,
  since: number,
  edgeSince: number | null,
  heal: TallyHeal,
  now = Date.now(),
): Promise<TallyOutcome> {
  if (now - heal.at > horizonMs) return Promise.resolve({ applied: 0, skipped: 'too-old' });
  const facts = followFacts(follower, followee, since);
  const holds = edgeSince === since;
  return settleCounts(
    deps,
    [userCount(deps, follower, 'following', facts.following), userCount(deps, followee, 'followers', facts.followers)],
    { holds, created: holds },
    since,
    heal,
    now,
  );
}

/** Judges every count of one fact (see the header) and applies what is owed. */
async function settleCounts(
  deps: Pick<FeedDeps, 'limits' | 'step'>,
  counts: TalliedCount[],
  truth: Truth,
  factSince: number,
  heal: TallyHeal,
  now: number,
): Promise<TallyOutcome> {
  const marks = await Promise.all(counts.map((c) => c.tally.tallied(c.id, c.counter, c.fact)));
  // Any mark of the fact, on any of its counts, shows it existed; so does a removal's read.
  const created = truth.created || heal.removal || marks.some((m) => m.added || m.removed);
  if (!created) return { applied: 0 };
  // A fact older than the horizon had its + judged long ago, and its mark may have expired.
  const fresh = now - factSince < horizonMs;
  const owed = counts.flatMap((c, i) => [
    ...(fresh && !marks[i]!.added ? [{ count: c, sign: 1 as const }] : []),
    ...(heal.removal && !truth.holds && !marks[i]!.removed ? [{ count: c, sign: -1 as const }] : []),
  ]);
  if (owed.length === 0) return { applied: 0 };
  await atStep(deps, 'tally.judged', { counter: counts[0]!.counter });
  const applied = await Promise.all(owed.map(({ count, sign }) => applyOnce(deps, count, sign, now)));
  return { applied: applied.filter(Boolean).length };
}

/** Under a claim, and only if still missing: the change and its mark, in one Increment. */
async function applyOnce(
  deps: Pick<FeedDeps, 'limits' | 'step'>,
  c: TalliedCount,
  sign: 1 | -1,
  now: number,
): Promise<boolean> {
  const staleBefore = now - deps.limits.settleSeconds * 1000;
  if (!(await c.tally.claim(c.id, c.counter, c.fact, sign, now, staleBefore))) return false;
  await atStep(deps, 'tally.claimed', { counter: c.counter });
  // A holder that timed out may have applied it before it stopped.
  const marks = await c.tally.tallied(c.id, c.counter, c.fact);
  if (sign > 0 ? marks.added : marks.removed) return false;
  await c.apply(sign);
  return true;
}
