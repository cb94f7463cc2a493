// shared/use-cases/background/purge.ts — a deleted post's comment rows and search entries,
// removed a bounded batch per message. Keeps E's "nothing outlives its post" (docs/consistency.md): reads hide
// those comments at once; this removes the rows later.
import type { FeedDeps } from '../feed-deps.js';
import type { Handled, MessageOf } from './message.js';

/** Search entries deleted per unindex message. */
const ENTRIES_PURGED_PER_MESSAGE = 500;

/**
 * A deleted post's search entries (invariant V: reads hide them at once). Only for a post that
 * is gone — a tombstone is for good, so no text can ever need these entries again.
 */
export async function purgeSearchEntries(
  deps: Pick<FeedDeps, 'posts' | 'search' | 'queue'>,
  msg: MessageOf<'unindex'>,
): Promise<Handled> {
  if ((await deps.posts.lookup(msg.postId)).state === 'live') return { readers: 0, continued: false, inboxCells: 0 };
  await deps.search.remove(msg.postId, msg.terms.slice(0, ENTRIES_PURGED_PER_MESSAGE));
  const rest = msg.terms.slice(ENTRIES_PURGED_PER_MESSAGE);
  if (rest.length > 0) await deps.queue.send({ ...msg, terms: rest });
  return { readers: 0, continued: rest.length > 0, inboxCells: 0 };
}

/** Comment rows deleted per purge-comments message (one scan and that many DELETEs). */
const COMMENTS_PURGED_PER_MESSAGE = 500;

export async function purgeComments(
  deps: Pick<FeedDeps, 'posts' | 'comments' | 'queue'>,
  msg: MessageOf<'purge-comments'>,
): Promise<Handled> {
  // Only for a post that is gone: a forged or early message cannot remove live comments.
  if ((await deps.posts.lookup(msg.postId)).state === 'live') return { readers: 0, continued: false, inboxCells: 0 };
  const removed = await deps.comments.purge(msg.postId, COMMENTS_PURGED_PER_MESSAGE);
  const continued = removed === COMMENTS_PURGED_PER_MESSAGE;
  if (continued) await deps.queue.send(msg);
  return { readers: 0, continued, inboxCells: 0 };
}
