// shared/use-cases/jobs/repair-post-counts.ts — makes every post's like, comment and repost count
// agree with the truth (product.md "Scheduled jobs"; invariant E in shared/schema/consistency.md).
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
// CONFIRM, after the walk, exactly as the relation repair confirms its counters: read the
// suspects' counts (value + cell timestamp), recount, wait one settle window, read again.
// Unchanged means no operation was half-way (each changes its rows first and its count within
// the settle window), so the recount is exact; it is written with check-and-put on the value
// read, so an increment landing meanwhile wins and the fix waits for the next run.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { mapLimit } from '../../concurrency.js';
import { POST_ID_PATTERN } from '../../domain/post.js';
import type { PostCounter, PostCountStore } from '../../ports/maintenance-store.js';
import type { JobDefinition, StepInput, StepResult } from './job-runner.js';

const COUNTERS: PostCounter[] = ['likes', 'comments', 'reposts'];
/** Posts recounted per walk step: each costs up to five bounded reads. */
const POSTS_PER_STEP = 100;
const RECOUNT_CONCURRENCY = 4;
const MAX_SUSPECTS = 500;
const CONFIRM_PER_STEP = 25;
/** A post with more rows than this in one list is reported, not recounted in a step. */
const RECOUNT_MAX_ROWS = 20_000;
const NOTED_FIXES = 10;

const PostId = z.string().regex(POST_ID_PATTERN);

export const PostCountCarry = z.strictObject({
  suspects: z.array(PostId).max(MAX_SUSPECTS).optional(),
  confirming: z.literal(true).optional(),
});
export type PostCountCarry = z.infer<typeof PostCountCarry>;

export interface PostCountRepairOptions {
  /** The settle window (ms): longer than any request takes from its row change to its count change. */
  settleMs: number;
  sleep?: (ms: number) => Promise<void>;
}


async function walkStep(store: PostCountStore, input: StepInput<PostCountCarry>): Promise<StepResult<PostCountCarry>> {
  const suspects = new Set(input.carry?.suspects ?? []);
  const chunk = await store.countedPosts({ ...(input.cursor === undefined ? {} : { start: input.cursor }), limit: Math.min(input.rowsPerStep, POSTS_PER_STEP) });
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

async function confirmStep(store: PostCountStore, suspects: string[], opts: PostCountRepairOptions): Promise<StepResult<PostCountCarry>> {
  const batch = suspects.slice(0, CONFIRM_PER_STEP);
  const rest = suspects.slice(CONFIRM_PER_STEP);
  const stats = { seen: batch.length, fixed: 0, countsWritten: 0, busy: 0, tooLarge: 0, gone: 0, alreadyExact: 0 };
  const before = await store.countSnapshot(batch);
  const recounts = await mapLimit(batch, RECOUNT_CONCURRENCY, (id) => store.recount(id, RECOUNT_MAX_ROWS));
  await (opts.sleep ?? sleep)(opts.settleMs);
  const after = await store.countSnapshot(batch);
  const fixes: string[] = [];
  for (const [i, postId] of batch.entries()) {
    const b = before.get(postId);
    const a = after.get(postId);
    const exact = recounts[i];
    if (!a || !b) {
      stats.gone++; // deleted meanwhile: its counts no longer matter
      continue;
    }
    if (!exact) {
      stats.tooLarge++;
      continue;
    }
    if (!COUNTERS.every((c) => a[c].value === b[c].value && a[c].stamp === b[c].stamp)) {
      stats.busy++; // a live operation moved a count: never overwrite what we cannot trust; next run
      continue;
    }
    let wrote = false;
    for (const c of COUNTERS) {
      if (exact[c] === b[c].value) continue;
      if (await store.setCountIf(postId, c, b[c], exact[c])) {
        stats.countsWritten++;
        wrote = true;
        fixes.push(`${postId} ${c} ${b[c].value}→${exact[c]}`);
      } else stats.busy++;
    }
    if (!wrote) stats.alreadyExact++;
  }
  stats.fixed = stats.countsWritten;
  const notes = fixes.length === 0 ? undefined : { countFixes: fixes.slice(0, NOTED_FIXES) };
  if (rest.length === 0) return { done: true, stats, ...(notes ? { notes } : {}) };
  return { done: false, carry: { suspects: rest, confirming: true }, stats, ...(notes ? { notes } : {}) };
}

export function repairPostCountsJob(store: PostCountStore, opts: PostCountRepairOptions): JobDefinition<PostCountCarry> {
  return {
    name: 'repair-post-counts',
    carry: PostCountCarry,
    // Scheduled every 6 hours: a run never overlaps the next one.
    maxRunMs: 5.5 * 3600_000,
    step: (input) => (input.carry?.confirming ? confirmStep(store, input.carry.suspects ?? [], opts) : walkStep(store, input)),
  };
}
