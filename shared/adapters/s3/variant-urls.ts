// shared/adapters/s3/variant-urls.ts — where a picture's variants live in the bucket and are
// served from. Apart from s3-media-objects.ts so that the functions that only show pictures (feeds,
// profiles) build their URLs without the S3 client.
import type { VariantAccess } from '../../domain/media.js';

/**
 * A variant's key: `media/<id>/<name>.webp` for a public one (ids are random; a new picture is a
 * new id), `private/<id>/<name>.webp` for a message picture's (never served by the CDN: only a
 * presigned GET reads it).
 */
export const variantKey = (id: string, name: string, access: VariantAccess = 'public'): string =>
  `${access === 'private' ? 'private' : 'media'}/${id}/${name}.webp`;

/** Where a browser fetches a variant, under `publicBaseUrl` (the CDN's origin, or the local bucket's URL). */
export function variantUrls(publicBaseUrl: string): (id: string, name: string) => string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return (id, name) => `${base}/${variantKey(id, name)}`;
}
