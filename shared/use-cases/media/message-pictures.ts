// shared/use-cases/media/message-pictures.ts — pictures in a private message, for the messages
// use case. Uploaded with purpose `message`: the worker stores their variants (`thumb`, `large`)
// under private/, which nothing serves publicly; a reader gets short-lived signed URLs, made
// when the conversation is read. A picture belongs to one message: sending claims it
// (MediaStore.attach, the check-and-put on m:a) with the claim `dm:<conversation>:<sender>:<clientId>`
// (a retry of the same send claims again, the same claim); the cleanup job and the discard
// worker keep a picture so claimed whatever its age (discard.ts). Recalling or erasing the
// message releases it: marked discarding (while still this message's), then the worker removes
// its objects and its record.
import { ConflictError, InvalidInputError } from '../../domain/errors.js';
import { isMessageClaim, MESSAGE_PICTURE_URL_SECONDS } from '../../domain/media.js';
import { isMediaId } from '../../domain/media-id.js';
import type { MediaRecord } from '../../ports/media-store.js';
import type { Pictures } from './attach.js';
import { discardPictures } from './attach.js';

/** What a message keeps of each of its pictures: the id and the size to reserve. */
export interface StoredMessagePicture {
  id: string;
  width: number;
  height: number;
}

/** A message picture as a reader gets it: URLs signed for a few minutes (private/ keys). */
export interface MessagePictureView {
  id: string;
  width: number;
  height: number;
  urls: { thumb: string; large: string };
}

/** The variants a reader is given (the purpose's: ports/image-processor.ts VARIANT_NAMES.message). */
const SHOWN = ['thumb', 'large'] as const;

/** A release that a claim retry keeps overtaking is left after this many reads (the job never removes a claimed picture). */
const MARK_ATTEMPTS = 3;

/**
 * The requested pictures' records, in order, after the checks: each the sender's own upload with
 * purpose `message` (422 `media_not_found` otherwise — a post picture, an avatar or someone
 * else's id is not there to send), ready (409 `media_not_ready`), and held by no message yet
 * (409 `media_in_use`; `claim` names the message being sent, whose retry finds its own claim).
 * One multi-get.
 */
export async function checkMessagePictures(
  pictures: Pictures | undefined,
  sender: string,
  ids: readonly string[],
  claim?: string,
): Promise<MediaRecord[]> {
  return checked(pictures, sender, ids, { inUse: true, claim });
}

async function checked(
  pictures: Pictures | undefined,
  sender: string,
  ids: readonly string[],
  opts: { inUse: boolean; claim?: string | undefined },
): Promise<MediaRecord[]> {
  if (ids.length === 0) return [];
  if (!pictures) throw new Error('pictures are not configured (MEDIA_BUCKET, MEDIA_BASE_URL)');
  if (new Set(ids).size !== ids.length)
    throw new InvalidInputError('Each picture can be sent once in a message', 'validation_failed');
  const found = ids.every(isMediaId) ? await pictures.media.getMany([...ids]) : new Map<string, MediaRecord>();
  return ids.map((id) => {
    const m = found.get(id);
    if (!m || m.discarding || m.owner !== sender || m.purpose !== 'message')
      throw new InvalidInputError(`No picture ${id} of yours to send`, 'media_not_found');
    if (m.state !== 'ready')
      throw new ConflictError(
        `Picture ${id} is ${m.state === 'failed' ? 'refused' : 'not processed yet'}`,
        'media_not_ready',
      );
    if (opts.inUse && m.attachedTo !== undefined && m.attachedTo !== opts.claim)
      throw new ConflictError(`Picture ${id} is already in another message`, 'media_in_use');
    return m;
  });
}

/**
 * Claims every picture for the message `claim` (`dm:<conversation>:<sender>:<clientId>`) at `at`:
 * the check-and-puts in parallel, one round trip. If another message holds one of them, the
 * ones claimed here are given back (free again, not discarded: the sender may send them in
 * another message) and the answer is 409 `media_in_use`.
 */
export async function claimMessagePictures(
  pictures: Pictures | undefined,
  held: readonly (string | { id: string })[],
  claim: string,
  at: number,
): Promise<void> {
  const ids = idsOf(held);
  if (ids.length === 0) return;
  assertMessageClaim(claim);
  const media = pictures!.media;
  const won = await Promise.all(ids.map((id) => media.attach(id, claim, at)));
  if (won.every(Boolean)) return;
  await Promise.all(ids.filter((_, i) => won[i]).map((id) => media.detach(id, claim)));
  throw new ConflictError('One of these pictures is already in another message', 'media_in_use');
}

