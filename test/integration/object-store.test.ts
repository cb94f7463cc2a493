// test/integration/object-store.test.ts — the local object store (s3rver, started by
// test/support/global-setup.ts through stack.sh) with the clients the product uses: the AWS SDK v3
// S3 client, presigned PUT URLs, and a browser-shaped fetch (CORS). Where s3rver differs from S3
// the test says so (it.fails) instead of pretending: the product must not rely on those checks
// locally. The restart test runs a private instance of its own (own port, own directory), so it
// never stops the store other files use.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/ports.js';
import {
  DEFAULT_MEDIA_BUCKET,
  DEFAULT_S3_PORT,
  localObjectStoreEndpoint,
  localS3Client,
  objectStoreHealthy,
} from '../../infra/local/object-store.js';

const STACK = fileURLToPath(new URL('../../infra/local/stack.sh', import.meta.url));
const endpoint = inject('s3Endpoint');
const bucket = inject('mediaBucket');
const prefix = `it-object-store/${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** A few bytes that start like a WebP file; the store must not care what they are. */
const BODY = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(200, 7)]);
const LOOPBACK_ORIGIN = 'http://127.0.0.1:5173';

let s3: S3Client;
/**
 * Presigns as POST /media must. Since SDK 3.729 a client computes a CRC32 for every PutObject
 * (requestChecksumCalculation WHEN_SUPPORTED); presigned, there is no body yet, so the URL pins
 * the CRC32 of an empty body and S3 refuses the real upload (aws-sdk-js-v3 #6994). s3rver ignores
 * checksums, so only this setting, not the local store, keeps that bug out.
 */
let presigner: S3Client;
const written: string[] = [];

function key(name: string): string {
  const k = `${prefix}/${name}`;
  written.push(k);
  return k;
}

async function exists(client: S3Client, k: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: k }));
    return true;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw err;
  }
}

/**
 * A presigned PUT whose signature covers the type and the length, as POST /media will hand out.
 * The presigner leaves content-type out of the signature unless asked (it adds it to its
 * unsignable headers); content-length it signs when ContentLength is set.
 */
async function presignedPut(
  k: string,
  opts: { contentType: string; length: number; expiresIn?: number; signingDate?: Date; client?: S3Client },
) {
  const command = new PutObjectCommand({
    Bucket: bucket,
    Key: k,
    ContentType: opts.contentType,
    ContentLength: opts.length,
  });
  return getSignedUrl(opts.client ?? presigner, command, {
    expiresIn: opts.expiresIn ?? 300,
    signableHeaders: new Set(['content-type']),
    ...(opts.signingDate ? { signingDate: opts.signingDate } : {}),
  });
}

/** S3's error code from an XML error body. */
const errorCode = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];

beforeAll(() => {
  s3 = localS3Client(endpoint);
  presigner = localS3Client(endpoint, { requestChecksumCalculation: 'WHEN_REQUIRED' });
});

afterAll(async () => {
  for (const k of written) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: k })).catch(() => {});
  s3.destroy();
  presigner.destroy();
});

describe('settings', () => {
  it('stack.sh and infra/local/object-store.ts agree on the defaults', () => {
    const env = { ...process.env };
    for (const name of ['S3_PORT', 'S3_ENDPOINT', 'MEDIA_BUCKET']) delete env[name];
    const out = execFileSync('bash', [STACK, 'env'], { env, encoding: 'utf8' });
    expect(out).toContain(`S3_ENDPOINT=http://127.0.0.1:${DEFAULT_S3_PORT}\n`);
    expect(out).toContain(`MEDIA_BUCKET=${DEFAULT_MEDIA_BUCKET}\n`);
    expect(localObjectStoreEndpoint({})).toBe(`http://127.0.0.1:${DEFAULT_S3_PORT}`);
  });

  it('the health check needs the server and, when named, the bucket', async () => {
    expect(await objectStoreHealthy(endpoint, bucket)).toBe(true);
    expect(await objectStoreHealthy(endpoint, `${bucket}-missing`)).toBe(false);
    // The HBase REST gateway answers HTTP too, but it is no S3 server.
    expect(await objectStoreHealthy(inject('hbaseRestUrl'))).toBe(false);
  });
});

