// shared/wiring/media-worker.ts — the media worker's ports. It alone loads sharp (native libvips),
// which only the media worker's package carries; an API function that imported this would fail
// at cold start.
import { SharpImageProcessor } from '../adapters/images/sharp-image-processor.js';
import { HBaseMediaStore } from '../adapters/hbase/hbase-media-store.js';
import { HBasePostStore } from '../adapters/hbase/hbase-post-store.js';
import { HBaseUserStore } from '../adapters/hbase/hbase-user-store.js';
import { config } from '../config/config.js';
import type { MediaWorkerDeps } from '../use-cases/media/media-deps.js';
import { hbaseClient } from './hbase.js';
import { mediaObjects } from './objects.js';

let deps: MediaWorkerDeps | undefined;
export function mediaWorkerDependencies(): MediaWorkerDeps {
  if (deps) return deps;
  const cfg = config();
  const hbase = hbaseClient();
  deps = {
    media: new HBaseMediaStore(hbase, cfg.HBASE_NAMESPACE),
    objects: mediaObjects(cfg),
    images: new SharpImageProcessor(),
    // A discard reads who holds the picture: the post's state (live, deleted, absent), or the
    // user's current avatar.
    posts: new HBasePostStore(hbase, cfg.HBASE_NAMESPACE),
    users: new HBaseUserStore(hbase, cfg.HBASE_NAMESPACE),
  };
  return deps;
}
