// shared/use-cases/jobs/repair-post-counts.ts — makes every post's like, comment and repost count
// agree with the truth (product.md "Scheduled jobs"; invariant E in docs/consistency.md).
//
// Counts move by server-side increments, only by the request that won the conditional write the
// count follows, so in a healthy system this job finds nothing. What it heals: a function
// stopped between its truth write and its increment (a like, a comment, a delete), and a
// repair that raced an increment (below).
//
// WALK: each step reads up to POSTS_PER_STEP counted posts (one scan of the content table's
// counts family) and recounts each from the truth (PostCountStore.recount: likes = post-side
// entries whose user-side like exists; reposts = live reposts pointing here; comments = live
// comment rows). A post whose stored count differs becomes a SUSPECT. Nothing is written.
// CONFIRM, after the walk: the quiet-snapshot step the relation repair uses too
// (./quiet-snapshot.ts): a count is rewritten only from a recount no live operation overlapped.
import * as z from 'zod';
import { mapLimit } from '../../runtime/concurrency.js';
import { POST_ID_PATTERN } from '../../domain/post.js';
import type { PostCounter, PostCountStore } from '../../ports/maintenance-store.js';
import type { JobDefinition, StepInput, StepResult } from './job-runner.js';
import { MAX_SUSPECTS, RECOUNT_MAX_ROWS, confirmQuietly, type Counted, type SettleWait } from './quiet-snapshot.js';

const COUNTERS: PostCounter[] = ['likes', 'comments', 'reposts'];
/** Posts recounted per walk step: each costs up to five bounded reads. */
const POSTS_PER_STEP = 100;
const RECOUNT_CONCURRENCY = 4;

const PostId = z.string().regex(POST_ID_PATTERN);

export const PostCountCarry = z.strictObject({
  suspects: z.array(PostId).max(MAX_SUSPECTS).optional(),
  confirming: z.literal(true).optional(),
});
export type PostCountCarry = z.infer<typeof PostCountCarry>;

export type PostCountRepairOptions = SettleWait;

async function walkStep(store: PostCountStore, input: StepInput<PostCountCarry>): Promise<StepResult<PostCountCarry>> {
  const suspects = new Set(input.carry?.suspects ?? []);
  const chunk = await store.countedPosts({
    ...(input.cursor === undefined ? {} : { start: input.cursor }),
    limit: Math.min(input.rowsPerStep, POSTS_PER_STEP),
  });
  const stats = { seen: chunk.posts.length, fixed: 0, suspects: 0, suspectsDeferred: 0, tooLarge: 0 };
  const recounts = await mapLimit(chunk.posts, RECOUNT_CONCURRENCY, (p) => store.recount(p.postId, RECOUNT_MAX_ROWS));
  chunk.posts.forEach((p, i) => {
    const exact = recounts[i];
    if (exact === null || exact === undefined) {
      stats.tooLarge++;
      return;
    }
    if (COUNTERS.every((c) => p.counts[c].value === exact[c]) || suspects.has(p.postId)) return;
    if (suspects.size >= MAX_SUSPECTS) stats.suspectsDeferred++;
    else {
      suspects.add(p.postId);
      stats.suspects++;
    }
  });
  const carry = suspects.size > 0 ? { suspects: [...suspects] } : {};
  if (!chunk.exhausted) return { done: false, ...(chunk.next ? { cursor: chunk.next } : {}), carry, stats };
  return suspects.size > 0 ? { done: false, carry: { ...carry, confirming: true }, stats } : { done: true, stats };
}

/** The posts' counts, as the confirm step sees them. */
const countedPosts = (store: PostCountStore): Counted<PostCounter> => ({
  counters: COUNTERS,
  read: (ids) => store.countSnapshot(ids),
  recount: (id) => store.recount(id, RECOUNT_MAX_ROWS),
  setIf: (id, counter, expected, value) => store.setCountIf(id, counter, expected, value),
});

export function repairPostCountsJob(
  store: PostCountStore,
  opts: PostCountRepairOptions,
): JobDefinition<PostCountCarry> {
  return {
    name: 'repair-post-counts',
    carry: PostCountCarry,
    // Scheduled every 6 hours: a run never overlaps the next one.
    maxRunMs: 5.5 * 3600_000,
    step: (input) =>
      input.carry?.confirming
        ? confirmQuietly(countedPosts(store), input.carry.suspects ?? [], opts, {
            written: 'countsWritten',
            missing: 'gone',
            notes: 'countFixes',
          })
        : walkStep(store, input),
  };
}
