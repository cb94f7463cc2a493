// test/unit/private-variant-signer.test.ts — the signed GET URLs of message pictures
// (shared/adapters/s3/private-variant-signer.ts) are the AWS SDK's: the same signature as the
// SDK's S3 presigner for the same request and instant, on the same endpoint as the SDK's
// GetObject presign resolves deployed (the bucket's regional domain, which the pages' CSP allows),
// under private/ and never the CDN's /media/*. No request is made to sign.
import { createHash, createHmac } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl, S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { SigV4PrivateVariantSigner } from '../../shared/adapters/s3/private-variant-signer.js';
import { messagePictureViews } from '../../shared/use-cases/media/message-pictures.js';
import { FakeMediaQueue, FakeMediaStore } from '../support/fakes/media.js';

const ID = 'AbCdEfGhIjKlMnOpQrStUv';
const BUCKET = 'weibo-prod-media-0123456789ab';
const REGION = 'eu-west-1';
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-a-secret/+x', sessionToken: 'session/+=token' };
const NOW = Date.UTC(2026, 10, 28, 3, 23, 59, 512);

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: SourceData): Buffer | string =>
  typeof d === 'string'
    ? d
    : d instanceof ArrayBuffer
      ? Buffer.from(d)
      : Buffer.from(d.buffer, d.byteOffset, d.byteLength);

/** SHA-256 and its HMAC on node:crypto, in the shape the SDK's signer asks for. */
class Sha256 {
  readonly #h;
  constructor(secret?: SourceData) {
    this.#h = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData) {
    this.#h.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.#h.digest());
  }
}

const deployed = new SigV4PrivateVariantSigner({ bucket: BUCKET, region: REGION, credentials: () => CREDENTIALS });

describe('signed URLs of private variants', () => {
  it('carry the signature the SDK’s S3 presigner makes for the same GET at the same instant', async () => {
    const host = `${BUCKET}.s3.${REGION}.amazonaws.com`;
    const presigner = new S3RequestPresigner({ credentials: CREDENTIALS, region: REGION, sha256: Sha256 });
    for (const [name, seconds] of [
      ['thumb', 600],
      ['large', 1],
    ] as const) {
      const sdk = await presigner.presign(
        {
          method: 'GET',
          protocol: 'https:',
          hostname: host,
          path: `/private/${ID}/${name}.webp`,
          query: {},
          headers: { host },
        },
        { signingDate: new Date(NOW), expiresIn: seconds },
      );
      const ours = new URL(deployed.signedVariantUrl(ID, name, seconds, NOW));
      expect(Object.fromEntries(ours.searchParams)).toEqual(sdk.query);
      expect(`${ours.origin}${ours.pathname}`).toBe(`https://${host}/private/${ID}/${name}.webp`);
    }
  });

  it('deployed: the bucket’s regional endpoint, as the SDK resolves a GetObject there; never the CDN’s /media/*', async () => {
    const client = new S3Client({ region: REGION, credentials: CREDENTIALS });
    const sdk = new URL(
      await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: `private/${ID}/large.webp` }), {
        expiresIn: 600,
      }),
    );
    const ours = new URL(deployed.signedVariantUrl(ID, 'large', 600));
    // infra/stage-settings.cjs mediaBucketDomainName: <bucket>.s3.<region>.<URLSuffix>, the CSP's img-src.
    expect(ours.host).toBe(`${BUCKET}.s3.${REGION}.amazonaws.com`);
    expect(`${ours.origin}${ours.pathname}`).toBe(`${sdk.origin}${sdk.pathname}`);
    expect(ours.pathname.startsWith('/private/')).toBe(true);
    expect(ours.searchParams.get('X-Amz-Security-Token')).toBe(CREDENTIALS.sessionToken);
  });

  it('locally: path-style on the object store’s address; refuses a life S3 would refuse', () => {
    const local = new SigV4PrivateVariantSigner({
      bucket: 'weibo-local-media',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:19000/',
      credentials: () => ({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }),
    });
    const url = new URL(local.signedVariantUrl(ID, 'thumb', 600, NOW));
    expect(`${url.origin}${url.pathname}`).toBe(`http://127.0.0.1:19000/weibo-local-media/private/${ID}/thumb.webp`);
    expect(url.searchParams.has('X-Amz-Security-Token')).toBe(false);
    expect(() => local.signedVariantUrl(ID, 'thumb', 0)).toThrow('1 to 604800 seconds');
    expect(() => local.signedVariantUrl(ID, 'thumb', 604_801)).toThrow('1 to 604800 seconds');
  });

  it('a message’s pictures as a reader gets them: both variants signed for 10 minutes, from stored ids and sizes alone', () => {
    const pictures = {
      media: new FakeMediaStore(),
      variantUrl: () => '',
      queue: new FakeMediaQueue(),
      signer: deployed,
    };
    const [view] = messagePictureViews(pictures, [{ id: ID, width: 800, height: 600 }], undefined, NOW);
    expect(view).toEqual({
      id: ID,
      width: 800,
      height: 600,
      urls: {
        thumb: deployed.signedVariantUrl(ID, 'thumb', 600, NOW),
        large: deployed.signedVariantUrl(ID, 'large', 600, NOW),
      },
    });
    expect(messagePictureViews(undefined, [])).toEqual([]);
    expect(() => messagePictureViews({ ...pictures, signer: undefined }, [{ id: ID, width: 1, height: 1 }])).toThrow(
      'need a signer',
    );
  });
});
