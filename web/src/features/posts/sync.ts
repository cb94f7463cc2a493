// web/src/features/posts/sync.ts — one post, shown several times in a list (as itself and as the
// original inside reposts of it), changes everywhere at once: a like on the original moves the
// counts shown in every repost of it, and a repost's embedded original moves the original's card.
// Typed by shape (no import of the API client): the unit tests run it outside a browser.

interface Counts {
  likeCount: number;
  commentCount: number;
  repostCount: number;
  liked: boolean;
  reposted: boolean;
}
type Live = Counts & { state: 'live'; id: string };
/** A post as the API's views give it (Post): its counts, and its original when it is a repost. */
interface Shown extends Counts {
  id: string;
  repostOf?: Live | { state: 'deleted' | 'withheld' } | null;
}

const countsOf = (p: Counts): Counts => ({
  likeCount: p.likeCount,
  commentCount: p.commentCount,
  repostCount: p.repostCount,
  liked: p.liked,
  reposted: p.reposted,
});

/** The list with `changed` in its place and its counts (or its original's) copied wherever shown. */
export function withChanged<P extends Shown>(items: P[], changed: P): P[] {
  const original = changed.repostOf?.state === 'live' ? changed.repostOf : undefined;
  return items.map((p) => {
    if (p.id === changed.id) return changed;
    let next = p;
    // A post that is the changed one's original, and any other repost embedding that original.
    if (original && p.id === original.id) next = { ...next, ...countsOf(original) };
    const embedded = next.repostOf?.state === 'live' ? next.repostOf : undefined;
    if (embedded && embedded.id === changed.id) next = { ...next, repostOf: { ...embedded, ...countsOf(changed) } };
    else if (embedded && original && embedded.id === original.id)
      next = { ...next, repostOf: { ...embedded, ...countsOf(original) } };
    return next;
  });
}
