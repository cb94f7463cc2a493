// shared/wiring/data-export.ts — the feed plus where data exports are kept (the media bucket,
// under exports/): the export route presigns a download, the fan-out worker writes the file.
import type { FeedDeps } from '../use-cases/feed-deps.js';
import { feedDependencies } from './feed.js';
import { hasMediaBucket, mediaObjects } from './objects.js';

let deps: FeedDeps | undefined;
/** The feed's ports, with `exports` where the stage has a media bucket. */
export function feedWithExports(): FeedDeps {
  deps ??= { ...feedDependencies(), ...(hasMediaBucket() ? { exports: mediaObjects() } : {}) };
  return deps;
}
