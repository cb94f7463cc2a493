// shared/use-cases/jobs/repair-relations.ts — makes the followers side of every relation agree
// with the following side, and the follow counters exact (product.md "Scheduled jobs").
//
// HBase is atomic per row only: follow writes 'F' (a follows b — the SOURCE OF TRUTH) and then
// 'R' (b's follower a); unfollow deletes them in the same order. A crash in between leaves an
// 'F' without its 'R' or an 'R' without its 'F'; counters move by increments and can drift.
//
// ONE PASS, two walks merged (both tables are in userKey order, so one user's relation rows
// and that user's users row line up):
//   1. Read up to rowsPerStep relation rows from the cursor (one scan). A user's rows are
//      contiguous, 'F' before 'R'; the last user of the chunk may continue in the next chunk
//      ("open"): its partial counts travel in the carry.
//   2. Read the users rows the chunk has CLOSED (one scan, up to rowsPerStep rows): every user
//      from the carry's users position up to (not including) the open user — users with no
//      relation rows at all included, so their stale counters are zeroed too. If that range has
//      more users than the limit, the step ends at the last user read and keeps only the
//      relation rows of users up to it (the rest is read again by the next step).
//   3. ONE multi-get of every kept row's counterpart. 'F' without 'R' (or with another since)
//      → put 'R' with F's e:t (one batched put). 'R' without 'F' → check-and-delete on its e:t,
//      so a re-follow that rewrote it meanwhile is not undone (such a row is kept and counted).
//   4. following = the user's 'F' rows; followers = the user's 'R' rows that survive, plus the
//      'R' rows step 3 created. A closed user whose stored counters differ — or who gained an
//      'R' row after the walk closed them — becomes a SUSPECT (carried, at most MAX_SUSPECTS
//      per run; more wait for the next run). Nothing is written to counters during the walk.
//   5. CONFIRM, after the walk: a counter is rewritten only from a snapshot no live operation
//      was changing. Follow and unfollow change rows first and counters after, within one
//      settle window (SETTLE_SECONDS, longer than any request). So per suspect: read both
//      counters (value + cell timestamp), count its 'F' and 'R' rows afresh (two prefix
//      scans), wait one settle window, read the counters again. Unchanged means no operation
//      was half-way through while we counted (its counter change would have landed in the
//      wait), so the recount is exact; it is written with check-and-put on the value read, so
//      an increment landing meanwhile wins and the fix waits for the next run. Changed means a
//      live operation: left alone (a counter the job cannot trust a snapshot of is never
//      overwritten — the fix for the lost-increment race of a plain put).
// Everything per step is bounded: a walk step by rowsPerStep (two scans, one multi-get, one
// put, one check-and-delete per orphan); a confirm step by CONFIRM_PER_STEP suspects (two
// multi-gets, two bounded scans and up to two check-and-puts each). In a healthy system the
// walk finds nothing: follow/unfollow keep counters exact and the settle repairs 'R' rows.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { forEachLimit } from '../../concurrency.js';
import { HANDLE_PATTERN } from '../../domain/handle.js';
import type { EdgeRow, MaintenanceStore, UsersFrom } from '../../ports/maintenance-store.js';
import { atStep, type StepHook } from '../steps.js';
import type { JobDefinition, StepInput, StepResult } from './job-runner.js';

const Handle = z.string().regex(HANDLE_PATTERN);
const Count = z.number().int().min(0);

/** Suspects carried to the confirm phase per run (the walk normally finds none). */
const MAX_SUSPECTS = 500;
/** Suspects confirmed per step (each costs two bounded scans and one settle-window wait, shared). */
const CONFIRM_PER_STEP = 25;
/** A suspect with more rows than this in one direction is reported, not recounted in a step. */
const RECOUNT_MAX_ROWS = 20_000;

export const RepairCarry = z.strictObject({
  /** Users before this position were compared already. */
  users: z.strictObject({ user: Handle, inclusive: z.boolean() }).optional(),
  /** The user whose relation rows straddle the step boundary, with the counts so far. */
  open: z.strictObject({ user: Handle, following: Count, followers: Count }).optional(),
  /** Users whose counters looked wrong, to confirm and fix once the walk is over. */
  suspects: z.array(Handle).max(MAX_SUSPECTS).optional(),
  /** Set once the walk is over: the steps that follow confirm the suspects. */
  confirming: z.literal(true).optional(),
});
export type RepairCarry = z.infer<typeof RepairCarry>;

interface Counts {
  following: number;
  followers: number;
}

const ORPHAN_DELETE_CONCURRENCY = 8;
/** Counter fixes named in a step's log line (the count is always in the stats). */
const NOTED_FIXES = 10;


