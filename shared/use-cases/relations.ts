// shared/use-cases/relations.ts — follow, unfollow, and the following / followers lists.
import { InvalidInputError } from '../domain/errors.js';
import type { Edge, Page } from '../ports/feed-store.js';
import type { FeedDeps } from './feed-deps.js';
import { readFaces, withFaces, type Face } from './faces.js';
import { decodeListCursor, shownPage } from './lists.js';
import { blockedError, refuseIfBlocked } from './block-guard.js';
import { notifyLater, notifyNow } from './notifications.js';
import { leaveGroupsOf } from './groups.js';
import { atStep } from './steps.js';
import { requireUser } from './users.js';
import type { NotificationFact } from '../domain/notification.js';
import { followFacts } from './background/tally.js';

export type UnfollowDeps = Pick<
  FeedDeps,
  'users' | 'relations' | 'inbox' | 'counters' | 'celebrities' | 'groups' | 'queue' | 'limits' | 'step'
>;
/** A follow undoes itself with an unfollow when a block raced it: what that takes, and the blocks. */
export type FollowDeps = UnfollowDeps & Pick<FeedDeps, 'blocks'>;

function notSelf(actor: string, target: string, verb: 'follow' | 'unfollow'): void {
  if (actor === target) throw new InvalidInputError(`You cannot ${verb} yourself`, `cannot_${verb}_self`);
}

/**
 * The settle message, sent before the first write of every follow and unfollow (so it exists
 * even if the request dies half-way): after the settle window it makes the reader's view of the
 * target agree with the edge as it then stands (background/settle.ts; docs/consistency.md).
 */
function queueSettle(
  deps: Pick<FeedDeps, 'queue' | 'limits'>,
  reader: string,
  followee: string,
  at: number,
  tally?: { since: number; removal: boolean },
): Promise<void> {
  return deps.queue.send(
    { v: 1, type: 'settle', reader, followee, at, ...(tally ? { tally } : {}) },
    { delaySeconds: deps.limits.settleSeconds },
  );
}

/**
 * Idempotent. Steps: no self-follow (422) → the target must exist (404), no block either way
 * (403) → the following count is bounded (422) → queue the delayed settle and the delayed
 * follower notification → write the edge (put-if-absent: a repeat or a racing duplicate changes
 * nothing) → only a new edge moves the counts → the block check again (a block that raced us
 * removes our edge: 403) → the follower notification. Then the timeline side,
 * for immediate effect: a target at or above the celebrity threshold is marked for the
 * read-time merge (and promoted if it just crossed); anyone else's recent posts are backfilled
 * through the queue. Whatever races these steps, the settle repairs the view.
 */
export async function follow(deps: FollowDeps, actor: string, target: string, now = Date.now()) {
  notSelf(actor, target, 'follow');
  // Independent reads, one round trip: the target exists, how many the actor follows, no block.
  const [, following] = await Promise.all([
    requireUser(deps.users, target),
    deps.counters.get(actor, 'following'),
    refuseIfBlocked(deps, actor, target),
  ]);
  if (following >= deps.limits.maxFollowing) {
    if (!(await deps.relations.isFollowing(actor, target))) {
      throw new InvalidInputError(
        `You already follow ${deps.limits.maxFollowing} users, the maximum`,
        'following_limit',
      );
    }
  }
  await atStep(deps, 'follow.checked', { follower: actor, followee: target });
  const fact = { kind: 'follow', actor, target, since: now } as const;
  // The settle also tallies the counts below (invariant M): a cut before them is made good.
  await Promise.all([
    queueSettle(deps, actor, target, now, { since: now, removal: false }),
    notifyLater(deps, fact, { at: now, removal: false }),
  ]);
  if (await deps.relations.follow(actor, target, now)) {
    await atStep(deps, 'follow.edge-written', { follower: actor, followee: target });
    // The counts (the winner's alone, C) beside the block check again, now that the edge exists:
    // a block that landed after the first check is seen here, or its own edge removal ran after
    // our edge was written (invariant G, blocks.ts). Increments commute with the unfollow's
    // decrements, which only start once both are done.
    const facts = followFacts(actor, target, now);
    const [, , blocked] = await Promise.all([
      deps.counters.add(actor, 'following', 1, facts.following),
      deps.counters.add(target, 'followers', 1, facts.followers),
      deps.blocks.eitherBlocks(actor, target),
    ]);
    if (blocked) {
      await unfollow(deps, actor, target, now);
      throw blockedError();
    }
    const [followers, celebrity] = await Promise.all([
      deps.counters.get(target, 'followers'),
      deps.celebrities.isCelebrity(target),
      notifyNow(deps, fact),
    ]);
    if (celebrity || followers >= deps.limits.celebrityFollowers) {
      // Marked even before the promotion finishes: a follower the promotion's walk already
      // passed must not miss the celebrity's posts once fan-out stops for them.
      await deps.inbox.addCelebrity([actor], target);
      if (!celebrity) await deps.queue.send({ v: 1, type: 'promote', author: target });
    } else {
      await deps.queue.send({ v: 1, type: 'backfill', reader: actor, followee: target });
    }
  }
  return { follower: actor, followee: target, following: true };
}

/** Below this share of the threshold a celebrity is demoted (hysteresis: no flapping at the line). */
const DEMOTE_BELOW = 0.9;

