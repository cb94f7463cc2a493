// shared/wiring/objects.ts — where the bytes of pictures and data exports live (S3 deployed; the
// local object store locally): one client per container. Only uploads, the media worker, the
// data export and the jobs that remove objects import this (and so the S3 client).
import { S3MediaObjects } from '../adapters/s3/s3-media-objects.js';
import { config, type Config } from '../config/config.js';

/** Whether the stage has a media bucket (every deployed stage and npm start do; a bare test configuration may not). */
export const hasMediaBucket = (cfg: Config = config()): boolean => Boolean(cfg.MEDIA_BUCKET && cfg.MEDIA_BASE_URL);

let objects: S3MediaObjects | undefined;
export function mediaObjects(cfg: Config = config()): S3MediaObjects {
  if (objects) return objects;
  if (!cfg.MEDIA_BUCKET || !cfg.MEDIA_BASE_URL)
    throw new Error('Invalid configuration: MEDIA_BUCKET and MEDIA_BASE_URL are required for pictures');
  objects = new S3MediaObjects({
    bucket: cfg.MEDIA_BUCKET,
    publicBaseUrl: cfg.MEDIA_BASE_URL,
    ...(cfg.S3_ENDPOINT ? { endpoint: cfg.S3_ENDPOINT } : {}),
  });
  return objects;
}
