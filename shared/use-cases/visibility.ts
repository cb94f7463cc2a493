// shared/use-cases/visibility.ts — whom a reader must not see, and whom an actor must not notify:
// the edges asked of the block store in ONE multi-get, the rule applied by the domain
// (shared/domain/visibility.ts). Used by every list that shows other users' content (timelines,
// topic pages, a user's reposts, notifications) and by the notification worker.
import { authorOfPostId } from '../domain/post.js';
import {
  blockedPairs,
  edgesThatBlock,
  edgesToCheck,
  hiddenPairs,
  postRule,
  type PostVisibility,
  type ViewerPair,
} from '../domain/visibility.js';
import type { FeedDeps } from './feed-deps.js';

async function hidden<P extends ViewerPair>(deps: Pick<FeedDeps, 'blocks'>, pairs: P[]): Promise<P[]> {
  const edges = edgesToCheck(pairs);
  if (edges.length === 0) return [];
  return hiddenPairs(pairs, await deps.blocks.existing(edges));
}

/**
 * Of `others`, those `reader` must not see: the reader blocks or mutes them, or they block the
 * reader. One multi-get of three rows per other user.
 */
export async function hiddenFrom(
  deps: Pick<FeedDeps, 'blocks'>,
  reader: string,
  others: string[],
): Promise<Set<string>> {
  const pairs = [...new Set(others)].map((other) => ({ viewer: reader, other }));
  return new Set((await hidden(deps, pairs)).map((p) => p.other));
}

/**
 * Of `others`, those with a block either way between them and `reader` (edgesThatBlock): whose
 * posts stay kept from the reader even where they asked for them — a post's page, their
 * bookmarks. One multi-get of two rows per other user.
 */
export async function blockedWith(
  deps: Pick<FeedDeps, 'blocks'>,
  reader: string,
  others: string[],
): Promise<Set<string>> {
  const pairs = [...new Set(others)].map((other) => ({ viewer: reader, other }));
  const edges = pairs.flatMap(edgesThatBlock);
  if (edges.length === 0) return new Set();
  return new Set(blockedPairs(pairs, await deps.blocks.existing(edges)).map((p) => p.other));
}

/** A post as a list holds it: its id (which names its author) and, for a repost, its original's id. */
export interface ListedPost {
  id: string;
  repostOf?: string | undefined;
}

/**
 * What `reader` sees of posts by `authors` (and of reposts of their posts): the edges asked in
 * the same one multi-get as `hiddenFrom`, the rule of the domain (`postRule`: the reader's own
 * posts always show, with their original withheld where its author blocks the reader).
 */
export async function postVisibilityFor(
  deps: Pick<FeedDeps, 'blocks'>,
  reader: string,
  authors: string[],
): Promise<(post: ListedPost) => PostVisibility> {
  const edges = edgesToCheck([...new Set(authors)].map((other) => ({ viewer: reader, other })));
  const rule = postRule(reader, edges.length === 0 ? [] : await deps.blocks.existing(edges));
  return (post) =>
    rule({
      author: authorOfPostId(post.id) ?? '',
      originalAuthor: post.repostOf === undefined ? undefined : (authorOfPostId(post.repostOf) ?? undefined),
    });
}

/**
 * Of `recipients`, those who must get no notification from `actor`: the same rule with the
 * recipient as the viewer (they block or mute the actor, or the actor blocks them). One multi-get.
 */
export async function silencedRecipients(
  deps: Pick<FeedDeps, 'blocks'>,
  actor: string,
  recipients: string[],
): Promise<Set<string>> {
  const pairs = [...new Set(recipients)].map((viewer) => ({ viewer, other: actor }));
  return new Set((await hidden(deps, pairs)).map((p) => p.viewer));
}
