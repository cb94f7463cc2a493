// shared/adapters/s3/variant-urls.ts — where a picture's variants live in the bucket and are
// served from. Apart from s3-media-objects.ts so that the functions that only show pictures (feeds,
// profiles) build their URLs without the S3 client.

/** A variant's key: `media/<id>/<name>.webp` (ids are random; a new picture is a new id). */
export const variantKey = (id: string, name: string): string => `media/${id}/${name}.webp`;

/** Where a browser fetches a variant, under `publicBaseUrl` (the CDN's origin, or the local bucket's URL). */
export function variantUrls(publicBaseUrl: string): (id: string, name: string) => string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return (id, name) => `${base}/${variantKey(id, name)}`;
}
