// test/unit/web-media-limits.test.ts — the composer's picture checks (web/src/features/media/
// limits.ts) say no exactly where the API does (shared/domain/media.ts): same types, same size
// limit, same count and alt length, and the same error code for each refusal.
import { describe, expect, it } from 'vitest';
import { DECLARABLE_TYPES } from '../../shared/domain/media.js';
import {
  ALT_MAX,
  PICTURES_PER_POST,
  PICTURE_MAX_BYTES,
  PICTURE_TYPES,
  precheck,
} from '../../web/src/features/media/limits.js';
import { MAX_ALT_LENGTH, MAX_MEDIA_PER_POST, MAX_UPLOAD_BYTES } from '../../shared/domain/limits.js';

describe('the web client’s picture limits', () => {
  it('are the API’s', () => {
    expect([...PICTURE_TYPES]).toEqual([...DECLARABLE_TYPES]);
    expect(PICTURE_MAX_BYTES).toBe(MAX_UPLOAD_BYTES);
    expect(PICTURES_PER_POST).toBe(MAX_MEDIA_PER_POST);
    expect(ALT_MAX).toBe(MAX_ALT_LENGTH);
  });

  it('refuse by declared type first, then by size, with the API’s codes', () => {
    expect(precheck({ type: 'image/jpeg', size: MAX_UPLOAD_BYTES })).toBeNull();
    expect(precheck({ type: 'image/gif', size: 1 })).toBeNull();
    expect(precheck({ type: 'image/jpeg', size: MAX_UPLOAD_BYTES + 1 })).toBe('media_too_large');
    expect(precheck({ type: 'image/svg+xml', size: 100 })).toBe('media_type_refused');
    expect(precheck({ type: 'image/heic', size: MAX_UPLOAD_BYTES + 1 })).toBe('media_type_refused');
    expect(precheck({ type: '', size: 100 })).toBe('media_type_refused');
  });
});
