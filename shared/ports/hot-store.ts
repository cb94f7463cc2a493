// shared/ports/hot-store.ts — the hot feed's store (热门): who engaged with which post when, filed
// by the hour, and the ranking the job makes of them (domain/hot.ts says what ranks).
import type { Engagement, HotRanking } from '../domain/hot.js';

export interface HotStore {
  /**
   * Files one person's engagement with a post at `at` (one write, no read). Writing it again
   * changes nothing; a person's several engagements with one post in one hour are one entry
   * holding the latest.
   */
  engaged(engagement: Engagement): Promise<void>;
  /** Every engagement filed in these hour buckets (domain/hot.ts hotBucketsAt), in no order. One read. */
  engagements(buckets: readonly number[]): Promise<Engagement[]>;
  /** Replaces the ranking. */
  saveRanking(ranking: HotRanking): Promise<void>;
  /** The latest ranking, or null before the job first ran. One read. */
  ranking(): Promise<HotRanking | null>;
}
