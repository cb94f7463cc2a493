// shared/use-cases/background/settle.ts — the settle message every follow and unfollow queues
// before its first write: makes the reader's view of the followee agree with the edge. The
// mechanism behind A, C and D (docs/consistency.md, "The settle message").
import type { FeedDeps } from '../feed-deps.js';
import { leaveGroupsOf } from '../groups.js';
import { atStep } from '../steps.js';
import { backfill, type BackfillDeps } from './delivery.js';
import type { Handled, MessageOf } from './message.js';
import { settleFollowTally } from './tally.js';

/** A follow's settle: the reader's view of the followee made to agree with the edge, and the follow's counts. */
export type SettleDeps = BackfillDeps & Pick<FeedDeps, 'relations' | 'counters' | 'groups'>;

export interface SettleOutcome extends Handled {
  /** What the reader's view of the followee was made to agree with. */
  settled: 'following' | 'not-following';
  /** Follow count changes applied that their request had been cut before (invariant M). */
  tallied: number;
}

export async function settleMessage(deps: SettleDeps, msg: MessageOf<'settle'>): Promise<SettleOutcome> {
  const { settled, inboxCells, edgeSince } = await settle(deps, msg.reader, msg.followee, msg.at);
  // After the view: the counts of the follow the operation wrote or removed (tally.ts).
  const tally = msg.tally
    ? await settleFollowTally(deps, msg.reader, msg.followee, msg.tally.since, edgeSince, {
        at: msg.at,
        removal: msg.tally.removal,
      })
    : undefined;
  return { readers: 1, continued: false, inboxCells, settled, tallied: tally?.applied ?? 0 };
}

/**
 * Makes `reader`'s view of `followee` agree with the edge (the following side, the source of
 * truth) as it stands now. Runs from the settle message each follow/unfollow queues before its
 * first write, delayed by the settle window — longer than any operation's steps can take — so
 * every write based on an older read of the edge (a fan-out chunk, a backfill, a purge, a
 * promotion or demotion walk) has landed before this reads. Following: the followers side is
 * restored, the celebrity marker set or the recent posts backfilled. Not following: the
 * followers side is removed (unless a later follow wrote it), the marker dropped, the inbox
 * purged of the followee's posts. Idempotent: any number of settles, in any order, after the
 * last operation on the pair, leave the same state (invariants A, C, D in docs/consistency.md).
 */
export async function settle(
  deps: BackfillDeps & Pick<FeedDeps, 'relations' | 'groups'>,
  reader: string,
  followee: string,
  at: number,
): Promise<{ settled: 'following' | 'not-following'; inboxCells: number; edgeSince: number | null }> {
  const [edge, celebrity, followerSide] = await Promise.all([
    deps.relations.edge(reader, followee),
    deps.celebrities.isCelebrity(followee),
    deps.relations.followerSide(reader, followee),
  ]);
  await atStep(deps, 'settle.state-read', { reader, followee });
  if (edge) {
    const [, copied] = await Promise.all([
      followerSide === edge.since ? undefined : deps.relations.restoreFollowerSide(reader, followee, edge.since),
      // A marker left from before a demotion is dropped only after the backfill replaced it.
      backfill(deps, reader, followee, celebrity).then(async (n) => {
        if (!celebrity) await deps.inbox.removeCelebrity([reader], followee);
        return n;
      }),
    ]);
    return { settled: 'following', inboxCells: copied, edgeSince: edge.since };
  }
  await Promise.all([
    // A followers-side row newer than the operation that queued this belongs to a later follow.
    followerSide !== null && followerSide <= at
      ? deps.relations.removeFollowerSide(reader, followee, followerSide)
      : undefined,
    deps.inbox.removeCelebrity([reader], followee),
    deps.inbox.purgeAuthor(reader, followee),
    // An add that passed its edge check before the unfollow and was stopped before its second
    // look leaves the member in a group: taken out here, W after the unfollow (X).
    leaveGroupsOf(deps, reader, followee),
  ]);
  return { settled: 'not-following', inboxCells: 0, edgeSince: null };
}
