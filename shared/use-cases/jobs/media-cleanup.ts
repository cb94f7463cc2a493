// shared/use-cases/jobs/media-cleanup.ts — removes pictures nothing will ever show, every 6 hours.
//
// Walks the media records in chunks of rowsPerStep (the one walk over the media table:
// tables.ts media, "cleanup") and queues a `discard` for each that is abandoned:
//   (a) never claimed by a post and older than 24 h, whatever its state (an upload never
//       completed, or processed and never posted, or refused);
//   (b) claimed for a post id whose post never appeared (absent, not a tombstone), the claim
//       older than 24 h (a publish that died between its claims and its post row, never retried);
//   (c) claimed by a deleted post (its delete died before queueing the discard, or the message
//       was lost), and a discard left half-done (marked discarding).
// The judgement is the worker's own (media/discard.ts discardVerdict), so both say the same;
// the worker judges again when the message runs, so a record claimed meanwhile stays. A failed
// upload younger than 24 h is left: its owner may still be reading why it failed. A picture a
// private message claims (`dm:…`) is kept whatever its age: it is not a post's.
// Stateless between steps: the position is the only thing carried; idempotent like its messages.
import { forEachLimit, mapLimit } from '../../runtime/concurrency.js';
import { isPostId } from '../../domain/post.js';
import type { PostStore } from '../../ports/feed-store.js';
import type { MediaMessage, MediaQueue } from '../../ports/media-queue.js';
import type { MediaStore } from '../../ports/media-store.js';
import type { UserStore } from '../../ports/user-store.js';
import {
  discardVerdict,
  profilePicturesOf,
  type DiscardReason,
  type KeepReason,
  type PostState,
} from '../media/discard.js';
import type { JobDefinition, StepInput, StepResult } from './job-runner.js';
import { SweepCarry } from './sweep.js';

export interface MediaCleanupDeps {
  media: Pick<MediaStore, 'walk'>;
  posts: Pick<PostStore, 'getMany' | 'lookup'>;
  /** For avatars' claims: whether the picture is still the user's avatar. */
  users: Pick<UserStore, 'profile'>;
  queue: MediaQueue;
  now?: () => number;
}

/** Posts looked up one by one at once (only claims whose post is not live: few). */
const LOOKUP_CONCURRENCY = 8;
/** Messages sent at once, after the walk's read. */
const SEND_CONCURRENCY = 8;

type Stat = DiscardReason | KeepReason;
const STATS: readonly Stat[] = [
  'being-discarded',
  'post-deleted',
  'post-never-written',
  'avatar-replaced',
  'never-attached',
  'failed',
  'in-live-post',
  'avatar',
  'in-message',
  'claim-young',
  'young',
];

export async function mediaCleanupStep(
  deps: MediaCleanupDeps,
  input: StepInput<SweepCarry>,
): Promise<StepResult<SweepCarry>> {
  const now = (deps.now ?? Date.now)();
  const page = await deps.media.walk({
    ...(input.cursor === undefined ? {} : { start: input.cursor }),
    limit: input.rowsPerStep,
  });
  // The claiming posts in one multi-get; only those not live are looked up again (deleted or absent?).
  const live = new Set(
    (
      await deps.posts.getMany([
        ...new Set(page.records.flatMap((m) => (m.attachedTo && isPostId(m.attachedTo) ? [m.attachedTo] : []))),
      ])
    ).map((p) => p.id),
  );
  const postState = async (postId: string): Promise<PostState> =>
    live.has(postId) ? 'live' : (await deps.posts.lookup(postId)).state;
  const verdicts = await mapLimit(page.records, LOOKUP_CONCURRENCY, (m) =>
    discardVerdict(m, { postState, profilePicturesOf: (handle) => profilePicturesOf(deps.users, handle) }, now),
  );

  const stats: StepResult<SweepCarry>['stats'] = { seen: page.records.length, fixed: 0 };
  for (const s of STATS) stats[s] = 0;
  const messages: MediaMessage[] = [];
  verdicts.forEach((v, i) => {
    const reason = 'discard' in v ? v.discard : v.keep;
    stats[reason]! += 1;
    // A young failed upload is the worker's to remove if asked, not the job's (see above).
    if ('discard' in v && v.discard !== 'failed')
      messages.push({ v: 1, type: 'discard', mediaId: page.records[i]!.id });
  });
  await forEachLimit(messages, SEND_CONCURRENCY, (m) => deps.queue.send(m));
  stats.fixed = messages.length;
  return page.next === undefined ? { done: true, stats } : { done: false, cursor: page.next, carry: {}, stats };
}

export function mediaCleanupJob(deps: MediaCleanupDeps): JobDefinition<SweepCarry> {
  // Scheduled every 6 hours: a run never overlaps the next one.
  return {
    name: 'media-cleanup',
    carry: SweepCarry,
    maxRunMs: 5.5 * 3600_000,
    step: (input) => mediaCleanupStep(deps, input),
  };
}
