// functions/schedule/media-cleanup.ts — rate(6 hours): queue the discard of pictures no post will ever show (uploads never posted within 24 h, claims whose post never appeared, a deleted post's pictures whose discard was lost).
import { mediaCleanupJob } from '../../shared/use-cases/jobs/media-cleanup.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('media-cleanup', (deps) =>
  mediaCleanupJob({ media: deps.media, posts: deps.posts, users: deps.users, queue: deps.mediaQueue() }),
);
