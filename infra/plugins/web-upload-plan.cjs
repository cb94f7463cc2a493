// infra/plugins/web-upload-plan.cjs — the pure part of the web client upload (no AWS, no file
// system): which object key, Content-Type and Cache-Control each built file gets, in which order
// to upload them, which old objects to delete and which paths to invalidate in CloudFront.
// Used by infra/plugins/web-client.cjs; unit-tested in test/unit/web-upload-plan.test.ts.
'use strict';

const CACHE_NO_CACHE = 'no-cache';
const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
const CACHE_ONE_DAY = 'public, max-age=86400';

const CONTENT_TYPES = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
});
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** web/build.ts names the bundles app-<esbuild content hash>.js / .css, at the top level. */
const HASHED = /^app-[A-Za-z0-9_-]+\.(?:js|css)$/;
/** What must be revalidated on every load: the pages, and config.js (the API URL, not hashed). */
const ALWAYS_REVALIDATE = new Set(['config.js']);

/** More than this many paths: invalidate `/*` (one path for billing) instead of listing them. */
const MAX_LISTED_INVALIDATION_PATHS = 100;

/** A relative file path (either separator) → the S3 key: posix, no leading slash. */
function toKey(file) {
  if (typeof file !== 'string' || file === '') throw new Error('web-upload-plan: empty file path');
  const key = file.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
  const parts = key.split('/');
  if (key.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`web-upload-plan: "${file}" is not a plain path inside the build folder`);
  }
  return key;
}

function extensionOf(key) {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

function contentTypeFor(key) {
  return CONTENT_TYPES[extensionOf(key)] ?? DEFAULT_CONTENT_TYPE;
}

function isHashed(key) {
  return HASHED.test(key);
}

function cacheControlFor(key) {
  if (isHashed(key)) return CACHE_IMMUTABLE;
  if (ALWAYS_REVALIDATE.has(key) || extensionOf(key) === '.html') return CACHE_NO_CACHE;
  return CACHE_ONE_DAY;
}

/** Upload order (tiers, lowest first): what a page refers to before the page — hashed bundles,
 * then the other assets, then config.js and the other pages, index.html last of all — so a
 * visitor never loads a page whose files are not there yet. One tier may upload in parallel. */
function tierOf(key, cacheControl) {
  if (key === 'index.html') return 3;
  if (cacheControl === CACHE_NO_CACHE) return 2;
  if (cacheControl === CACHE_ONE_DAY) return 1;
  return 0;
}

/** The URL path of a key, as CloudFront expects it in an invalidation (percent-encoded). */
function urlPath(key) {
  return `/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * @param {{ files: string[], existingKeys?: string[] }} input
 *   files: the build folder's files, relative to it; existingKeys: the bucket's keys now.
 */
function planUpload({ files, existingKeys = [] }) {
  const uploads = files.map((file) => {
    const key = toKey(file);
    const cacheControl = cacheControlFor(key);
    return { file, key, contentType: contentTypeFor(key), cacheControl, tier: tierOf(key, cacheControl) };
  });
  const seen = new Set();
  for (const u of uploads) {
    if (seen.has(u.key)) throw new Error(`web-upload-plan: two files map to the key "${u.key}"`);
    seen.add(u.key);
  }
  uploads.sort((a, b) => a.tier - b.tier || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const deletions = [...new Set(existingKeys)].filter((k) => !seen.has(k)).sort();

  // Hashed files never change under their name: nothing to invalidate. Everything else that was
  // uploaded or deleted may sit in an edge cache (config.js and the pages for up to CachingOptimized's
  // minimum TTL, the rest for a day). "/" is index.html through DefaultRootObject, cached apart.
  const paths = new Set();
  for (const key of [...uploads.map((u) => u.key), ...deletions]) {
    if (isHashed(key)) continue;
    if (key === 'index.html') paths.add('/');
    paths.add(urlPath(key));
  }
  const sorted = [...paths].sort();
  const invalidationPaths = sorted.length > MAX_LISTED_INVALIDATION_PATHS ? ['/*'] : sorted;

  return { uploads, deletions, invalidationPaths };
}

module.exports = {
  CACHE_NO_CACHE,
  CACHE_IMMUTABLE,
  CACHE_ONE_DAY,
  DEFAULT_CONTENT_TYPE,
  MAX_LISTED_INVALIDATION_PATHS,
  toKey,
  contentTypeFor,
  cacheControlFor,
  isHashed,
  planUpload,
};
