// web/src/features/media/limits.ts — the picture rules the composer checks before uploading, so
// a refusal is said at once, in the same words as the API's codes. The API stays the judge
// (shared/domain/media.ts); test/unit/web-media-limits.test.ts keeps these equal to its values.

/** What a picture may be declared as (the presigned upload is signed for exactly this type). */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
/** Weibo's limit on one file, in bytes. */
export const PICTURE_MAX_BYTES = 20 * 1024 * 1024;
/** Weibo's 九宫格: at most nine pictures a post. */
export const PICTURES_PER_POST = 9;
/** Alt text, in Unicode code points. */
export const ALT_MAX = 1500;

/** The API's error code for a file it would refuse by its declared type or size, or null. */
export function precheck(file: { type: string; size: number }): 'media_type_refused' | 'media_too_large' | null {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type)) return 'media_type_refused';
  if (file.size > PICTURE_MAX_BYTES) return 'media_too_large';
  return null;
}