const mirror = (e: EdgeRow): EdgeRow => ({ owner: e.other, direction: e.direction === 'F' ? 'R' : 'F', other: e.owner, since: e.since });

export interface RepairOptions {
  /** The settle window (ms): longer than any follow/unfollow takes from its row change to its counter change. */
  settleMs: number;
  sleep?: (ms: number) => Promise<void>;
  step?: StepHook;
}

export async function repairStep(store: MaintenanceStore, input: StepInput<RepairCarry>, opts: RepairOptions): Promise<StepResult<RepairCarry>> {
  if (input.carry?.confirming) return confirmStep(store, input.carry.suspects ?? [], opts);
  const cmp = (a: string, b: string) => store.compareUsers(a, b);
  const carry = input.carry ?? {};
  const suspects = new Set(carry.suspects ?? []);
  const limit = input.rowsPerStep;
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

  // 1. relation rows
  const chunk = await store.relationChunk({ ...(input.cursor === undefined ? {} : { start: input.cursor }), limit });
  stats.seen = chunk.edges.length + chunk.skipped;
  stats.skippedRows = chunk.skipped;
  if (!chunk.exhausted && chunk.edges.length === 0) {
    // Only foreign rows: step over them; nothing closes, the carry stays as it is.
    return { done: false, ...(chunk.next === undefined ? {} : { cursor: chunk.next }), carry, stats };
  }
  const lastEdge = chunk.edges.at(-1);

  // 2. the users this step closes
  const usersBefore = chunk.exhausted ? undefined : (lastEdge as EdgeRow).owner;
  const users = await store.userCounters({
    ...(carry.users ? { from: carry.users } : {}),
    ...(usersBefore === undefined ? {} : { before: usersBefore }),
    limit,
  });
  stats.usersChecked = users.users.length;

  let edges = chunk.edges;
  let done = false;
  let nextCursor: string | undefined;
  let nextUsers: UsersFrom | undefined;
  let openUser: string | undefined;
  /** Whether a row of `owner` at `e` lies before the next step's start (so it will not be read again). */
  let behind: (e: EdgeRow) => boolean;
  if (!users.exhausted) {
    const lastUser = (users.users.at(-1) as { handle: string }).handle;
    edges = edges.filter((e) => cmp(e.owner, lastUser) <= 0);
    nextCursor = store.relationCursorAfterUser(lastUser);
    nextUsers = { user: lastUser, inclusive: false };
    behind = (e) => cmp(e.owner, lastUser) <= 0;
  } else if (chunk.exhausted) {
    done = true;
    behind = () => true;
  } else {
    const last = lastEdge as EdgeRow & { next: string };
    nextCursor = last.next;
    nextUsers = { user: last.owner, inclusive: true };
    openUser = last.owner;
    behind = (e) => {
      const byOwner = cmp(e.owner, last.owner);
      if (byOwner !== 0) return byOwner < 0;
      if (e.direction !== last.direction) return e.direction < last.direction; // 'F' < 'R'
      return cmp(e.other, last.other) <= 0;
    };
  }

  // 3. counterparts, repairs, counts
  const counts = new Map<string, Counts>();
  const countsOf = (user: string): Counts => {
    let c = counts.get(user);
    if (!c) counts.set(user, (c = { following: 0, followers: 0 }));
    return c;
  };
  if (carry.open) counts.set(carry.open.user, { following: carry.open.following, followers: carry.open.followers });

  const counterparts = await store.counterpartSince(edges);
  await atStep(opts, 'repair.edges-read', { owners: [...new Set(edges.map((e) => e.owner))].join(',') });
  const puts: EdgeRow[] = [];
  const created: EdgeRow[] = [];
  const orphans: EdgeRow[] = [];
  edges.forEach((e, i) => {
    const other = counterparts[i] ?? null;
    if (e.direction === 'F') {
      countsOf(e.owner).following++;
      if (other === null) {
        const r = mirror(e);
        puts.push(r);
        created.push(r);
        stats.followerRowsAdded++;
      } else if (other !== e.since) {
        puts.push(mirror(e));
        stats.followerRowsResynced++;
      }
    } else if (other === null) {
      orphans.push(e);
    } else {
      countsOf(e.owner).followers++;
    }
  });
  if (puts.length > 0) await store.putEdges(puts);
  await forEachLimit(orphans, ORPHAN_DELETE_CONCURRENCY, async (e) => {
    if (await store.deleteEdgeIf({ owner: e.owner, direction: e.direction, other: e.other, since: e.since })) stats.orphanFollowerRowsDeleted++;
    else countsOf(e.owner).followers++; // rewritten meanwhile (a re-follow): it stays, and counts
  });

  // 4. created 'R' rows the walk will not read again
  const from = carry.users;
  const closedEarlier = (user: string) => from !== undefined && (from.inclusive ? cmp(user, from.user) < 0 : cmp(user, from.user) <= 0);
  for (const r of created) {
    if (!behind(r)) continue; // ahead of the next position: the walk reads and counts it there
    if (closedEarlier(r.owner)) suspect(r.owner);
    else countsOf(r.owner).followers++;
  }

  // 5. closed users whose stored counters differ from the rows become suspects
  const withUser = new Set<string>();
  const mismatches: string[] = [];
  for (const u of users.users) {
    withUser.add(u.handle);
    const c = counts.get(u.handle) ?? { following: 0, followers: 0 };
    if (c.following !== u.following || c.followers !== u.followers) {
      suspect(u.handle);
      mismatches.push(`${u.handle} ${u.following}/${u.followers} stored, ${c.following}/${c.followers} counted`);
    }
  }
  const notes = mismatches.length === 0 ? undefined : { counterMismatches: mismatches.slice(0, NOTED_FIXES) };
  for (const owner of counts.keys()) if (owner !== openUser && !withUser.has(owner)) stats.ownersWithoutUser++;

  stats.fixed = stats.followerRowsAdded + stats.followerRowsResynced + stats.orphanFollowerRowsDeleted;
  const suspectList = suspects.size > 0 ? { suspects: [...suspects] } : {};
  if (done) {
    // The walk is over: confirm the suspects (if any) in the steps that follow.
    return suspects.size > 0 ? { done: false, carry: { ...suspectList, confirming: true }, stats, ...(notes ? { notes } : {}) } : { done: true, stats, ...(notes ? { notes } : {}) };
  }
  const open = openUser === undefined ? undefined : { user: openUser, ...countsOf(openUser) };
  return {
    done: false,
    ...(nextCursor === undefined ? {} : { cursor: nextCursor }),
    carry: { ...(nextUsers ? { users: nextUsers } : {}), ...(open ? { open } : {}), ...suspectList },
    stats,
    ...(notes ? { notes } : {}),
  };
}

