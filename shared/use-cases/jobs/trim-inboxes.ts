// shared/use-cases/jobs/trim-inboxes.ts — keeps every inbox at INBOX_CAP entries and every
// outbox at OUTBOX_CAP (product.md "Everything bounded"; Mastodon and Twitter cap at ~800).
//
// Steps: walk the inboxes in chunks of rowsPerStep feeds, then the outboxes. A feed with
// entries past the cap loses them (the oldest) in ONE write per feed; an entry written again
// after the walk read it (a refollow's backfill) survives (MaintenanceStore.feeds). Feeds at or
// under the cap are not touched. Idempotent: a re-run finds nothing past the cap. Cursor = the
// walk's position; carry = which kind of feed the walk is in.
import * as z from 'zod';
import type { Feed, MaintenanceStore } from '../../ports/maintenance-store.js';
import type { JobDefinition, StepInput, StepResult } from './job-runner.js';

export const TrimCarry = z.strictObject({ table: z.enum(['inbox', 'outbox']) });
export type TrimCarry = z.infer<typeof TrimCarry>;

export interface TrimCaps {
  inbox: number;
  outbox: number;
}

export async function trimStep(
  store: MaintenanceStore,
  caps: TrimCaps,
  input: StepInput<TrimCarry>,
): Promise<StepResult<TrimCarry>> {
  const feed: Feed = input.carry?.table ?? 'inbox';
  const stats = { seen: 0, fixed: 0, cellsDeleted: 0 };
  let cursor = input.cursor;
  for await (const visit of store.feeds(feed, {
    ...(input.cursor === undefined ? {} : { start: input.cursor }),
    limit: input.rowsPerStep,
    cap: caps[feed],
  })) {
    stats.seen++;
    cursor = visit.next;
    if (visit.pastCap === 0) continue;
    await visit.dropPastCap();
    stats.fixed++;
    stats.cellsDeleted += visit.pastCap;
  }
  // Fewer feeds than asked: this kind is done.
  if (stats.seen === input.rowsPerStep)
    return { done: false, ...(cursor === undefined ? {} : { cursor }), carry: { table: feed }, stats };
  if (feed === 'inbox') return { done: false, carry: { table: 'outbox' }, stats };
  return { done: true, stats };
}

export function trimInboxesJob(store: MaintenanceStore, caps: TrimCaps): JobDefinition<TrimCarry> {
  return {
    name: 'trim-inboxes',
    carry: TrimCarry,
    // Scheduled hourly: a run never overlaps the next one.
    maxRunMs: 55 * 60_000,
    step: (input) => trimStep(store, caps, input),
  };
}