describe('the S3 client', () => {
  it('puts, heads, gets and deletes an object, keeping its Content-Type', async () => {
    const k = key('plain.webp');
    const put = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: k, Body: BODY, ContentType: 'image/webp' }));
    expect(put.ETag).toMatch(/^"[0-9a-f]{32}"$/);

    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: k }));
    expect(head.ContentType).toBe('image/webp');
    expect(head.ContentLength).toBe(BODY.length);
    expect(head.ETag).toBe(put.ETag);

    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: k }));
    expect(got.ContentType).toBe('image/webp');
    expect(Buffer.from(await got.Body!.transformToByteArray())).toEqual(BODY);

    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: k }));
    await expect(s3.send(new GetObjectCommand({ Bucket: bucket, Key: k }))).rejects.toBeInstanceOf(NoSuchKey);
  });

  it('refuses keys it does not know (an unknown access key id)', async () => {
    const stranger = localS3Client(endpoint, { credentials: { accessKeyId: 'AKIASTRANGER', secretAccessKey: 'x' } });
    const err = await stranger
      .send(new PutObjectCommand({ Bucket: bucket, Key: key('stranger'), Body: 'x' }))
      .catch((e: unknown) => e);
    stranger.destroy();
    expect((err as { name?: string }).name).toBe('InvalidAccessKeyId');
    expect(await exists(s3, `${prefix}/stranger`)).toBe(false);
  });
});