/** Step 5 (see the header): recount up to CONFIRM_PER_STEP suspects and fix what a quiet snapshot proves wrong. */
async function confirmStep(store: MaintenanceStore, suspects: string[], opts: RepairOptions): Promise<StepResult<RepairCarry>> {
  const batch = suspects.slice(0, CONFIRM_PER_STEP);
  const rest = suspects.slice(CONFIRM_PER_STEP);
  const stats = { seen: batch.length, fixed: 0, countersWritten: 0, busy: 0, tooLarge: 0, alreadyExact: 0, noUser: 0 };
  const before = await store.counterSnapshot(batch);
  const recount = new Map<string, { following: number | null; followers: number | null }>();
  for (const user of batch) {
    const [following, followers] = await Promise.all([store.countEdges(user, 'F', RECOUNT_MAX_ROWS), store.countEdges(user, 'R', RECOUNT_MAX_ROWS)]);
    recount.set(user, { following, followers });
  }
  await (opts.sleep ?? sleep)(opts.settleMs);
  const after = await store.counterSnapshot(batch);

  const fixes: string[] = [];
  for (const user of batch) {
    const b = before.get(user);
    const a = after.get(user);
    const counted = recount.get(user)!;
    if (!a || !b) {
      stats.noUser++; // relation rows of a handle with no users row: nothing to count into
      continue;
    }
    if (counted.following === null || counted.followers === null) {
      stats.tooLarge++;
      continue;
    }
    const quiet = (['following', 'followers'] as const).every((c) => a[c].value === b[c].value && a[c].stamp === b[c].stamp);
    if (!quiet) {
      stats.busy++; // a live operation moved a counter: never overwrite what we cannot trust; next run
      continue;
    }
    let wrote = false;
    for (const c of ['following', 'followers'] as const) {
      const exact = counted[c] as number;
      if (exact === b[c].value) continue;
      if (await store.setCounterIf(user, c, b[c], exact)) {
        stats.countersWritten++;
        wrote = true;
        fixes.push(`${user} ${c} ${b[c].value}→${exact}`);
      } else stats.busy++;
    }
    if (!wrote) stats.alreadyExact++;
  }
  stats.fixed = stats.countersWritten;
  const notes = fixes.length === 0 ? undefined : { counterFixes: fixes.slice(0, NOTED_FIXES) };
  if (rest.length === 0) return { done: true, stats, ...(notes ? { notes } : {}) };
  return { done: false, carry: { suspects: rest, confirming: true }, stats, ...(notes ? { notes } : {}) };
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
