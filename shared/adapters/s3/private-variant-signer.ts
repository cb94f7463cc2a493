// shared/adapters/s3/private-variant-signer.ts — secondary adapter: signed GET URLs of private
// variants (`private/<id>/<name>.webp`, a message picture's), made with AWS Signature Version 4
// in query-string form, as S3 checks them. Computed here with node:crypto: no S3 client, no
// request, no await — a conversation page signs two URLs per picture at the cost of a few HMACs
// each, and the functions that show messages carry no SDK for it. The URL is the one the SDK's
// presigner makes for a GetObject (test/unit/private-variant-signer.test.ts compares the two):
// deployed the bucket's regional endpoint, virtual-hosted (`https://<bucket>.s3.<region>.
// amazonaws.com/private/…`, the domain the pages' CSP allows in img-src); locally the object
// store's, path-style (`http://127.0.0.1:<port>/<bucket>/private/…`, which
// infra/local/private-gate.ts checks).
import { createHash, createHmac } from 'node:crypto';
import type { PrivateVariantSigner } from '../../ports/media-objects.js';
import { variantKey } from './variant-urls.js';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials (a Lambda's role): carried in the URL as X-Amz-Security-Token. */
  sessionToken?: string | undefined;
}

export interface PrivateVariantSignerOptions {
  bucket: string;
  region: string;
  /** The local object store (path-style); absent deployed (the bucket's regional endpoint). */
  endpoint?: string | undefined;
  /** Read at each signing: a Lambda's role credentials come from its environment. */
  credentials: () => SigningCredentials;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** S3 does not hash a presigned GET's (empty) body. */
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
/** The longest a presigned URL may live on S3 (a week). */
const MAX_EXPIRES_SECONDS = 604_800;

/** RFC 3986 percent-encoding, as SigV4 wants it. */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** `20261128T032359Z`: the ISO 8601 basic form SigV4 dates are written in. */
const amzDate = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/[-:]|\.\d{3}/g, '');

export class SigV4PrivateVariantSigner implements PrivateVariantSigner {
  readonly #origin: string;
  readonly #host: string;
  readonly #pathPrefix: string;
  readonly #region: string;
  readonly #credentials: () => SigningCredentials;
  /** The signing key of one day and secret (it changes daily; HMACs are cheap, four saved per URL). */
  #key: { day: string; secret: string; key: Buffer } | undefined;

  constructor(opts: PrivateVariantSignerOptions) {
    this.#region = opts.region;
    this.#credentials = opts.credentials;
    if (opts.endpoint) {
      const url = new URL(opts.endpoint);
      this.#origin = url.origin;
      this.#host = url.host;
      this.#pathPrefix = `${url.pathname.replace(/\/+$/, '')}/${encode(opts.bucket)}`;
    } else {
      this.#host = `${opts.bucket}.s3.${opts.region}.amazonaws.com`;
      this.#origin = `https://${this.#host}`;
      this.#pathPrefix = '';
    }
  }

  signedVariantUrl(id: string, name: string, seconds: number, now: number = Date.now()): string {
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_EXPIRES_SECONDS)
      throw new Error(`a signed URL lives 1 to ${MAX_EXPIRES_SECONDS} seconds (got ${seconds})`);
    const creds = this.#credentials();
    const date = amzDate(now);
    const day = date.slice(0, 8);
    const scope = `${day}/${this.#region}/s3/aws4_request`;
    const path = `${this.#pathPrefix}/${variantKey(id, name, 'private').split('/').map(encode).join('/')}`;
    const params: [string, string][] = [
      ['X-Amz-Algorithm', ALGORITHM],
      ['X-Amz-Content-Sha256', UNSIGNED_PAYLOAD],
      ['X-Amz-Credential', `${creds.accessKeyId}/${scope}`],
      ['X-Amz-Date', date],
      ['X-Amz-Expires', String(seconds)],
      ...(creds.sessionToken ? ([['X-Amz-Security-Token', creds.sessionToken]] as [string, string][]) : []),
      ['X-Amz-SignedHeaders', 'host'],
    ];
    // Every name above is distinct and already in code-point order once encoded.
    const query = params.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
    const canonical = ['GET', path, query, `host:${this.#host}\n`, 'host', UNSIGNED_PAYLOAD].join('\n');
    const toSign = [ALGORITHM, date, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
    const signature = createHmac('sha256', this.#signingKey(day, creds.secretAccessKey)).update(toSign).digest('hex');
    return `${this.#origin}${path}?${query}&X-Amz-Signature=${signature}`;
  }

  #signingKey(day: string, secret: string): Buffer {
    if (this.#key?.day !== day || this.#key.secret !== secret) {
      const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), this.#region), 's3'), 'aws4_request');
      this.#key = { day, secret, key };
    }
    return this.#key.key;
  }
}
