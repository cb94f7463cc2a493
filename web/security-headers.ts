// web/security-headers.ts — the security headers of the web client's pages, in one place:
// web/serve.ts sends them locally; infra/resources/web.yml (WebResponseHeadersPolicy) sends the
// same deployed, and test/packaging/serverless-package.test.ts holds the two to the same text.
// The policy allows no inline script (index.html and api-docs/ load only files), no framing
// (clickjacking), and outside the origin only the object store: pictures (img-src) and the
// presigned upload PUT (connect-src). Locally that is s3rver's origin; deployed, public pictures
// come from the same origin (/media/*), while a private message's pictures (GETs presigned on
// private/) and uploads go to the media bucket's regional domain.

export interface PolicyOrigins {
  /** Where pictures are read from besides this origin (local: s3rver; deployed: the media bucket, for message pictures). */
  images: string[];
  /** Where the page may send requests besides this origin (the presigned upload PUT). */
  connect: string[];
}

export function contentSecurityPolicy(origins: PolicyOrigins): string {
  const list = (xs: string[]) => xs.map((x) => ` ${x}`).join('');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    // data: for the favicon and the API reference's icons; blob: for the composer's previews.
    `img-src 'self' data: blob:${list(origins.images)}`,
    `connect-src 'self'${list(origins.connect)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const REFERRER_POLICY = 'no-referrer';
/** A year; without includeSubDomains/preload (the domain is CloudFront's or the operator's). */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** The headers of every page and static file (lowercase names, as node:http writes them). */
export function securityHeaders(origins: PolicyOrigins): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(origins),
    'referrer-policy': REFERRER_POLICY,
    // Browsers ignore it over plain http (localhost), so it is harmless locally.
    'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}
