// infra/local/object-store.ts — the local object store (s3rver, an S3-compatible server on the
// project's own Node, buckets kept on disk): its address, bucket and keys, the bucket's CORS
// rules, and a health check. Read by the launcher (infra/local/s3-server.ts, which stack.sh
// starts), the test setup and `npm start`. stack.sh repeats the two defaults (port, bucket) in
// shell; test/integration/object-store.test.ts checks that both say the same.
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

/** stack.sh's S3_PORT default. */
export const DEFAULT_S3_PORT = 19000;
/** The media bucket of the local stage (MEDIA_BUCKET overrides). */
export const DEFAULT_MEDIA_BUCKET = 'weibo-local-media';
/** Any region: s3rver ignores it, but the SDK needs one to sign. */
export const LOCAL_S3_REGION = 'us-east-1';
/** s3rver's built-in account (lib/models/account.js): the only keys it knows. Never real credentials. */
export const LOCAL_S3_CREDENTIALS = Object.freeze({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });

type Env = Record<string, string | undefined>;

export function localObjectStorePort(env: Env = process.env): number {
  const port = Number(env.S3_PORT || DEFAULT_S3_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`S3_PORT must be a TCP port (got "${env.S3_PORT}")`);
  return port;
}

/** S3_ENDPOINT, else the loopback address stack.sh starts s3rver on. */
export function localObjectStoreEndpoint(env: Env = process.env): string {
  return (env.S3_ENDPOINT || `http://127.0.0.1:${localObjectStorePort(env)}`).replace(/\/+$/, '');
}

export function localMediaBucket(env: Env = process.env): string {
  return env.MEDIA_BUCKET || DEFAULT_MEDIA_BUCKET;
}

/** Where a browser fetches an object locally: path-style, `<endpoint>/<bucket>/<key>`. */
export function localMediaBaseUrl(endpoint: string, bucket: string): string {
  return `${endpoint.replace(/\/+$/, '')}/${bucket}`;
}

/** `$WEIBO_LOCAL_DIR/s3/data` (default `<repo>/.local/s3/data`): one directory per bucket. */
export function localObjectStoreDataDir(env: Env = process.env): string {
  const root = env.WEIBO_LOCAL_DIR || new URL('../../.local', import.meta.url).pathname;
  return `${root.replace(/\/+$/, '')}/s3/data`;
}

/**
 * The bucket's CORS rules: a page served from any loopback origin (the web client, a Vite dev
 * server on another port) may PUT its upload straight to the presigned URL and read objects back,
 * and sees the ETag. Nothing else is allowed in, like the deployed bucket's rules.
 */
export function localCorsConfigurationXml(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <CORSRule>
    <AllowedOrigin>http://127.0.0.1:*</AllowedOrigin>
    <AllowedOrigin>http://localhost:*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>content-type</AllowedHeader>
    <AllowedHeader>content-length</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>
`;
}

/** An S3 client for the local store: path-style (s3rver serves no per-bucket host names here). */
export function localS3Client(endpoint: string, config: Omit<S3ClientConfig, 'endpoint'> = {}): S3Client {
  return new S3Client({
    region: LOCAL_S3_REGION,
    // A copy: the SDK writes bookkeeping ($source) into the credentials object it is given.
    credentials: { ...LOCAL_S3_CREDENTIALS },
    forcePathStyle: true,
    ...config,
    endpoint,
  });
}

/**
 * True when an S3 server answers on `endpoint` (an unsigned ListBuckets, which s3rver serves)
 * and, if `bucket` is given, that bucket exists.
 */
export async function objectStoreHealthy(endpoint: string, bucket?: string): Promise<boolean> {
  const base = endpoint.replace(/\/+$/, '');
  try {
    const res = await fetch(`${base}/`, { signal: AbortSignal.timeout(3_000) });
    if (res.status !== 200 || !(await res.text()).includes('<ListAllMyBucketsResult')) return false;
    if (bucket === undefined) return true;
    const head = await fetch(`${base}/${bucket}`, { method: 'HEAD', signal: AbortSignal.timeout(3_000) });
    return head.status === 200;
  } catch {
    return false;
  }
}
