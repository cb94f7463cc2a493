// shared/use-cases/block-guard.ts — use case floor: the one rule every interaction between two
// users obeys first, "no one acts on someone who blocked them, or whom they blocked" (403
// `blocked`). Its own module so that blocks.ts (which unfollows) and relations.ts (whose follow
// re-checks for a racing block, invariant G) both build on it without importing each other.
import { ForbiddenError } from '../domain/errors.js';
import type { FeedDeps } from './feed-deps.js';

export const blockedError = () => new ForbiddenError('You cannot do this: one of you has blocked the other', 'blocked');

/** 403 `blocked` when either user blocks the other. One multi-get; nothing for an anonymous reader. */
export async function refuseIfBlocked(
  deps: Pick<FeedDeps, 'blocks'>,
  a: string | undefined | null,
  b: string | undefined | null,
): Promise<void> {
  if (!a || !b || a === b) return;
  if (await deps.blocks.eitherBlocks(a, b)) throw blockedError();
}