/**
 * A recalled or erased message's pictures go: each still claimed by `claim` is marked discarding
 * (conditional on the claim as read: of this and a retry's claim racing, the mark is taken again
 * on what the retry wrote), then its discard is queued and the worker removes its objects and
 * record. A picture another message or nothing holds is not this message's and is left. One
 * multi-get, one round of check-and-puts, one message each. Answers the ids released.
 */
export async function releaseMessagePictures(
  pictures: Pictures | undefined,
  held: readonly (string | { id: string })[],
  claim: string,
  now = Date.now(),
): Promise<string[]> {
  const ids = idsOf(held).filter(isMediaId);
  if (ids.length === 0 || !pictures) return [];
  assertMessageClaim(claim);
  const media = pictures.media;
  const released: string[] = [];
  let pending = ids;
  for (let attempt = 0; attempt < MARK_ATTEMPTS && pending.length > 0; attempt++) {
    const found = await media.getMany(pending);
    const ours = pending.flatMap((id) => {
      const m = found.get(id);
      // Being discarded already (an earlier release that stopped before its message): queued again.
      if (m?.discarding) {
        released.push(id);
        return [];
      }
      return m?.attachedTo === claim ? [m] : [];
    });
    const marked = await Promise.all(
      ours.map((m) =>
        media.markDiscarding(m.id, { postId: claim, ...(m.attachedAt === undefined ? {} : { at: m.attachedAt }) }, now),
      ),
    );
    released.push(...ours.filter((_, i) => marked[i]).map((m) => m.id));
    pending = ours.filter((_, i) => !marked[i]).map((m) => m.id);
  }
  await discardPictures(pictures, released);
  return released;
}

/** What a message stores of its (ready) pictures: their ids and sizes. */
export function storedMessagePictures(records: readonly MediaRecord[]): StoredMessagePicture[] {
  return records.map((m) => {
    const d = m.descriptor;
    if (!d) throw new Error(`picture ${m.id} is not processed`);
    return { id: m.id, width: d.width, height: d.height };
  });
}

/**
 * The pictures as a reader is shown them, each variant a GET signed for `ttlSeconds` (10
 * minutes by default) from `now`. Signing is computed in the function (a few HMACs), with no
 * request to storage: a conversation's page costs no more round trips for its pictures.
 */
export function messagePictureViews(
  pictures: Pictures | undefined,
  stored: readonly StoredMessagePicture[],
  ttlSeconds: number = MESSAGE_PICTURE_URL_SECONDS,
  now: number = Date.now(),
): MessagePictureView[] {
  if (stored.length === 0) return [];
  const signer = pictures?.signer;
  if (!signer) throw new Error('message pictures need a signer: wire the function with signingPictures()');
  return stored.map((p) => {
    const [thumb, large] = SHOWN.map((name) => signer.signedVariantUrl(p.id, name, ttlSeconds, now));
    return { id: p.id, width: p.width, height: p.height, urls: { thumb: thumb!, large: large! } };
  });
}

/**
 * The four operations the messages use case asks of pictures, on `pictures` (which must carry a
 * signer: shared/wiring/message-pictures.ts). `check` leaves "held by another message" to
 * `claim`, the check-and-put that decides it: a retry of a send whose claims landed finds its
 * pictures held by its own claim, which `check` cannot name yet (409 `media_in_use` comes from
 * `claim` when another message holds one).
 */
export function messagePicturesFor(pictures: Pictures): {
  check(sender: string, ids: readonly string[]): Promise<StoredMessagePicture[]>;
  claim(ids: readonly string[], claim: string, at: number): Promise<void>;
  release(ids: readonly string[], claim: string): Promise<void>;
  giveBack(ids: readonly string[], claim: string): Promise<void>;
  view(stored: readonly StoredMessagePicture[]): MessagePictureView[];
} {
  return {
    check: async (sender, ids) => storedMessagePictures(await checked(pictures, sender, ids, { inUse: false })),
    claim: (ids, claim, at) => claimMessagePictures(pictures, ids, claim, at),
    release: async (ids, claim) => void (await releaseMessagePictures(pictures, ids, claim)),
    giveBack: async (ids, claim) => void (await Promise.all(idsOf(ids).map((id) => pictures.media.detach(id, claim)))),
    view: (stored) => messagePictureViews(pictures, stored),
  };
}

const idsOf = (held: readonly (string | { id: string })[]): string[] => [
  ...new Set(held.map((p) => (typeof p === 'string' ? p : p.id))),
];

function assertMessageClaim(claim: string): void {
  if (!isMessageClaim(claim)) throw new Error(`a message picture's claim starts with dm: (got "${claim}")`);
}
