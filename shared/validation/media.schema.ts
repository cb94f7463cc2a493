// shared/validation/media.schema.ts — edge validation for pictures. The use case applies the
// product limits with their own error codes (type, 20 MB); the edge only checks the shapes.
import * as z from 'zod';

export const uploadBody = z.strictObject({
  contentType: z.string().min(1).max(100).meta({
    description:
      'The type the browser will upload: image/jpeg, image/png, image/webp or image/gif. Only a promise: the worker decides the format by the bytes',
  }),
  size: z
    .number()
    .int()
    .min(1)
    .meta({ description: 'The exact size in bytes of the file to upload (at most 20 MB); the upload must match it' }),
  purpose: z.enum(['post', 'avatar', 'cover', 'message']).default('post').meta({
    description:
      'A picture for a post (grid, feed and large sizes), an avatar (square sizes), a profile cover (one banner size, at most 1500 px wide), or a private message (grid and large sizes, stored privately: only the conversation shows it, through URLs signed for 10 minutes)',
  }),
});

export const mediaPath = z.object({
  id: z.string().min(1).max(64).meta({ description: 'A media id, as `POST /media` answered it' }),
});
