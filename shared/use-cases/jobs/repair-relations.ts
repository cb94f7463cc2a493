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
//      'R' rows step 3 created that the walk will not read any more (behind the next position):
//      counted in memory when their user closes in this step (or is open), by a server-side
//      increment when their user's counters were written by an earlier step.
//   5. One batched put of c:following/c:followers (8-byte longs) for the closed users whose
//      stored values differ.
// Everything per step is bounded by rowsPerStep (two scans, one multi-get, two puts, and one
// check-and-delete or increment per repaired row). Live follows/unfollows racing the walk can
// leave a counter off by their own change until the next run (counters are plain puts here).
import { z } from 'zod';
import type { EdgeRow, MaintenanceStore, UsersFrom } from '../../ports/maintenance-store.js';
import type { JobDefinition, StepInput, StepResult } from './job-runner.js';

const Handle = z.string().regex(/^[a-z0-9_]{1,30}$/);
const Count = z.number().int().min(0);

export const RepairCarry = z.strictObject({
  /** Users before this position have exact counters already. */
  users: z.strictObject({ user: Handle, inclusive: z.boolean() }).optional(),
  /** The user whose relation rows straddle the step boundary, with the counts so far. */
  open: z.strictObject({ user: Handle, following: Count, followers: Count }).optional(),
});
export type RepairCarry = z.infer<typeof RepairCarry>;

interface Counts {
  following: number;
  followers: number;
}

const ORPHAN_DELETE_CONCURRENCY = 8;
/** Counter fixes named in a step's log line (the count is always in the stats). */
const NOTED_FIXES = 10;

async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const mirror = (e: EdgeRow): EdgeRow => ({ owner: e.other, direction: e.direction === 'F' ? 'R' : 'F', other: e.owner, since: e.since });

export async function repairStep(store: MaintenanceStore, input: StepInput<RepairCarry>): Promise<StepResult<RepairCarry>> {
  const cmp = (a: string, b: string) => store.compareUsers(a, b);
  const carry = input.carry ?? {};
  const limit = input.rowsPerStep;
  const stats = {
    seen: 0,
    fixed: 0,
    skippedRows: 0,
    followerRowsAdded: 0,
    followerRowsResynced: 0,
    orphanFollowerRowsDeleted: 0,
    usersChecked: 0,
    countersWritten: 0,
    lateIncrements: 0,
    ownersWithoutUser: 0,
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
    if (closedEarlier(r.owner)) {
      await store.addFollowers(r.owner, 1);
      stats.lateIncrements++;
    } else {
      countsOf(r.owner).followers++;
    }
  }

  // 5. counters of the closed users
  const writes: { handle: string; following: number; followers: number }[] = [];
  const withUser = new Set<string>();
  for (const u of users.users) {
    withUser.add(u.handle);
    const c = counts.get(u.handle) ?? { following: 0, followers: 0 };
    if (c.following !== u.following || c.followers !== u.followers) writes.push({ handle: u.handle, ...c });
  }
  if (writes.length > 0) await store.setCounters(writes);
  stats.countersWritten = writes.length;
  const stored = new Map(users.users.map((u) => [u.handle, u]));
  const notes = writes.length === 0 ? undefined : {
    // following/followers as stored → as written, for the first few users of the step.
    counterFixes: writes.slice(0, NOTED_FIXES).map((w) => {
      const before = stored.get(w.handle) as { following: number; followers: number };
      return `${w.handle} ${before.following}/${before.followers}→${w.following}/${w.followers}`;
    }),
  };
  for (const owner of counts.keys()) if (owner !== openUser && !withUser.has(owner)) stats.ownersWithoutUser++;

  stats.fixed = stats.followerRowsAdded + stats.followerRowsResynced + stats.orphanFollowerRowsDeleted + stats.countersWritten + stats.lateIncrements;
  if (done) return { done: true, stats, ...(notes ? { notes } : {}) };
  const open = openUser === undefined ? undefined : { user: openUser, ...countsOf(openUser) };
  return {
    done: false,
    ...(nextCursor === undefined ? {} : { cursor: nextCursor }),
    carry: { ...(nextUsers ? { users: nextUsers } : {}), ...(open ? { open } : {}) },
    stats,
    ...(notes ? { notes } : {}),
  };
}

export function repairRelationsJob(store: MaintenanceStore): JobDefinition<RepairCarry> {
  return {
    name: 'repair-relations',
    carry: RepairCarry,
    // Scheduled every 6 hours: a run never overlaps the next one.
    maxRunMs: 5.5 * 3600_000,
    step: (input) => repairStep(store, input),
  };
}
