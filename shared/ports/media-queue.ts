// shared/ports/media-queue.ts — the media worker's queue (its own, beside the fan-out's: image
// work needs other memory and time, and must not hold up timelines). Messages are validated with
// zod by the worker; anything that does not parse is poison and ends in the media DLQ.
import * as z from 'zod';

export const MediaMessage = z.discriminatedUnion('type', [
  /** Process the upload of `mediaId` (sent by the completion call; idempotent). */
  z.object({ v: z.literal(1), type: z.literal('process'), mediaId: z.string().max(64) }),
  /**
   * Remove the picture `mediaId` (its objects, then its record) if it is unreferenced when the
   * worker runs: sent by a post's delete and by the media-cleanup job; idempotent.
   */
  z.object({ v: z.literal(1), type: z.literal('discard'), mediaId: z.string().max(64) }),
]);
export type MediaMessage = z.infer<typeof MediaMessage>;

export interface MediaQueue {
  send(message: MediaMessage): Promise<void>;
}
