// shared/media-worker-composition.ts — the media worker's ports. Apart from composition.ts on
// purpose: it loads sharp (native libvips), which only the media worker's package carries; an
// API function that imported it would fail at cold start.
import { SharpImageProcessor } from './adapters/images/sharp-image-processor.js';
import { HBaseMediaStore } from './adapters/hbase/hbase-media-store.js';
import { HBasePostStore } from './adapters/hbase/hbase-post-store.js';
import { dependencies, mediaObjects } from './composition.js';
import { config, type Config } from './config/config.js';
import type { MediaWorkerDeps } from './use-cases/media/media-deps.js';

let deps: MediaWorkerDeps | undefined;
export function mediaWorkerDependencies(cfg: Config = config()): MediaWorkerDeps {
  if (deps) return deps;
  const { hbase } = dependencies();
  deps = {
    media: new HBaseMediaStore(hbase, cfg.HBASE_NAMESPACE),
    objects: mediaObjects(cfg),
    images: new SharpImageProcessor(),
    // A discard reads who holds the picture: the post's state (live, deleted, absent), or the
    // user's current avatar.
    posts: new HBasePostStore(hbase, cfg.HBASE_NAMESPACE),
    users: dependencies().users,
  };
  return deps;
}
