// shared/use-cases/post-details.ts — a post as every read shows it: its counts (read with the post
// itself, from the same row), the reading user's own state (liked / reposted: one multi-get of
// the reader's reactions rows, in parallel with the content read), its author's face (name and
// avatar: one multi-get of the users' rows, in the same stage — a post id names its author) and,
// for a repost, its original embedded — or a clear "deleted" state, never a 500.
//
// Round trips: the timeline knows a page's originals from its inbox cells, so it asks for posts,
// originals and states in ONE parallel stage (readPostDetails). A read that learns the originals
// only from the posts (an author's list, one post) adds one parallel stage for the originals and
// the states (describePosts).
import { authorOfPostId, NO_COUNTS, type Post, type StoredPost } from '../domain/post.js';
import type { ViewerState } from '../ports/reaction-store.js';
import type { FeedDeps } from './feed-deps.js';
import { faceOf, mergeFaces, readFaces, type Face, type Faces } from './faces.js';

export const NOT_REACTED: ViewerState = Object.freeze({ liked: false, reposted: false });

export interface PostWithViewer extends StoredPost {
  viewer: ViewerState;
  /** The author as shown beside the post. */
  face: Face;
}

/**
 * A repost's original as a reader sees it: live; deleted (its id stays, its content is gone); or
 * withheld from this reader (its author blocks them: nothing of it is shown).
 */
export type EmbeddedOriginal =
  | { state: 'live'; post: PostWithViewer }
  | { state: 'deleted'; id: string }
  | { state: 'withheld'; id: string };

export interface PostDetail extends PostWithViewer {
  original?: EmbeddedOriginal;
}

/** What one read stage brought back: posts by id, the reader's states, which ids were asked, and faces. */
export interface ReadStage {
  posts: Map<string, StoredPost>;
  states: Map<string, ViewerState>;
  asked: Set<string>;
  faces: Faces;
  /** Whose faces were asked for (a face asked and not found is of a user who left: not asked again). */
  facesAsked?: Set<string>;
}

/** Reading posts' details: the posts, the reader's states, the authors' faces (through the feeds' cache when asked). */
export type PostDetailsDeps = Pick<FeedDeps, 'users' | 'posts' | 'reactions' | 'feedFaces' | 'pictures'>;
/** Describing posts already read: faces are read fresh, never through the cache. */
export type DescribeDeps = Pick<FeedDeps, 'users' | 'posts' | 'reactions' | 'pictures'>;

/** Where a read stage takes its authors' faces: fresh from the users' rows, or the feeds' cache (feed-deps.ts). */
export type FacesFrom = 'fresh' | 'feed';

/** A post just created by the reader: nothing counted yet (a replayed one keeps what it has). */
export const freshDetail = (p: Post | StoredPost, face: Face): PostDetail => ({
  counts: NO_COUNTS,
  ...p,
  viewer: NOT_REACTED,
  face,
});

async function readStage(
  deps: PostDetailsDeps,
  reader: string | undefined,
  ids: string[],
  alongside: Promise<unknown>[],
  facesFrom: FacesFrom,
): Promise<ReadStage> {
  const unique = [...new Set(ids)];
  const authors = authorsOf(unique);
  const [posts, states, faces] = await Promise.all([
    unique.length > 0 ? deps.posts.getMany(unique) : Promise.resolve([]),
    reader && unique.length > 0
      ? deps.reactions.viewerState(reader, unique)
      : Promise.resolve(new Map<string, ViewerState>()),
    readFaces(deps, authors, facesFrom === 'feed' ? (deps.feedFaces ?? deps.users) : deps.users),
    ...alongside,
  ]);
  return {
    posts: new Map(posts.map((p) => [p.id, p])),
    states,
    asked: new Set(unique),
    faces,
    facesAsked: new Set(authors),
  };
}

/**
 * Posts (in the order of `ids`; missing and deleted ones left out) with counts, the reader's
 * state and embedded originals. `originals`: what the caller already knows of the reposts among
 * `ids` (post id → original id), so the originals are read in the same stage as the posts;
 * `alongside`: writes to run in that stage too (they add no round trip). `withOriginals`: work
 * on the originals learnt only from the posts (not in `ids`), run in the stage that reads them.
 */
