// web/src/components/avatar.tsx — a user's face wherever a user is named: their picture when the
// API gives one, otherwise generated initials (the first grapheme of the display name, else of
// the handle) on a colour chosen by the handle, so the same person always looks the same.
// Decorative: the handle or name next to it says who it is, so screen readers skip it.
// Also the one place that reads avatars and display names out of the API's views (personOf…),
// and the byline (bold name, muted @handle) every card shows beside the face.
import { href } from '../router';
import type { Comment, Original, Post, Profile } from '../api/client';

// Every colour carries white text at a contrast of at least 6:1 (WCAG AA asks 4.5:1).
const COLOURS = ['#b3261e', '#0b57d0', '#146c2e', '#7b3fb8', '#9a4a00', '#00677f', '#a0185d', '#4d5a67'];

/** Who an avatar shows: the handle always; the display name and picture when the view carries them. */
export interface Person {
  handle: string;
  displayName?: string;
  url?: string;
}

/** The first user-perceived character (an emoji with its modifiers, a CJK character, a letter). */
export function initial(name: string): string {
  const first = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    .segment(name.trim())
    [Symbol.iterator]()
    .next();
  return first.done ? '?' : first.value.segment.toLocaleUpperCase();
}

/** A colour from the handle (FNV-1a): stable across pages, sessions and renames of the display name. */
export function colourOf(handle: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < handle.length; i++) h = Math.imul(h ^ handle.charCodeAt(i), 0x01000193);
  return COLOURS[(h >>> 0) % COLOURS.length]!;
}

export function Avatar({ handle, displayName, url, size = 'small' }: Person & { size?: 'small' | 'large' }) {
  const px = size === 'large' ? 72 : 32;
  if (url) return <img class={`avatar ${size}`} src={url} width={px} height={px} alt="" loading="lazy" />;
  return (
    <span class={`avatar ${size} initials`} style={{ backgroundColor: colourOf(handle) }} aria-hidden="true">
      {initial(displayName || handle)}
    </span>
  );
}

// Every view that names a user carries their display name and avatar URL (null: none): posts,
// originals and comments as authorName / authorAvatar; likers, relation edges, blocked users and
// notification actors as displayName / avatar; a profile also avatarLarge.
const person = (handle: string, displayName: string, avatar: string | null): Person => ({
  handle,
  ...(displayName ? { displayName } : {}),
  ...(avatar ? { url: avatar } : {}),
});

/** The author of a post, of a repost's original, or of a comment. */
export function authorOf(view: Post | Extract<Original, { state: 'live' }> | Comment): Person {
  return person(view.author, view.authorName, view.authorAvatar);
}

/** A user in a list: a liker, a follower or followee, a blocked or muted user, a notification's actor. */
export function personOf(user: { handle: string; displayName: string; avatar: string | null }): Person {
  return person(user.handle, user.displayName, user.avatar);
}

/** A profile's own page: the large picture. */
export function profileFace(profile: Profile): Person {
  return person(profile.handle, profile.displayName, profile.avatarLarge);
}

/**
 * Who wrote it, as Weibo and Mastodon show it: the display name in bold, the @handle muted, one
 * link to the profile. Long names wrap inside their column rather than widen the page.
 */
export function Byline({ handle, displayName }: Person) {
  return (
    <a class="author" href={href.profile(handle)}>
      {displayName && (
        <strong class="name" dir="auto">
          {displayName}
        </strong>
      )}{' '}
      <span class="handle">@{handle}</span>
    </a>
  );
}