describe('presigned PUT', () => {
  it('signs content-type and content-length, and a plain fetch uploads with them', async () => {
    const k = key('presigned.webp');
    const url = await presignedPut(k, { contentType: 'image/webp', length: BODY.length });
    const signed = new URL(url).searchParams.get('X-Amz-SignedHeaders')!.split(';');
    expect(signed).toEqual(expect.arrayContaining(['content-type', 'content-length', 'host']));
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300');
    expect([...new URL(url).searchParams.keys()].filter((p) => /checksum/i.test(p))).toEqual([]);

    // As a browser on the web client's origin sends it.
    const res = await fetch(url, {
      method: 'PUT',
      body: BODY,
      headers: { 'content-type': 'image/webp', origin: LOOPBACK_ORIGIN },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    // The page may read the ETag (the CORS rule exposes it).
    expect(res.headers.get('access-control-allow-origin')).toBe(LOOPBACK_ORIGIN);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/\bETag\b/i);

    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: k }));
    expect(head.ContentType).toBe('image/webp');
    expect(head.ContentLength).toBe(BODY.length);
  });

  // S3 recomputes the signature and refuses a request whose signed headers differ. s3rver 3.7.1
  // (the latest release) does not compute SigV4 signatures at all (lib/middleware/authentication.js:
  // "Signature version 4 calculation is unimplemeneted"), so it stores these uploads. it.fails
  // records that: the type and size a presigned PUT pins are enforced by S3 only, and locally the
  // product must check them itself (the worker's magic-byte and size checks) rather than rely on
  // the store. If a later s3rver refuses them, these turn red: make them plain `it`.
  it.fails('[differs from S3] refuses the URL with another content-type', async () => {
    const k = key('wrong-type.webp');
    const url = await presignedPut(k, { contentType: 'image/webp', length: BODY.length });
    const res = await fetch(url, { method: 'PUT', body: BODY, headers: { 'content-type': 'text/html' } });
    expect(res.status).toBe(403);
    expect(errorCode(await res.text())).toBe('SignatureDoesNotMatch');
  });

  it.fails('[differs from S3] refuses the URL with a body of another length', async () => {
    const k = key('wrong-length.webp');
    const url = await presignedPut(k, { contentType: 'image/webp', length: BODY.length });
    const res = await fetch(url, {
      method: 'PUT',
      body: Buffer.concat([BODY, BODY]),
      headers: { 'content-type': 'image/webp' },
    });
    expect(res.status).toBe(403);
    expect(errorCode(await res.text())).toBe('SignatureDoesNotMatch');
  });

  it.fails('[differs from S3] refuses a URL whose signature was altered', async () => {
    const k = key('forged.webp');
    const url = new URL(await presignedPut(k, { contentType: 'image/webp', length: BODY.length }));
    url.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    const res = await fetch(url, { method: 'PUT', body: BODY, headers: { 'content-type': 'image/webp' } });
    expect(res.status).toBe(403);
  });

  it.fails('[differs from S3] refuses a body whose CRC32 differs from the one the URL pins', async () => {
    // SDK defaults (no requestChecksumCalculation): the URL carries x-amz-checksum-crc32 of "".
    const k = key('default-checksum.webp');
    const url = await presignedPut(k, { contentType: 'image/webp', length: BODY.length, client: s3 });
    expect(new URL(url).searchParams.get('x-amz-checksum-crc32')).toBe('AAAAAA==');
    const res = await fetch(url, { method: 'PUT', body: BODY, headers: { 'content-type': 'image/webp' } });
    expect(res.status).toBe(400);
  });

  it('refuses an expired URL, and stores nothing', async () => {
    const k = key('expired.webp');
    // Signed ten minutes ago for one minute: expired nine minutes ago, without waiting here.
    const url = await presignedPut(k, {
      contentType: 'image/webp',
      length: BODY.length,
      expiresIn: 60,
      signingDate: new Date(Date.now() - 600_000),
    });
    const res = await fetch(url, { method: 'PUT', body: BODY, headers: { 'content-type': 'image/webp' } });
    expect(res.status).toBe(403);
    expect(errorCode(await res.text())).toBe('AccessDenied');
    expect(await exists(s3, k)).toBe(false);
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    fetch(`${endpoint}/${bucket}/${prefix}/cors.webp`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    });

  it('lets a page on a loopback origin PUT with a content-type', async () => {
    for (const origin of [LOOPBACK_ORIGIN, 'http://localhost:13001']) {
      const res = await preflight(origin);
      expect(res.status, origin).toBe(200);
      // S3 echoes the origin; s3rver answers a preflight with `*`. Either lets the browser on.
      expect([origin, '*']).toContain(res.headers.get('access-control-allow-origin'));
      expect(res.headers.get('access-control-allow-methods')).toMatch(/\bPUT\b/);
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    }
  });

  it('gives a foreign origin nothing', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example:5173']) {
      const res = await preflight(origin);
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(res.headers.get('access-control-allow-methods'), origin).toBeNull();
    }
    // Nor on a real request: the browser would withhold the body from the page.
    const k = key('cors-get.webp');
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: k, Body: BODY, ContentType: 'image/webp' }));
    const res = await fetch(`${endpoint}/${bucket}/${k}`, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('restart', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const stack = (cmd: 'start' | 'stop') =>
    execFileSync('bash', [STACK, cmd, 's3'], { env, stdio: 'pipe', timeout: 60_000 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weibo-s3-restart-'));
    const port = await freePort();
    env = {
      ...process.env,
      WEIBO_LOCAL_DIR: dir,
      S3_PORT: String(port),
      MEDIA_BUCKET: bucket,
      STACK_START_TIMEOUT: '60',
    };
    delete env.S3_ENDPOINT;
  });

  afterAll(() => {
    try {
      stack('stop');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps objects on disk across stack.sh stop s3 / start s3', async () => {
    stack('start');
    const privateEndpoint = `http://127.0.0.1:${env.S3_PORT}`;
    const client = localS3Client(privateEndpoint);
    try {
      const k = `${prefix}/survives.webp`;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: k, Body: BODY, ContentType: 'image/webp' }));

      stack('stop');
      expect(await objectStoreHealthy(privateEndpoint)).toBe(false);
      stack('start');

      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: k }));
      expect(got.ContentType).toBe('image/webp');
      expect(Buffer.from(await got.Body!.transformToByteArray())).toEqual(BODY);
      // The bucket's CORS rules are put back at start too.
      const res = await fetch(`${privateEndpoint}/${bucket}/${k}`, {
        method: 'OPTIONS',
        headers: { origin: LOOPBACK_ORIGIN, 'access-control-request-method': 'PUT' },
      });
      expect(res.status).toBe(200);
    } finally {
      client.destroy();
    }
  });
});
