// shared/use-cases/write-limits.ts — per-user write limits (product rule: a user may comment,
// like/unlike and repost at most so many times a minute; FeedLimits.writesPerMinute). Fixed
// one-minute windows: simple, one counter per (user, action, minute), and the Retry-After is
// exact — the seconds until the window turns.
import { RateLimitedError } from '../domain/errors.js';
import type { WriteAction } from '../ports/reaction-store.js';
import type { FeedDeps } from './feed-deps.js';

export async function takeWriteQuota(deps: Pick<FeedDeps, 'quota' | 'limits'>, user: string, action: WriteAction, now: number): Promise<void> {
  const used = await deps.quota.take(user, action, now);
  const limit = deps.limits.writesPerMinute[action];
  if (used > limit) {
    const retryAfter = Math.max(1, Math.ceil((60_000 - (now % 60_000)) / 1000));
    throw new RateLimitedError(`At most ${limit} ${action} writes a minute; try again in ${retryAfter} s`, retryAfter);
  }
}