/**
 * Idempotent. Steps: no self-unfollow (422) → the target must exist (404), the edge read (in
 * parallel) → queue the delayed settle, and the delayed retraction of the follower notification
 * for that edge → remove the edge read, if there was one (only the request that removed it moves
 * the counts and queues the immediate retraction), and beside it drop the celebrity marker and
 * purge the target's posts from the actor's inbox (the actor's row only), also when the edge was
 * already gone → demote a celebrity that fell clearly below the threshold. Fan-out or backfill
 * that read the edge before it went may still write the target's posts after the purge; the
 * settle, after the settle window, purges again.
 *
 * An unfollow that read no edge removes none: a follow that lands after that read is ordered
 * after this unfollow, and stands. (Removing it would move the counts for an edge whose since
 * this request never read, so without its fact's mark — and another unfollow that did read it,
 * and lost the removal to us, would have its removal's delivery take the count off a second
 * time: invariant M. Found by the model check.)
 */
export async function unfollow(deps: UnfollowDeps, actor: string, target: string, now = Date.now()) {
  notSelf(actor, target, 'unfollow');
  const [, edge] = await Promise.all([requireUser(deps.users, target), deps.relations.edge(actor, target)]);
  // The follower's notification goes with the edge: the delayed notify for the since read.
  const fact = edge ? ({ kind: 'follow', actor, target, since: edge.since } as const) : null;
  await Promise.all([
    queueSettle(deps, actor, target, now, edge ? { since: edge.since, removal: true } : undefined),
    fact ? notifyLater(deps, fact, { at: now, removal: true }) : undefined,
  ]);
  await atStep(deps, 'unfollow.edge-read', { follower: actor, followee: target });
  // The since read above is the one to remove (no second read): an edge that no longer holds it
  // was unfollowed, or refollowed, by a request ordered after this read.
  // The timeline side runs beside the edge's removal, not after it: a fan-out or promotion that
  // read the edge before its removal can write after either order, and the settle purges again
  // W later (A, D); with no such work in flight the posts are gone when this answers either way.
  const [removed, , celebrity] = await Promise.all([
    edge && fact ? removeEdge(deps, actor, target, edge.since, fact) : false,
    atStep(deps, 'unfollow.view-next', { follower: actor, followee: target }).then(() =>
      Promise.all([
        deps.inbox.removeCelebrity([actor], target),
        deps.inbox.purgeAuthor(actor, target),
        // Groups hold only people one follows (X): the target leaves every group of the actor.
        leaveGroupsOf(deps, actor, target),
      ]),
    ),
    deps.celebrities.isCelebrity(target),
  ]);
  if (removed && celebrity) {
    if ((await deps.counters.get(target, 'followers')) < deps.limits.celebrityFollowers * DEMOTE_BELOW) {
      await deps.queue.send({ v: 1, type: 'demote', author: target });
    }
  }
  return { follower: actor, followee: target, following: false };
}

/** The edge read (only the request that removed it moves the counts, tallied: M), then the immediate retraction. */
async function removeEdge(
  deps: Pick<FeedDeps, 'relations' | 'counters' | 'queue' | 'step'>,
  actor: string,
  target: string,
  since: number,
  fact: NotificationFact,
): Promise<boolean> {
  const removed = await deps.relations.unfollow(actor, target, since);
  await atStep(deps, 'unfollow.edge-removed', { follower: actor, followee: target });
  if (!removed) return false;
  const facts = followFacts(actor, target, since);
  await Promise.all([
    deps.counters.add(actor, 'following', -1, facts.following),
    deps.counters.add(target, 'followers', -1, facts.followers),
    notifyNow(deps, fact),
  ]);
  return true;
}

/** Public, like the lists: both users must exist (404), then one get of the edge. */
export async function followState(deps: Pick<FeedDeps, 'users' | 'relations'>, follower: string, followee: string) {
  const [, , following] = await Promise.all([
    requireUser(deps.users, follower),
    requireUser(deps.users, followee),
    deps.relations.isFollowing(follower, followee),
  ]);
  return { follower, followee, following };
}

/**
 * Whom a user follows, or who follows them, newest first. The user's existence (404) and a page
 * of the list index in one round trip, then the page's edges in one multi-get: an entry is shown
 * only while its edge holds its since (lists.ts). 2 round trips.
 */
export async function listRelations(
  deps: Pick<FeedDeps, 'users' | 'relations' | 'pictures'>,
  user: string,
  direction: 'following' | 'followers',
  limit: number,
  cursor?: string,
): Promise<Page<Edge & { face: Face }>> {
  const after = decodeListCursor(cursor);
  const [, page] = await Promise.all([
    requireUser(deps.users, user),
    deps.relations.listed(user, direction, limit, after),
  ]);
  const edges = page.items.map((e) =>
    direction === 'following' ? { follower: user, followee: e.handle } : { follower: e.handle, followee: user },
  );
  // The people's faces beside the edges' check: no round trip of their own.
  const [sinces, faces] = await Promise.all([
    deps.relations.followSinces(edges),
    readFaces(
      deps,
      page.items.map((e) => e.handle),
    ),
  ]);
  const shown = shownPage(page, sinces);
  return { ...shown, items: withFaces(shown.items, faces) };
}
