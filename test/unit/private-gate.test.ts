// test/unit/private-gate.test.ts — the local object store's guard of private/ (infra/local/private-gate.ts)
// against the URLs the signer makes (shared/adapters/s3/private-variant-signer.ts): a valid one passes; unsigned, tampered, expired, another
// key, another life or another host do not; public keys and writes are not its business.
import { describe, expect, it } from 'vitest';
import { privateGate } from '../../infra/local/private-gate.js';
import { LOCAL_S3_CREDENTIALS } from '../../infra/local/object-store.js';
import { SigV4PrivateVariantSigner } from '../../shared/adapters/s3/private-variant-signer.js';

const BUCKET = 'weibo-local-media';
// Port 9 (discard): nothing listens; signing needs no request.
const signer = new SigV4PrivateVariantSigner({
  bucket: BUCKET,
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9',
  credentials: () => LOCAL_S3_CREDENTIALS,
});
const ID = 'AbCdEfGhIjKlMnOpQrStUv';

const asRequest = (url: string, method = 'GET') => {
  const u = new URL(url);
  return { method, url: `${u.pathname}${u.search}`, headers: { host: u.host } };
};

describe('the gate of private/ on the local object store', () => {
  it('passes a presigned GET or HEAD of a private variant while it is valid, and refuses it after', () => {
    const url = signer.signedVariantUrl(ID, 'thumb', 600);
    expect(url.startsWith(`http://127.0.0.1:9/${BUCKET}/private/${ID}/thumb.webp?`)).toBe(true);
    expect(privateGate(asRequest(url), BUCKET)).toEqual({ pass: true });
    expect(privateGate(asRequest(url, 'HEAD'), BUCKET)).toEqual({ pass: false, reason: 'signature_mismatch' });
    expect(privateGate(asRequest(url), BUCKET, Date.now() + 590_000)).toEqual({ pass: true });
    expect(privateGate(asRequest(url), BUCKET, Date.now() + 601_000)).toEqual({ pass: false, reason: 'expired' });
  });

  it('refuses an unsigned, tampered, re-aimed or longer-lived request', () => {
    const url = new URL(signer.signedVariantUrl(ID, 'large', 600));
    const refused = (u: URL | string, headers?: Record<string, string>) => {
      const req = asRequest(String(u));
      return privateGate({ ...req, headers: headers ?? req.headers }, BUCKET);
    };
    expect(refused(`${url.origin}${url.pathname}`)).toEqual({ pass: false, reason: 'unsigned' });
    const tampered = new URL(url);
    tampered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    expect(refused(tampered)).toEqual({ pass: false, reason: 'signature_mismatch' });
    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace('large', 'thumb');
    expect(refused(otherKey)).toEqual({ pass: false, reason: 'signature_mismatch' });
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '6000');
    expect(refused(longer)).toEqual({ pass: false, reason: 'signature_mismatch' });
    expect(refused(url, { host: 'elsewhere:9' })).toEqual({ pass: false, reason: 'signature_mismatch' });
    const stranger = new URL(url);
    stranger.searchParams.set(
      'X-Amz-Credential',
      (url.searchParams.get('X-Amz-Credential') ?? '').replace('S3RVER', 'AKIA'),
    );
    expect(refused(stranger)).toEqual({ pass: false, reason: 'unknown_key' });
    // The key spelled otherwise is still the private key.
    expect(refused(`http://127.0.0.1:9/${BUCKET}/%70rivate/${ID}/large.webp`)).toEqual({
      pass: false,
      reason: 'unsigned',
    });
    expect(refused(`http://127.0.0.1:9/${BUCKET}/media/../private/${ID}/large.webp`)).toEqual({
      pass: false,
      reason: 'unsigned',
    });
  });

  it('leaves public variants, uploads and writes to the store', () => {
    const pass = { pass: true };
    expect(privateGate({ method: 'GET', url: `/${BUCKET}/media/${ID}/thumb.webp`, headers: {} }, BUCKET)).toEqual(pass);
    expect(privateGate({ method: 'PUT', url: `/${BUCKET}/private/${ID}/thumb.webp`, headers: {} }, BUCKET)).toEqual(
      pass,
    );
    expect(privateGate({ method: 'GET', url: `/${BUCKET}?list-type=2&prefix=private/`, headers: {} }, BUCKET)).toEqual(
      pass,
    );
  });
});
