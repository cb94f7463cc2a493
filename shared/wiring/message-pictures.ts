// shared/wiring/message-pictures.ts — pictures as the private messages show them: what
// shared/wiring/pictures.ts gives the feed, plus a signer for the message pictures' URLs (the S3
// client, shared/wiring/objects.ts). Only the functions that show or send private messages import
// this; the feed's functions stay free of the S3 client (test/packaging/bundles.test.ts).
import type { Pictures } from '../use-cases/media/attach.js';
import { mediaObjects } from './objects.js';
import { pictureDependencies } from './pictures.js';

let signing: Pictures | undefined;
/**
 * The pictures with a signer: `messagePictureViews` (use-cases/media/message-pictures.ts) signs
 * a GET of each private variant with the function's own credentials (its role may read
 * private/: infra/stage-settings.cjs, roles.messages).
 */
export function signingPictures(): Pictures {
  signing ??= { ...pictureDependencies(), signer: mediaObjects() };
  return signing;
}
