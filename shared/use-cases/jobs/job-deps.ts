// shared/use-cases/jobs/job-deps.ts — what the scheduled jobs are built from, as ports. Composed
// in shared/wiring/jobs.ts; each job takes the few it uses (functions/schedule/). The queues are
// functions: each job needs at most one of them, and builds only that one.
import type { DeadLetterQueue } from '../../ports/dead-letter-queue.js';
import type { FanoutQueue } from '../../ports/fanout-queue.js';
import type { PostStore } from '../../ports/feed-store.js';
import type { JobContinuation } from '../../ports/job-continuation.js';
import type { MaintenanceStore, PostCountStore } from '../../ports/maintenance-store.js';
import type { MediaQueue } from '../../ports/media-queue.js';
import type { MediaStore } from '../../ports/media-store.js';
import type { UserStore } from '../../ports/user-store.js';
import type { HotStore } from '../../ports/hot-store.js';
import type { LayoutStore } from '../../ports/layout-store.js';

export interface JobLimits {
  rowsPerStep: number;
  maxSteps: number;
  inboxCap: number;
  outboxCap: number;
  regenStuckMs: number;
  settleMs: number;
  inactiveAfterMs: number;
}

export interface JobDependencies {
  store: MaintenanceStore;
  postCounts: PostCountStore;
  /** The media records and the posts and users that claim them (the media-cleanup job). */
  media: MediaStore;
  posts: PostStore;
  users: UserStore;
  /** The hot feed's engagements and ranking (the rank-hot job). */
  hot: HotStore;
  /** The layout the data is in, and its migrations (the migrate-layout job). */
  layout: LayoutStore;
  /** Hands the rest of a run on to the next invocation of the same function. */
  continuation: JobContinuation;
  queue(): FanoutQueue;
  mediaQueue(): MediaQueue;
  deadLetters(): DeadLetterQueue;
  limits: JobLimits;
}
