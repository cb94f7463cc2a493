// shared/use-cases/avatar.ts — set or remove your avatar or your cover: a picture uploaded with
// purpose `avatar` (the worker makes it square, 96 and 400 px) or `cover` (one banner size),
// through the same pipeline as a post's. The cover moves exactly as the avatar does, on its own
// cell (p:cv), with the same claim: a user's profile pictures are all claimed '@<handle>'.
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
import type { UserProfile, UserStore } from '../ports/user-store.js';
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

/** What a picture's claim says when it is a user's avatar or cover (never a post id: those have no '@'). */
export const avatarClaim = (handle: string) => `@${handle}`;

/** Which of the profile's pictures a change moves: its purpose, its cell, and what a lost race answers. */
interface Slot {
  purpose: 'avatar' | 'cover';
  current(profile: UserProfile | null): string | null;
  replace(users: UserStore, handle: string, from: string | null, to: string | null): Promise<boolean>;
  conflict: 'avatar_conflict' | 'cover_conflict';
}
const AVATAR: Slot = {
  purpose: 'avatar',
  current: (p) => p?.avatar ?? null,
  replace: (users, handle, from, to) => users.replaceAvatar(handle, from, to),
  conflict: 'avatar_conflict',
};
const COVER: Slot = {
  purpose: 'cover',
  current: (p) => p?.cover ?? null,
  replace: (users, handle, from, to) => users.replaceCover(handle, from, to),
  conflict: 'cover_conflict',
};

function usable(media: MediaRecord | null, owner: string, slot: Slot): MediaRecord {
  if (!media || media.owner !== owner || media.purpose !== slot.purpose)
    throw new InvalidInputError(`No ${slot.purpose} picture of yours with this id`, 'media_not_found');
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
export function setAvatar(deps: AvatarDeps, actor: string, handle: string, mediaId: string) {
  return setPicture(deps, AVATAR, actor, handle, mediaId);
}

/** The cover, as setAvatar: a picture uploaded with purpose `cover`, claimed, then swapped on p:cv. */
export function setCover(deps: AvatarDeps, actor: string, handle: string, mediaId: string) {
  return setPicture(deps, COVER, actor, handle, mediaId);
}

/** Back to initials: p:av swapped to none, the picture given back. Removing none is a no-op. */
export function removeAvatar(deps: AvatarDeps, actor: string, handle: string) {
  return removePicture(deps, AVATAR, actor, handle);
}

/** Back to the plain band: p:cv swapped to none, the picture given back. Removing none is a no-op. */
export function removeCover(deps: AvatarDeps, actor: string, handle: string) {
  return removePicture(deps, COVER, actor, handle);
}

async function setPicture(deps: AvatarDeps, slot: Slot, actor: string, handle: string, mediaId: string) {
  actAs(actor, handle);
  const pictures = requirePictures(deps);
  const [profile, media] = await Promise.all([
    deps.users.profile(handle),
    isMediaId(mediaId) ? pictures.media.get(mediaId) : Promise.resolve(null),
  ]);
  if (!profile) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  usable(media, handle, slot);
  if (!(await pictures.media.attach(mediaId, avatarClaim(handle), Date.now())))
    throw new ConflictError('The picture is already in use', 'media_in_use');
  await atStep(deps, 'avatar.claimed', { actor, mediaId });
  await swapPicture(deps, slot, pictures, handle, slot.current(profile), mediaId);
  return getProfile(deps, handle);
}

async function removePicture(deps: AvatarDeps, slot: Slot, actor: string, handle: string) {
  actAs(actor, handle);
  const pictures = requirePictures(deps);
  const profile = await deps.users.profile(handle);
  if (!profile) throw new NotFoundError(`No user "${handle}"`, 'user_not_found');
  const current = slot.current(profile);
  if (current !== null) await swapPicture(deps, slot, pictures, handle, current, null);
  return getProfile(deps, handle);
}

async function swapPicture(
  deps: AvatarDeps,
  slot: Slot,
  pictures: Pictures,
  handle: string,
  seen: string | null,
  to: string | null,
): Promise<void> {
  let from = seen;
  for (let attempt = 0; attempt < SWAP_ATTEMPTS; attempt++) {
    if (from === to) return;
    if (await slot.replace(deps.users, handle, from, to)) {
      await atStep(deps, 'avatar.swapped', { actor: handle, ...(to ? { mediaId: to } : {}) });
      // The replaced picture is nobody's now; the cleanup job discards it (tables.ts media).
      if (from !== null) await pictures.media.detach(from, avatarClaim(handle));
      return;
    }
    from = slot.current(await deps.users.profile(handle)); // another change won: swap from what it left
  }
  throw new ConflictError(`Your ${slot.purpose} is being changed by another request; try again`, slot.conflict);
}

function requirePictures(deps: AvatarDeps): Pictures {
  if (!deps.pictures) throw new Error('pictures are not configured (MEDIA_BUCKET, MEDIA_BASE_URL)');
  return deps.pictures;
}
