// shared/use-cases/jobs/repair-relations.ts — makes the followers side of every relation agree
// with the following side, and the follow counters exact (product.md "Scheduled jobs").
//
// A follow is kept twice: on the follower's side (the SOURCE OF TRUTH) and, copied, on the
// followee's side (the followers list fan-out reads). HBase is atomic per row only: follow writes
// the truth and then the copy; unfollow deletes them in the same order. A crash in between leaves
// a follow without its copy or a copy without its follow; counters move by increments and can
// drift. In a healthy system the walk finds nothing: follow/unfollow keep counters exact and
// their settles repair the copies (invariant C, docs/consistency.md).
//
// WALK, in steps of rowsPerStep relation entries (MaintenanceStore.relationsBatch: consecutive
// users with their follows, their followers-side copies, the other side of each, and their
// stored counters; a user cut by the step boundary goes on in the next step, their partial
// counts in the carry):
//   1. A follow whose copy is missing or holds another since → the copy is written (one write).
//      A copy whose follow is gone → removed only while it still holds the since read, so a
//      re-follow that rewrote it meanwhile is not undone (such a copy is kept and counted).
//   2. BEFORE those writes, one `settle {reader, followee, at}` per follow written or removed,
//      delayed by the settle window, as follow and unfollow send theirs: the job's write rests on
//      a read that an unfollow (and its settle) may have overtaken while the step ran, and only a
//      settle that runs after the write can notice. It then makes the followers side agree with
//      the truth as it stands (and purges what fan-out fed a non-follower).
//   3. following = the user's follows; followers = the copies that survive. A user whose stored
//      counters differ — or whose followers the job just wrote a copy for — becomes a SUSPECT
//      (carried, at most MAX_SUSPECTS per run; more wait for the next run). Nothing is written to
//      counters during the walk.
// CONFIRM, after the walk: the quiet-snapshot step (./quiet-snapshot.ts), shared with the post
// count repair. It starts once the settles the walk queued are due, so a counter is not
// recounted from a copy its settle is about to remove.
// Everything per step is bounded: a walk step by rowsPerStep (two scans, one multi-get, one
// write, the settles, one check-and-delete per orphan copy); a confirm step by CONFIRM_PER_STEP.
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import { forEachLimit } from '../../runtime/concurrency.js';
import { HANDLE_PATTERN } from '../../domain/handle.js';
import type { FanoutMessage, FanoutQueue } from '../../ports/fanout-queue.js';
import type { Counter, Follow, MaintenanceStore } from '../../ports/maintenance-store.js';
import { operationBudgetMs } from '../../runtime/deadline.js';
import { runWithinBudget } from '../../runtime/invocation-scope.js';
import { atStep, type StepHook } from '../steps.js';
import { sendAll, type JobDefinition, type StepInput, type StepResult } from './job-runner.js';
import {
  MAX_SUSPECTS,
  NOTED_FIXES,
  RECOUNT_MAX_ROWS,
  confirmQuietly,
  type Counted,
  type SettleWait,
} from './quiet-snapshot.js';

const Handle = z.string().regex(HANDLE_PATTERN);
const Count = z.number().int().min(0);

export const RepairCarry = z.strictObject({
  /** The user whose relations straddle the step boundary, with the counts so far. */
  open: z.strictObject({ user: Handle, following: Count, followers: Count }).optional(),
  /** Users whose counters looked wrong, to confirm and fix once the walk is over. */
  suspects: z.array(Handle).max(MAX_SUSPECTS).optional(),
  /** Set once the walk is over: the steps that follow confirm the suspects. */
  confirming: z.literal(true).optional(),
  /** When the last settle the walk queued is due (millis): the confirm phase starts after it. */
  settlesDue: z.number().int().min(0).optional(),
});
export type RepairCarry = z.infer<typeof RepairCarry>;

type Counts = Record<Counter, number>;

const ORPHAN_DELETE_CONCURRENCY = 8;
/** The SQS maximum delay. */
const MAX_DELAY_SECONDS = 900;

export interface RepairOptions extends SettleWait {
  /** Where the settles of the follows the job writes or removes go. */
  queue: FanoutQueue;
  now?: () => number;
  step?: StepHook;
}

/** The users' follow counters, as the confirm step sees them. */
const countedUsers = (store: MaintenanceStore): Counted<Counter> => ({
  counters: ['following', 'followers'],
  read: (users) => store.counters(users),
  recount: (user) => store.recount(user, RECOUNT_MAX_ROWS),
  setIf: (user, counter, expected, value) => store.setCounterIf(user, counter, expected, value),
});

