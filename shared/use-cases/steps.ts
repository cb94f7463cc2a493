// shared/use-cases/steps.ts — named points between the steps of the operations that touch
// several rows or race queued work or each other (HBase is atomic per row only). In production
// nothing listens. Tests pass a hook in the deps' `step` (FeedDeps, LoginDeps) that holds an operation at one of these points
// while another runs, to force one exact interleaving on the real stack
// (test/support/interleave.ts) — instead of running things at once and hoping.
export type StepPoint =
  /** publish: the idempotency key is claimed, the post row not yet written. */
  | 'publish.claimed'
  /** publish: its pictures are claimed for the post id; the post row is not yet written. */
  | 'publish.pictures-attached'
  /** publish / repost: its search entries are written; the post row is not yet. */
  | 'publish.indexed'
  /** delete: the post was read and the actor is its author; the tombstone is not yet written. */
  | 'delete.checked'
  /** follow: the target exists and no block was seen; the edge is not yet written. */
  | 'follow.checked'
  /** follow: the edge is written (both sides); counters, marker and backfill are next. */
  | 'follow.edge-written'
  /** unfollow: the edge is read (or found absent) and the delayed messages are queued; its removal is next. */
  | 'unfollow.edge-read'
  /** unfollow: the edge is removed; the counters are next. */
  | 'unfollow.edge-removed'
  /** unfollow: the marker removal and the inbox purge are next (they run beside the edge's removal). */
  | 'unfollow.view-next'
  /** a change of a group book: the book is read, the commit on its version is next. */
  | 'group.book-read'
  /** group add: the member exists and is followed; the index entry and the commit are next. */
  | 'group.add-checked'
  /** group add: the member is in the group; the second look at the edge is next. */
  | 'group.add-committed'
  /** fan-out / retract / promote / demote: a chunk of followers is read, not yet written to. */
  | 'fanout.readers-read'
  /** promote: every follower's marker is written; the celebrity flag is next. */
  | 'promote.marked'
  /** away (the worker): the reader's follows are marked away; the check for a return is next. */
  | 'away.marked'
  /** regenerate: a chunk of the reader's away marks is cleared; its backfill is next. */
  | 'regenerate.marks-cleared'
  /** backfill (after a follow, a settle or a regeneration): the posts are read, not yet written. */
  | 'backfill.posts-read'
  /** settle: the edge and the celebrity flag are read; the reader's view is not yet repaired. */
  | 'settle.state-read'
  /** repair-relations (the job): a chunk of edges and their other sides are read; no side is written yet. */
  | 'repair.edges-read'
  /** like: the post-side entry is written; the user's like (the truth) and the count are next. */
  | 'like.listed'
  /** like: the user's like (the truth) is written by this request; its count is next. */
  | 'like.won'
  /** unlike: the user's like is removed; the count and the post-side entry are next. */
  | 'unlike.won'
  /** bookmark: its list entry is written; the truth (b:t) is next. */
  | 'bookmark.listed'
  /** unbookmark: the truth is removed by this request; its list entry is next. */
  | 'unbookmark.won'
  /** comment: the post (and the reply-to comment) are read, an Idempotency-Key claimed; the comment is not yet written. */
  | 'comment.checked'
  /** comment: the comment row is written by this request; its count is next. */
  | 'comment.created'
  /** comment delete: the content is dropped (the comment reads as deleted); the tombstone is next. */
  | 'comment.emptied'
  /** comment delete: the tombstone is written by this request; the count is next. */
  | 'comment.deleted'
  /** comment like: the comment's likes and the liker's cell are read; the swap that changes both is next. */
  | 'comment-like.read'
  /** A reply's add or delete read its root's thread summary, before its check-and-put (E3). */
  | 'thread.read'
  /** comment like: the swap landed (liker and count together); the notify is next. */
  | 'comment-like.won'
  /** comment unlike: the liker's like is read; the swap that takes it and the count back is next. */
  | 'comment-unlike.read'
  /** publish / repost: the post row is written by this request; its counts are next. */
  | 'publish.created'
  /** edit: the post and its version are read and the edit allowed; the topic rows and the check-and-put are next. */
  | 'edit.read'
  /** edit: the new text is written by this request (its version won); the trend counts and the notify are next. */
  | 'edit.won'
  /** edit: the new text's topic and search entries are written; the check-and-put is next. */
  | 'edit.indexed'
  /** search: the index lists are read; the candidates' posts are next. */
  | 'search.scanned'
  /** delete: the tombstone is written by this request; the counts are next. */
  | 'delete.won'
  /** plain repost: the (user, original) claim is taken; the repost post is not yet created. */
  | 'repost.claimed'
  /** tally (a delayed notify or settle): a fact's truth and marks are judged; owed count changes are claimed and applied next. */
  | 'tally.judged'
  /** tally: this delivery holds the claim on an owed change; the change and its mark are applied next. */
  | 'tally.claimed'
  /** notify (the worker): the fact's source of truth is read; the notification is not yet written. */
  | 'notify.truth-read'
  /** notify (the worker): a member's instances are swapped; its group's state is not yet changed. */
  | 'notify.member-written'
  /** notify (the worker): a group's state is read; its conditional swap is next (again after a lost race). */
  | 'notify.group-read'
  /** login: the attempt is counted (source and global); nothing is decided or verified yet. */
  | 'login.counted'
  /** login: the attempt passed the throttle; its password is verified next. */
  | 'login.verifying'
  /** login: the password is right; an outdated hash record is not yet re-hashed. */
  | 'login.verified'
  /** login: a deactivated account is restored (or was active); the session is not yet started. */
  | 'login.restored'
  /** leave: the password is right and the standing read active; the deactivation is not yet written. */
  | 'leave.verified'
  /** erasure: the standing read deactivated and due; the release is scheduled next, then the standing moved to erased. */
  | 'erase.read'
  /** export: where the user's export stands is read; nothing is queued or asked yet. */
  | 'export.read'
  /** refresh: the session is read and the token is its current one; the rotation is not yet written. */
  | 'refresh.read'
  /** register: the new naming's people index entries are written; the user row is not yet created. */
  | 'register.indexed'
  /** rename: the new naming's people index entries are written; the user row's check-and-put is next. */
  | 'rename.indexed'
  /** rename: the user row holds the new naming (this request won); the old naming's entries are removed next. */
  | 'rename.won'
  /** upload: its Idempotency-Key is claimed for the media id (and the write limit passed); the record is not yet made. */
  | 'upload.claimed'
  /** avatar: the picture is claimed for the user; the user row's avatar is not yet swapped to it. */
  | 'avatar.claimed'
  /** avatar: the user row's avatar is swapped; the replaced picture is not yet given back. */
  | 'avatar.swapped'
  /** live: an append read the reader's log head; its check-and-put at the next position is next. */
  | 'live.head-read'
  /** a conversation's change (a message, a read marker, a recall, an answer, a fence) is decided from the state read; its list entries and commit are next. */
  | 'message.decided'
  /** a delete-for-me read the conversation (the message exists); its conditional mark is next. */
  | 'message.hide-read'
  /** a conversation's change wrote its new list entries; its commit is next. */
  | 'message.listed'
  /** a conversation's change is committed; the side counts, the replaced entries and the live events are next. */
  | 'message.committed';

export type StepHook = (point: StepPoint, detail: Readonly<Record<string, string>>) => Promise<void>;

export function atStep(deps: { step?: StepHook }, point: StepPoint, detail: Record<string, string>): Promise<void> {
  return deps.step ? deps.step(point, detail) : Promise.resolve();
}
