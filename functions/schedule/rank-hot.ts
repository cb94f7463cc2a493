// functions/schedule/rank-hot.ts — rate(5 minutes): rank the hot feed (热门微博) from the engagements of the last 48 hours.
import { rankHotJob } from '../../shared/use-cases/jobs/rank-hot.js';
import { scheduledJob } from './job-handler.js';

export const handler = scheduledJob('rank-hot', (deps) => rankHotJob({ hot: deps.hot, posts: deps.posts }));
