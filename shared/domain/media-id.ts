// shared/domain/media-id.ts — domain floor: a media id is 16 random bytes, base64url (22
// characters). Random, so that nobody can guess the key of someone else's upload or picture
// (the objects are served under it), and so the media rows spread over regions without a salt.
import { randomBytes } from 'node:crypto';

export const MEDIA_ID_BYTES = 16;
const MEDIA_ID = /^[A-Za-z0-9_-]{22}$/;

export const newMediaId = (): string => randomBytes(MEDIA_ID_BYTES).toString('base64url');

export const isMediaId = (id: string): boolean =>
  MEDIA_ID.test(id) && Buffer.from(id, 'base64url').length === MEDIA_ID_BYTES;

/** The id's bytes (a media row key), or null for anything that is not a media id. */
export function mediaIdBytes(id: string): Uint8Array | null {
  return isMediaId(id) ? new Uint8Array(Buffer.from(id, 'base64url')) : null;
}

/**
 * What an upload is for: a post's picture, an avatar (other sizes, square), a profile's cover (a
 * wide banner), or a picture in a private message (served only through short-lived signed URLs).
 */
export type MediaPurpose = 'post' | 'avatar' | 'cover' | 'message';
