// shared/use-cases/relations.ts — follow, unfollow, and the following / followers lists.
import { InvalidInputError } from '../domain/errors.js';
import type { Edge, Page } from '../ports/feed-store.js';
import { HANDLE_PATTERN } from '../schema/row-keys.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { requireUser } from './users.js';

function notSelf(actor: string, target: string, verb: string): void {
  if (actor === target) throw new InvalidInputError(`You cannot ${verb} yourself`, `cannot_${verb}_self`);
}

/**
 * Idempotent. Steps: no self-follow (422) → the target must exist (404) → the following count
 * is bounded (422) → write the edge (put-if-absent: a repeat or a racing duplicate changes
 * nothing) → only a new edge moves the counts and queues the bounded backfill.
 */
export async function follow(deps: FeedDeps, actor: string, target: string, now = Date.now()) {
  notSelf(actor, target, 'follow');
  await requireUser(deps.users, target);
  if ((await deps.counters.get(actor, 'following')) >= deps.limits.maxFollowing) {
    if (!(await deps.relations.isFollowing(actor, target))) {
      throw new InvalidInputError(`You already follow ${deps.limits.maxFollowing} users, the maximum`, 'following_limit');
    }
  }
  if (await deps.relations.follow(actor, target, now)) {
    await Promise.all([deps.counters.add(actor, 'following', 1), deps.counters.add(target, 'followers', 1)]);
    await deps.queue.send({ v: 1, type: 'backfill', reader: actor, followee: target });
  }
  return { follower: actor, followee: target, following: true };
}

/**
 * Idempotent. Steps: no self-unfollow (422) → the target must exist (404) → remove the edge
 * (only the request that removed it moves the counts) → purge the target's posts from the
 * actor's inbox (the actor's row only) — also when the edge was already gone, so a purge that
 * failed half-way is finished by a retry.
 */
export async function unfollow(deps: FeedDeps, actor: string, target: string) {
  notSelf(actor, target, 'unfollow');
  await requireUser(deps.users, target);
  if (await deps.relations.unfollow(actor, target)) {
    await Promise.all([deps.counters.add(actor, 'following', -1), deps.counters.add(target, 'followers', -1)]);
  }
  await deps.inbox.purgeAuthor(actor, target);
  return { follower: actor, followee: target, following: false };
}

export async function listRelations(
  deps: FeedDeps,
  user: string,
  direction: 'following' | 'followers',
  limit: number,
  cursor?: string,
): Promise<Page<Edge>> {
  await requireUser(deps.users, user);
  const after = decodeCursor(cursor, (h) => HANDLE_PATTERN.test(h));
  const page = await deps.relations[direction](user, limit, after);
  return { items: page.items, ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}) };
}