export async function readPostDetails(
  deps: PostDetailsDeps,
  reader: string | undefined,
  ids: string[],
  originals: Record<string, string> = {},
  alongside: Promise<unknown>[] = [],
  facesFrom: FacesFrom = 'fresh',
  withOriginals?: (originalIds: string[]) => Promise<unknown>,
): Promise<Map<string, PostDetail>> {
  const stage = await readStage(
    deps,
    reader,
    [...ids, ...ids.flatMap((id) => originals[id] ?? [])],
    alongside,
    facesFrom,
  );
  const posts = ids.flatMap((id) => stage.posts.get(id) ?? []);
  const details = await describePosts(deps, reader, posts, stage, withOriginals);
  return new Map(details.map((d) => [d.id, d]));
}

/**
 * Details for posts already read (their counts came with them), less those whose author has no
 * face (left, or never was). Reads, in one parallel stage,
 * whatever `known` does not hold yet: originals of reposts, the reader's states, and the faces
 * of the posts' and originals' authors (a caller that knows the authors up front passes their
 * faces in `known`, so no stage is spent on faces alone).
 */
export async function describePosts(
  deps: DescribeDeps,
  reader: string | undefined,
  posts: StoredPost[],
  known?: Partial<ReadStage>,
  withOriginals?: (originalIds: string[]) => Promise<unknown>,
): Promise<PostDetail[]> {
  const asked = known?.asked ?? new Set<string>();
  const knownFaces = known?.faces ?? new Map();
  const missingOriginals = posts.flatMap((p) => (p.repostOf && !asked.has(p.repostOf) ? [p.repostOf] : []));
  const missingStates = reader
    ? [...posts.map((p) => p.id), ...posts.flatMap((p) => p.repostOf ?? [])].filter((id) => !asked.has(id))
    : [];
  const missingFaces = authorsOf(
    posts.map((p) => p.id),
    Object.fromEntries(posts.flatMap((p) => (p.repostOf ? [[p.id, p.repostOf]] : []))),
  ).filter((h) => !knownFaces.has(h) && !known?.facesAsked?.has(h));
  let found: ReadStage = {
    posts: known?.posts ?? new Map<string, StoredPost>(),
    states: known?.states ?? new Map<string, ViewerState>(),
    asked,
    faces: knownFaces,
  };
  if (missingOriginals.length > 0 || missingStates.length > 0 || missingFaces.length > 0) {
    const [originals, states, faces] = await Promise.all([
      missingOriginals.length > 0 ? deps.posts.getMany([...new Set(missingOriginals)]) : Promise.resolve([]),
      reader && missingStates.length > 0
        ? deps.reactions.viewerState(reader, [...new Set(missingStates)])
        : Promise.resolve(new Map<string, ViewerState>()),
      readFaces(deps, missingFaces),
      missingOriginals.length > 0 && withOriginals ? withOriginals([...new Set(missingOriginals)]) : undefined,
    ]);
    found = {
      posts: new Map([...found.posts, ...originals.map((p) => [p.id, p] as const)]),
      states: new Map([...found.states, ...states]),
      asked,
      faces: mergeFaces(found.faces, faces),
    };
  }
  const withViewer = (p: StoredPost): PostWithViewer => ({
    ...p,
    viewer: found.states.get(p.id) ?? NOT_REACTED,
    face: faceOf(found.faces, p.author),
  });
  const shown = (p: StoredPost | undefined) => (p && found.faces.has(p.author) ? p : undefined);
  return posts.flatMap((p) => {
    if (!shown(p)) return [];
    if (!p.repostOf) return [withViewer(p)];
    const original = shown(found.posts.get(p.repostOf));
    return [
      {
        ...withViewer(p),
        original: original ? { state: 'live', post: withViewer(original) } : { state: 'deleted', id: p.repostOf },
      },
    ];
  });
}

/** The authors of a window of post ids and of their reposts' originals (known from the ids). */
export function authorsOf(ids: string[], originals: Record<string, string> = {}): string[] {
  return [...new Set([...ids, ...ids.flatMap((id) => originals[id] ?? [])].flatMap((id) => authorOfPostId(id) ?? []))];
}

/** The repost as shown with nothing of its original (postRule's `originalWithheld`). */
export function withOriginalWithheld(post: PostDetail): PostDetail {
  return post.repostOf === undefined ? post : { ...post, original: { state: 'withheld', id: post.repostOf } };
}
