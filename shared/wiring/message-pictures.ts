// shared/wiring/message-pictures.ts — pictures as the private messages show them: what
// shared/wiring/pictures.ts gives the feed, plus a signer for the message pictures' URLs
// (adapters/s3/private-variant-signer.ts: node:crypto, no S3 client). Deployed it signs with the
// function's role credentials (Lambda's environment; the role may read private/:
// infra/stage-settings.cjs, roles.messages) for the bucket's regional endpoint; locally with the
// object store's keys, for its address.
import { LOCAL_S3_CREDENTIALS } from '../adapters/aws-endpoint.js';
import { SigV4PrivateVariantSigner } from '../adapters/s3/private-variant-signer.js';
import { config } from '../config/config.js';
import type { Pictures } from '../use-cases/media/attach.js';
import { messagePicturesFor } from '../use-cases/media/message-pictures.js';
import { pictureDependencies } from './pictures.js';

let signing: Pictures | undefined;
/** The pictures with a signer (messagePictureViews in use-cases/media/message-pictures.ts). */
export function signingPictures(): Pictures {
  if (signing) return signing;
  const cfg = config();
  const endpoint = cfg.S3_ENDPOINT;
  const region = process.env.AWS_REGION ?? 'us-east-1';
  signing = {
    ...pictureDependencies(),
    signer: new SigV4PrivateVariantSigner({
      bucket: cfg.MEDIA_BUCKET!,
      region: endpoint ? 'us-east-1' : region,
      endpoint,
      credentials: endpoint
        ? () => LOCAL_S3_CREDENTIALS
        : () => ({
            accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? '',
            secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? '',
            sessionToken: process.env.AWS_SESSION_TOKEN,
          }),
    }),
  };
  return signing;
}

/** What the messages use case asks of pictures (check, claim, release, view), signed. */
export const messagePictureDependencies = () => messagePicturesFor(signingPictures());
