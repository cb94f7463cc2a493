// test/unit/web-upload-plan.test.ts — the pure part of the web client upload
// (infra/plugins/web-upload-plan.cjs): object keys, Content-Type, Cache-Control, upload order,
// what to delete from the bucket and what to invalidate in CloudFront. No AWS, no file system.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const webPlan =
  require('../../infra/plugins/web-upload-plan.cjs') as typeof import('../../infra/plugins/web-upload-plan.cjs');
const { planUpload, toKey, contentTypeFor, cacheControlFor, CACHE_IMMUTABLE, CACHE_NO_CACHE, CACHE_ONE_DAY } = webPlan;

/** What `tsx web/build.ts` writes (names as esbuild hashes them). */
const BUILD = [
  'api-docs/index.html',
  'api-docs/swagger-ui-bundle.js',
  'api-docs/swagger-ui.css',
  'app-OP7BYY7T.css',
  'app-SY4UK2H3.js',
  'config.js',
  'index.html',
];

const byKey = (files: string[], existingKeys: string[] = []) =>
  Object.fromEntries(planUpload({ files, existingKeys }).uploads.map((u) => [u.key, u]));

describe('planUpload: one object per built file', () => {
  it('keeps the relative path as the key, with Content-Type and Cache-Control per file', () => {
    const plan = byKey(BUILD);
    expect(Object.keys(plan).sort()).toEqual([...BUILD].sort());
    expect(plan['index.html']).toMatchObject({ contentType: 'text/html; charset=utf-8', cacheControl: 'no-cache' });
    expect(plan['config.js']).toMatchObject({
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: 'no-cache',
    });
    expect(plan['api-docs/index.html']).toMatchObject({
      contentType: 'text/html; charset=utf-8',
      cacheControl: 'no-cache',
    });
    expect(plan['app-SY4UK2H3.js']).toMatchObject({
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect(plan['app-OP7BYY7T.css']).toMatchObject({
      contentType: 'text/css; charset=utf-8',
      cacheControl: CACHE_IMMUTABLE,
    });
    expect(plan['api-docs/swagger-ui-bundle.js']).toMatchObject({
      contentType: 'text/javascript; charset=utf-8',
      cacheControl: 'public, max-age=86400',
    });
    expect(plan['api-docs/swagger-ui.css']).toMatchObject({
      contentType: 'text/css; charset=utf-8',
      cacheControl: CACHE_ONE_DAY,
    });
    for (const u of Object.values(plan)) expect(u.file).toBe(u.key);
  });

  it('treats only top-level app-<hash>.js/.css as immutable', () => {
    expect(cacheControlFor('app-ABC123.js')).toBe(CACHE_IMMUTABLE);
    expect(cacheControlFor('app-ABC123.css')).toBe(CACHE_IMMUTABLE);
    expect(cacheControlFor('app.js')).toBe(CACHE_ONE_DAY); // no hash
    expect(cacheControlFor('api-docs/app-ABC123.js')).toBe(CACHE_ONE_DAY);
    expect(cacheControlFor('app-ABC123.js.map')).toBe(CACHE_ONE_DAY);
    expect(cacheControlFor('config.js')).toBe(CACHE_NO_CACHE);
    expect(cacheControlFor('favicon.ico')).toBe(CACHE_ONE_DAY);
  });

  it('knows the usual static types and falls back to application/octet-stream', () => {
    expect(contentTypeFor('openapi.json')).toBe('application/json');
    expect(contentTypeFor('logo.SVG')).toBe('image/svg+xml');
    expect(contentTypeFor('icons/app.png')).toBe('image/png');
    expect(contentTypeFor('fonts/a.woff2')).toBe('font/woff2');
    expect(contentTypeFor('favicon.ico')).toBe('image/x-icon');
    expect(contentTypeFor('LICENSE')).toBe('application/octet-stream');
    expect(contentTypeFor('.hidden')).toBe('application/octet-stream');
    expect(contentTypeFor('data.bin')).toBe('application/octet-stream');
  });

  it('turns Windows separators into S3 keys and refuses paths that leave the folder', () => {
    expect(toKey('api-docs\\index.html')).toBe('api-docs/index.html');
    expect(toKey('./config.js')).toBe('config.js');
    expect(planUpload({ files: ['api-docs\\swagger-ui.css'] }).uploads[0]).toMatchObject({
      file: 'api-docs\\swagger-ui.css',
      key: 'api-docs/swagger-ui.css',
    });
    for (const bad of ['../secret', '/etc/passwd', 'a//b', 'a/./b', '']) expect(() => toKey(bad), bad).toThrow();
    expect(() => planUpload({ files: ['a/b.js', 'a\\b.js'] })).toThrow(/two files/);
  });

  it('uploads what a page refers to before the page: hashed bundles, assets, no-cache files, index.html last', () => {
    const order = planUpload({ files: [...BUILD].reverse() }).uploads.map((u) => u.key);
    expect(order).toEqual([
      'app-OP7BYY7T.css',
      'app-SY4UK2H3.js',
      'api-docs/swagger-ui-bundle.js',
      'api-docs/swagger-ui.css',
      'api-docs/index.html',
      'config.js',
      'index.html',
    ]);
    const tiers = planUpload({ files: BUILD }).uploads.map((u) => u.tier);
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    expect(tiers.at(-1)).toBe(3);
    expect(tiers.filter((t) => t === 3)).toHaveLength(1);
  });
});

describe('planUpload: the diff against the bucket', () => {
  it('deletes exactly the keys the build no longer has (an old bundle, a removed file)', () => {
    const existing = [
      'index.html',
      'config.js',
      'app-OLDHASH1.js',
      'app-OLDHASH2.css',
      'app-SY4UK2H3.js',
      'api-docs/index.html',
      'robots.txt',
    ];
    const { deletions } = planUpload({ files: BUILD, existingKeys: existing });
    expect(deletions).toEqual(['app-OLDHASH1.js', 'app-OLDHASH2.css', 'robots.txt']);
  });

  it('deletes nothing on a first deploy or when the bucket holds just this build', () => {
    expect(planUpload({ files: BUILD }).deletions).toEqual([]);
    expect(planUpload({ files: BUILD, existingKeys: BUILD }).deletions).toEqual([]);
    expect(planUpload({ files: BUILD, existingKeys: ['index.html', 'index.html'] }).deletions).toEqual([]);
  });

  it('invalidates the non-hashed paths (and "/", which serves index.html), never a hashed bundle', () => {
    const { invalidationPaths } = planUpload({ files: BUILD, existingKeys: ['app-OLDHASH1.js', 'old-page.html'] });
    expect(invalidationPaths).toEqual([
      '/',
      '/api-docs/index.html',
      '/api-docs/swagger-ui-bundle.js',
      '/api-docs/swagger-ui.css',
      '/config.js',
      '/index.html',
      '/old-page.html',
    ]);
  });

  it('percent-encodes unusual names and falls back to "/*" for a very long list', () => {
    expect(planUpload({ files: ['img/a b.png'] }).invalidationPaths).toEqual(['/img/a%20b.png']);
    const many = Array.from({ length: webPlan.MAX_LISTED_INVALIDATION_PATHS + 1 }, (_, i) => `img/${i}.png`);
    expect(planUpload({ files: many }).invalidationPaths).toEqual(['/*']);
  });
});
