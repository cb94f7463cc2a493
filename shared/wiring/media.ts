// shared/wiring/media.ts — pictures, API side: starting and completing an upload, reading a
// picture's state. The media records, the object store (presigned uploads), the media queue.
import { HBaseMediaStore } from '../adapters/hbase/hbase-media-store.js';
import { HBaseIdempotencyStore } from '../adapters/hbase/hbase-post-store.js';
import { HBaseWriteQuota } from '../adapters/hbase/hbase-write-quota.js';
import { config } from '../config/config.js';
import type { MediaDeps } from '../use-cases/media/media-deps.js';
import { hbaseClient } from './hbase.js';
import { mediaObjects } from './objects.js';
import { mediaQueue } from './queues.js';

let media: MediaDeps | undefined;
export function mediaDependencies(): MediaDeps {
  if (media) return media;
  const cfg = config();
  const hbase = hbaseClient();
  media = {
    media: new HBaseMediaStore(hbase, cfg.HBASE_NAMESPACE),
    objects: mediaObjects(cfg),
    queue: mediaQueue(),
    quota: new HBaseWriteQuota(hbase, cfg.HBASE_NAMESPACE),
    idempotency: new HBaseIdempotencyStore(hbase, cfg.HBASE_NAMESPACE),
    limits: { writesPerMinute: { upload: cfg.UPLOADS_PER_MINUTE }, uploadUrlSeconds: cfg.UPLOAD_URL_SECONDS },
  };
  return media;
}