export async function repairStep(
  store: MaintenanceStore,
  input: StepInput<RepairCarry>,
  opts: RepairOptions,
): Promise<StepResult<RepairCarry>> {
  const now = opts.now ?? Date.now;
  if (input.carry?.confirming) {
    const due = input.carry.settlesDue;
    if (due !== undefined) await (opts.sleep ?? sleep)(Math.max(0, due - now()));
    return confirmQuietly(countedUsers(store), input.carry.suspects ?? [], opts, {
      written: 'countersWritten',
      missing: 'noUser',
      notes: 'counterFixes',
    });
  }
  const carry = input.carry ?? {};
  const suspects = new Set(carry.suspects ?? []);
  const stats = {
    seen: 0,
    fixed: 0,
    skippedRows: 0,
    followerRowsAdded: 0,
    followerRowsResynced: 0,
    orphanFollowerRowsDeleted: 0,
    usersChecked: 0,
    suspects: 0,
    suspectsDeferred: 0,
    ownersWithoutUser: 0,
  };
  const suspect = (user: string) => {
    if (suspects.has(user)) return;
    if (suspects.size >= MAX_SUSPECTS) stats.suspectsDeferred++;
    else {
      suspects.add(user);
      stats.suspects++;
    }
  };

  const batch = await store.relationsBatch({
    ...(input.cursor === undefined ? {} : { start: input.cursor }),
    limit: input.rowsPerStep,
  });
  stats.seen = batch.read;
  stats.skippedRows = batch.skipped;
  if (batch.users.length === 0 && batch.next !== undefined) {
    // Only foreign entries: step over them; nothing closes, the carry stays as it is.
    return { done: false, cursor: batch.next, carry, stats };
  }
  await atStep(opts, 'repair.edges-read', { owners: batch.users.map((u) => u.user).join(',') });

  // 1. what to write, and the counts
  const counts = new Map<string, Counts>();
  const copies: Follow[] = [];
  const orphans: Follow[] = [];
  for (const part of batch.users) {
    const open = carry.open?.user === part.user ? carry.open : undefined;
    const c: Counts = { following: open?.following ?? 0, followers: open?.followers ?? 0 };
    counts.set(part.user, c);
    for (const f of part.follows) {
      c.following++;
      if (f.copy === f.since) continue;
      copies.push({ follower: f.follower, followee: f.followee, since: f.since });
      if (f.copy === null) {
        stats.followerRowsAdded++;
        // Its followers gain a copy the walk may already have passed: recounted in the confirm phase.
        suspect(f.followee);
      } else stats.followerRowsResynced++;
    }
    for (const f of part.followers) {
      if (f.truth === null) orphans.push({ follower: f.follower, followee: f.followee, since: f.since });
      else c.followers++;
    }
  }
  if (carry.open && !counts.has(carry.open.user)) stats.ownersWithoutUser++; // its rows ended at the boundary, and it has no account

  // 2. the settles first (they must exist even if this step dies after its writes), then the
  // writes — within the operation budget from the settles' time, so they land before the
  // settles run (docs/consistency.md "Time"); a step out of budget fails and is retried whole.
  let settlesDue = carry.settlesDue;
  const touched = [...copies, ...orphans];
  await runWithinBudget(operationBudgetMs(opts.settleMs), async () => {
    if (touched.length > 0) {
      const at = now();
      const settles: FanoutMessage[] = touched.map((f) => ({
        v: 1,
        type: 'settle',
        reader: f.follower,
        followee: f.followee,
        at,
      }));
      await sendAll(opts.queue, settles, {
        delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.ceil(opts.settleMs / 1000)),
      });
      settlesDue = Math.max(settlesDue ?? 0, at + opts.settleMs);
    }
    if (copies.length > 0) await store.copyFollowerSides(copies);
    await forEachLimit(orphans, ORPHAN_DELETE_CONCURRENCY, async (f) => {
      if (await store.dropFollowerSideIf(f)) stats.orphanFollowerRowsDeleted++;
      else counts.get(f.followee)!.followers++; // rewritten meanwhile (a re-follow): it stays, and counts
    });
  });

  // 3. closed users whose stored counters differ from the rows become suspects
  const mismatches: string[] = [];
  for (const part of batch.users) {
    if (!part.complete) continue;
    if (!part.counters) {
      stats.ownersWithoutUser++;
      continue;
    }
    stats.usersChecked++;
    const c = counts.get(part.user)!;
    const stored = part.counters;
    if (c.following !== stored.following.value || c.followers !== stored.followers.value) {
      suspect(part.user);
      const shown = (v: number | null) => (v === null ? 'unreadable' : String(v));
      mismatches.push(
        `${part.user} ${shown(stored.following.value)}/${shown(stored.followers.value)} stored, ${c.following}/${c.followers} counted`,
      );
    }
  }
  const notes = mismatches.length === 0 ? undefined : { counterMismatches: mismatches.slice(0, NOTED_FIXES) };

  stats.fixed = stats.followerRowsAdded + stats.followerRowsResynced + stats.orphanFollowerRowsDeleted;
  const later = {
    ...(suspects.size > 0 ? { suspects: [...suspects] } : {}),
    ...(settlesDue !== undefined ? { settlesDue } : {}),
  };
  if (batch.next === undefined) {
    // The walk is over: confirm the suspects (if any) in the steps that follow.
    return suspects.size > 0
      ? { done: false, carry: { ...later, confirming: true }, stats, ...(notes ? { notes } : {}) }
      : { done: true, stats, ...(notes ? { notes } : {}) };
  }
  const openPart = batch.users.find((u) => !u.complete);
  const open = openPart ? { user: openPart.user, ...counts.get(openPart.user)! } : undefined;
  return {
    done: false,
    cursor: batch.next,
    carry: { ...(open ? { open } : {}), ...later },
    stats,
    ...(notes ? { notes } : {}),
  };
}

export function repairRelationsJob(store: MaintenanceStore, opts: RepairOptions): JobDefinition<RepairCarry> {
  return {
    name: 'repair-relations',
    carry: RepairCarry,
    // Scheduled every 6 hours: a run never overlaps the next one.
    maxRunMs: 5.5 * 3600_000,
    step: (input) => repairStep(store, input, opts),
  };
}
