// shared/use-cases/faces.ts — how a user shows beside what they wrote or did: display name and
// avatar URL (null: none; the client draws initials). Every view that names a user carries one.
//
// Round trips: one multi-get of the named users' rows (UserStore.faces), always run BESIDE a read
// stage the route has anyway, never after it, wherever the handles are known by then: a post
// id names its author, so the timeline reads its authors' faces beside the posts; a list reads
// its people's faces beside the check of their edges. Comments and notifications learn their
// people from their first read and spend one more stage (shared/schema/tables.ts users). Feeds
// (the home timeline, topic pages) read through a one-minute cache of faces (FeedDeps.feedFaces):
// a page of familiar authors then costs no read at all.
// Only active users have faces (ports/user-store.ts): whatever a view shows beside a face it
// leaves out when the face is missing, so an account that left (leave.ts) shows nowhere.
import type { FaceDirectory, UserFace } from '../ports/user-store.js';
import type { Pictures } from './media/attach.js';

/** The avatar sizes the worker makes (ports/image-processor.ts): cards, and the profile page. */
export const AVATAR_SMALL = 'avatar-96';
export const AVATAR_LARGE = 'avatar-400';
/** A profile's cover picture (VARIANT_NAMES.cover). */
export const COVER = 'cover';

export interface Face {
  handle: string;
  displayName: string;
  /** The small avatar's URL (96 px square), or null. */
  avatar: string | null;
}

export type Faces = ReadonlyMap<string, Face>;

type FaceDeps = { users: FaceDirectory; pictures?: Pictures | undefined };

/** Where an avatar (a media id) is served in `size`; null when none (or pictures are off). */
export const avatarUrl = (pictures: Pictures | undefined, mediaId: string | undefined, size: string): string | null =>
  mediaId && pictures ? pictures.variantUrl(mediaId, size) : null;

export const faceFrom = (pictures: Pictures | undefined, u: UserFace): Face => ({
  handle: u.handle,
  displayName: u.displayName,
  avatar: avatarUrl(pictures, u.avatar, AVATAR_SMALL),
});

/** The faces of `handles` (one multi-get, or none when empty; `from` another directory than `users`, e.g. the feeds' cache). */
export async function readFaces(
  deps: FaceDeps,
  handles: Iterable<string>,
  from: FaceDirectory = deps.users,
): Promise<Faces> {
  const wanted = [...new Set(handles)];
  if (wanted.length === 0) return new Map();
  const found = await from.faces(wanted);
  return new Map([...found].map(([h, u]) => [h, faceFrom(deps.pictures, u)]));
}

/** A user's face, or a plain one (the handle as name, no avatar) for a user not found (the actor of a request, whose own answer shows it). */
export const faceOf = (faces: Faces, handle: string): Face =>
  faces.get(handle) ?? { handle, displayName: handle, avatar: null };

/** Each item with the face of the user it names (`handle`); an item naming no active user (one who left) is left out. */
export const withFaces = <T extends { handle: string }>(items: T[], faces: Faces): (T & { face: Face })[] =>
  items.flatMap((item) => {
    const face = faces.get(item.handle);
    return face ? [{ ...item, face }] : [];
  });

/** Two reads' faces as one. */
export const mergeFaces = (...all: Faces[]): Faces => new Map(all.flatMap((f) => [...f]));
