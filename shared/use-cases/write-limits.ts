// shared/use-cases/write-limits.ts — per-user write limits (product rule: a user may comment,
// like/unlike, repost and upload pictures at most so many times a minute; writesPerMinute). The
// window is domain/quota.ts; the store only counts per (user, action, window) it is given.
import { quotaWindowOf, secondsUntilNextWindow } from '../domain/quota.js';
import { RateLimitedError } from '../domain/errors.js';
import type { WriteAction } from '../domain/limits.js';
import type { WriteQuota } from '../ports/reaction-store.js';

export async function takeWriteQuota<A extends WriteAction>(
  deps: { quota: WriteQuota; limits: { writesPerMinute: Record<A, number> } },
  user: string,
  action: A,
  now: number,
): Promise<void> {
  const used = await deps.quota.take(user, action, quotaWindowOf(now));
  const limit = deps.limits.writesPerMinute[action];
  if (used > limit) {
    const retryAfter = secondsUntilNextWindow(now);
    throw new RateLimitedError(`At most ${limit} ${action} writes a minute; try again in ${retryAfter} s`, retryAfter);
  }
}
