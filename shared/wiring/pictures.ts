// shared/wiring/pictures.ts — pictures as the feed and the profiles show them: the media records,
// where variants are served (a URL, no S3 client) and the media queue (built on first send: only
// deletePost and the erasure send, the reads never do).
import { HBaseMediaStore } from '../adapters/hbase/hbase-media-store.js';
import { variantUrls } from '../adapters/s3/variant-urls.js';
import { config } from '../config/config.js';
import type { Pictures } from '../use-cases/media/attach.js';
import { hbaseClient } from './hbase.js';
import { mediaQueue } from './queues.js';

let pictures: Pictures | undefined;
/** `{ pictures }` where the stage has a media bucket (every deployed stage and npm start do), `{}` otherwise. */
export function picturesIfConfigured(): { pictures?: Pictures } {
  const cfg = config();
  if (!cfg.MEDIA_BUCKET || !cfg.MEDIA_BASE_URL) return {};
  pictures ??= {
    media: new HBaseMediaStore(hbaseClient(), cfg.HBASE_NAMESPACE),
    variantUrl: variantUrls(cfg.MEDIA_BASE_URL),
    queue: { send: (message) => mediaQueue().send(message) },
  };
  return { pictures };
}

/** The pictures, where a function cannot do without them (reading a picture's state). */
export function pictureDependencies(): Pictures {
  const { pictures: configured } = picturesIfConfigured();
  if (!configured) throw new Error('Invalid configuration: MEDIA_BUCKET and MEDIA_BASE_URL are required for pictures');
  return configured;
}
