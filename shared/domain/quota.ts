// shared/domain/quota.ts — the per-user write limits' window (a product rule; no storage here):
// fixed one-minute windows. Simple — one counter per (user, action, window) — and the
// Retry-After is exact: the seconds until the window turns.
import { WRITE_QUOTA_WINDOW_MS } from './limits.js';

/** The window a write at `now` is counted in. */
export const quotaWindowOf = (now: number): number => Math.floor(now / WRITE_QUOTA_WINDOW_MS);

/** Whole seconds until the window of `now` turns (at least 1: a client never retries at once). */
export const secondsUntilNextWindow = (now: number): number =>
  Math.max(1, Math.ceil((WRITE_QUOTA_WINDOW_MS - (now % WRITE_QUOTA_WINDOW_MS)) / 1000));
