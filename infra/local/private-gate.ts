// infra/local/private-gate.ts — the local object store's guard of private/: what S3 does for the
// deployed bucket (no public access; a presigned GET is checked, its signature and its expiry),
// which s3rver does not. s3rver serves any object to anyone without a signature, and for a
// presigned V4 URL it checks only the expiry, never the signature (its authentication
// middleware: "Signature version 4 calculation is unimplemented"). So infra/local/s3-server.ts
// asks this module first, for every GET or HEAD of a key under `<bucket>/private/` (a message
// picture's variants: shared/adapters/s3/variant-urls.ts): anything but a presigned V4 query
// signed with the local keys (object-store.ts), unexpired, is answered 403 here.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { posix } from 'node:path';
import { LOCAL_S3_CREDENTIALS } from './object-store.js';

export type GateVerdict =
  | { pass: true }
  | { pass: false; reason: 'unsigned' | 'malformed' | 'unknown_key' | 'expired' | 'signature_mismatch' };

/** The presigned URL's longest life S3 accepts (a week). */
const MAX_EXPIRES_SECONDS = 604_800;

const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/** Whether a request names a key under `<bucket>/private/` (after decoding and `..`, as the store would resolve it). */
export function isPrivateObject(pathname: string, bucket: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Not decodable: the store cannot resolve it either; treated as private, so it must be signed.
    return true;
  }
  return posix.normalize(decoded).startsWith(`/${bucket}/private/`);
}

/**
 * The verdict on one request to the store: a GET or HEAD of a private object passes only with a
 * valid, unexpired presigned V4 query (X-Amz-Signature) made with the local keys; every other
 * request passes (s3rver handles it as before).
 */
export function privateGate(
  req: {
    method?: string | undefined;
    url?: string | undefined;
    headers: Record<string, string | string[] | undefined>;
  },
  bucket: string,
  now: number = Date.now(),
): GateVerdict {
  const method = (req.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return { pass: true };
  const url = new URL(req.url ?? '/', 'http://local');
  if (!isPrivateObject(url.pathname, bucket)) return { pass: true };
  const q = url.searchParams;
  const signature = q.get('X-Amz-Signature');
  if (!signature) return { pass: false, reason: 'unsigned' };
  const algorithm = q.get('X-Amz-Algorithm');
  const credential = q.get('X-Amz-Credential');
  const amzDate = q.get('X-Amz-Date');
  const expires = Number(q.get('X-Amz-Expires'));
  const signedHeaders = q.get('X-Amz-SignedHeaders');
  if (algorithm !== 'AWS4-HMAC-SHA256' || !credential || !amzDate || !signedHeaders) return fail('malformed');
  if (!Number.isInteger(expires) || expires < 0 || expires > MAX_EXPIRES_SECONDS) return fail('malformed');
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!m) return fail('malformed');
  const signedAt = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const [accessKeyId, day, region, service, terminator, ...rest] = credential.split('/');
  if (!day || !region || !service || terminator !== 'aws4_request' || rest.length > 0) return fail('malformed');
  if (day !== amzDate.slice(0, 8)) return fail('malformed');
  if (accessKeyId !== LOCAL_S3_CREDENTIALS.accessKeyId) return fail('unknown_key');
  if (now > signedAt + expires * 1000) return fail('expired');

  // The canonical request of a presigned S3 GET (SigV4): the path as sent (S3 does not encode it
  // again), every query parameter but the signature, encoded and sorted, the signed headers, and
  // an unsigned payload.
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders.split(';');
  const headerLines = names.map((name) => {
    const value = req.headers[name];
    const text = Array.isArray(value) ? value.join(',') : (value ?? '');
    return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
  });
  const rawPath = (req.url ?? '/').split('?')[0]!;
  const canonical = [method, rawPath, query, headerLines.join(''), signedHeaders, 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${LOCAL_S3_CREDENTIALS.secretAccessKey}`, day), region), service),
    'aws4_request',
  );
  const expected = Buffer.from(createHmac('sha256', key).update(toSign).digest('hex'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail('signature_mismatch');
  return { pass: true };
}

const fail = (reason: Exclude<GateVerdict, { pass: true }>['reason']): GateVerdict => ({ pass: false, reason });

/** The 403 the store answers a refused request with, as S3 words it. */
export function accessDeniedXml(reason: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>AccessDenied</Code><Message>Access Denied (${reason})</Message></Error>
`;
}
