// shared/domain/visibility.ts — who hides whom (a product rule; no storage here). A user blocks or
// mutes another; what those edges mean for what one user sees of another is decided here, from
// the edges a store found. The stores only answer which edges exist (ports/social-store.ts).

export type SafetyKind = 'block' | 'mute';

/** One block or mute: `from` blocks (or mutes) `to`. */
export interface SafetyEdge {
  kind: SafetyKind;
  from: string;
  to: string;
}

/** A viewer and a user whose content or actions the viewer might see. */
export interface ViewerPair {
  viewer: string;
  other: string;
}

/**
 * The edges that, if any exists, hide `other` from `viewer`: the viewer blocks or mutes them,
 * or they block the viewer. A mute is one-sided: the muted user notices nothing. Nobody is
 * hidden from themself.
 */
export function edgesThatHide({ viewer, other }: ViewerPair): SafetyEdge[] {
  if (viewer === other) return [];
  return [
    { kind: 'block', from: viewer, to: other },
    { kind: 'mute', from: viewer, to: other },
    { kind: 'block', from: other, to: viewer },
  ];
}

const edgeId = (e: SafetyEdge) => `${e.kind}\u0000${e.from}\u0000${e.to}`;

/**
 * The edges that keep `other`'s posts from `viewer` even where the viewer asked for them by name
 * (a post's own page, their bookmarks): a block either way. A mute only quiets what comes to the
 * viewer unasked (timelines, topic pages, notifications).
 */
export function edgesThatBlock({ viewer, other }: ViewerPair): SafetyEdge[] {
  if (viewer === other) return [];
  return [
    { kind: 'block', from: viewer, to: other },
    { kind: 'block', from: other, to: viewer },
  ];
}

/** Of `pairs`, those with a block either way between the viewer and the other, given the edges that exist. */
export function blockedPairs<P extends ViewerPair>(pairs: P[], existing: SafetyEdge[]): P[] {
  const present = new Set(existing.map(edgeId));
  return pairs.filter((p) => edgesThatBlock(p).some((e) => present.has(edgeId(e))));
}

/** Of `pairs`, those in which the viewer must not see the other, given the edges that exist. */
export function hiddenPairs<P extends ViewerPair>(pairs: P[], existing: SafetyEdge[]): P[] {
  const present = new Set(existing.map(edgeId));
  return pairs.filter((p) => edgesThatHide(p).some((e) => present.has(edgeId(e))));
}

/** Every edge whose existence `hiddenPairs` asks about for these pairs, once each. */
export function edgesToCheck(pairs: ViewerPair[]): SafetyEdge[] {
  const unique = new Map<string, SafetyEdge>();
  for (const p of pairs) for (const e of edgesThatHide(p)) unique.set(edgeId(e), e);
  return [...unique.values()];
}

/** A post as the rule sees it: who wrote it and, for a repost, who wrote its original. */
export interface PostAuthors {
  author: string;
  originalAuthor?: string | undefined;
}

/** What a viewer sees of one post: nothing, or the post — with its original withheld or not. */
export interface PostVisibility {
  hidden: boolean;
  /** A repost shown with nothing of its original: the original's author blocks the viewer. */
  originalWithheld: boolean;
}

/**
 * The rule for posts, for one viewer, given the edges that exist among those `edgesToCheck` asked
 * about: a post is hidden when its author, or its original's author, is hidden from the viewer —
 * except the viewer's own posts, which always show. One's mutes and blocks hide others' posts
 * from one, never what one wrote: one's reposts of a muted or blocked user's post stay, with what
 * they repost (Mastodon never filters a reader's own statuses either). Only a block BY the
 * original's author withholds that original from the viewer inside their own repost, as the
 * post's own page refuses it: the repost shows, and is counted, with nothing of the original.
 */
export function postRule(viewer: string, existing: SafetyEdge[]): (post: PostAuthors) => PostVisibility {
  const present = new Set(existing.map(edgeId));
  const hides = (other: string | undefined) =>
    other !== undefined && edgesThatHide({ viewer, other }).some((e) => present.has(edgeId(e)));
  return (post) => {
    if (post.author !== viewer)
      return { hidden: hides(post.author) || hides(post.originalAuthor), originalWithheld: false };
    const withheld =
      post.originalAuthor !== undefined &&
      present.has(edgeId({ kind: 'block', from: post.originalAuthor, to: viewer }));
    return { hidden: false, originalWithheld: withheld };
  };
}
