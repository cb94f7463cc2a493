// shared/use-cases/avatar.ts — set or remove your avatar: a picture uploaded with purpose
// `avatar` (the worker makes it square, 96 and 400 px), through the same pipeline as a post's.
//
// Two rows move, so the order is what keeps invariant L (docs/consistency.md): the
// picture is CLAIMED for the user first (m:a = '@<handle>', a check-and-put: a picture is in at
// most one post or avatar), THEN the user row's p:av is swapped from the avatar read to the new
// one (a check-and-put: of two racing changes each swaps from what it saw, and a loser reads
// again), and only then is the replaced picture given back. So the current avatar is always
// claimed by its user, and the cleanup job, which discards '@' claims that are not the user's
// current avatar only once they are a day old, never takes one that is in use or being set.
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.js';
import { isMediaId } from '../domain/media-id.js';
import type { MediaRecord } from '../ports/media-store.js';
import type { UserStore } from '../ports/user-store.js';
import { getProfile } from './get-profile.js';
import type { Pictures } from './media/attach.js';
import { atStep, type StepHook } from './steps.js';
import { actAs } from './users.js';

export interface AvatarDeps {
  users: UserStore;
  pictures?: Pictures | undefined;
  step?: StepHook;
}

/** Rounds of read-and-swap before a change racing others gives up (409). */
const SWAP_ATTEMPTS = 3;

/** What a picture's claim says when it is a user's avatar (never a post id: those have no '@'). */
export const avatarClaim = (handle: string) => `@${handle}`;

function usable(media: MediaRecord | null, owner: string): MediaRecord {
  if (!media || media.owner !== owner || media.purpose !== 'avatar')
    throw new InvalidInputError('No avatar picture of yours with this id', 'media_not_found');
  if (media.state !== 'ready')
    throw new ConflictError(
      `The picture is ${media.state === 'failed' ? 'refused' : 'not processed yet'}`,
      'media_not_ready',
    );
  if (media.attachedTo !== undefined && media.attachedTo !== avatarClaim(owner))
    throw new ConflictError('The picture is already in use', 'media_in_use');
  return media;
}

/**
 * Steps: only yourself (403) → the profile (404) and the picture (422 `media_not_found` unless
 * your own avatar upload; 409 `media_not_ready`, `media_in_use`) in one round trip → claim the
 * picture (409 `media_in_use` if a post or another claim won it) → swap p:av from the avatar
 * read to this one (a racing change: read again, at most SWAP_ATTEMPTS) → give back the
 * replaced picture → the profile as it is now.
 */
export async function setAvatar(deps: AvatarDeps, actor: string, handle: string, mediaId: string) {
  actAs(actor, handle);
  const pictures = requirePictures(deps);
  const [profile, media] = await Promise.all([
    deps.users.profile(handle),
    isMediaId(mediaId) ? pictures.media.get(mediaId) : Promise.resolve(null),
  ]);
  if (!profile) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  usable(media, handle);
  if (!(await pictures.media.attach(mediaId, avatarClaim(handle), Date.now())))
    throw new ConflictError('The picture is already in use', 'media_in_use');
  await atStep(deps, 'avatar.claimed', { actor, mediaId });
  await swapAvatar(deps, pictures, handle, profile.avatar ?? null, mediaId);
  return getProfile(deps, handle);
}

/** Back to initials: p:av swapped to none, the picture given back. Removing none is a no-op. */
export async function removeAvatar(deps: AvatarDeps, actor: string, handle: string) {
  actAs(actor, handle);
  const pictures = requirePictures(deps);
  const profile = await deps.users.profile(handle);
  if (!profile) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  if (profile.avatar !== undefined) await swapAvatar(deps, pictures, handle, profile.avatar, null);
  return getProfile(deps, handle);
}

async function swapAvatar(
  deps: AvatarDeps,
  pictures: Pictures,
  handle: string,
  seen: string | null,
  to: string | null,
): Promise<void> {
  let from = seen;
  for (let attempt = 0; attempt < SWAP_ATTEMPTS; attempt++) {
    if (from === to) return;
    if (await deps.users.replaceAvatar(handle, from, to)) {
      await atStep(deps, 'avatar.swapped', { actor: handle, ...(to ? { mediaId: to } : {}) });
      // The replaced picture is nobody's now; the cleanup job discards it (tables.ts media).
      if (from !== null) await pictures.media.detach(from, avatarClaim(handle));
      return;
    }
    from = (await deps.users.profile(handle))?.avatar ?? null; // another change won: swap from what it left
  }
  throw new ConflictError('Your avatar is being changed by another request; try again', 'avatar_conflict');
}

function requirePictures(deps: AvatarDeps): Pictures {
  if (!deps.pictures) throw new Error('pictures are not configured (MEDIA_BUCKET, MEDIA_BASE_URL)');
  return deps.pictures;
}
