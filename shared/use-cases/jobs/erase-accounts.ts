// shared/use-cases/jobs/erase-accounts.ts — every day: the departures that are due (注销). An
// account deactivated RESTORE_WINDOW_MS ago and not restored is erased (use-cases/erase-account.ts);
// an account erased RESERVATION_MS ago has its handle released. Due departures are read from their
// index, oldest first, one at a time; each step works on ONE departure with a budget of
// rowsPerStep removals and carries its place (the departure and the phase of its walk) to the
// next step. Idempotent: a run stopped anywhere is finished by the next, the departure's entry
// staying until its stage is over.
import * as z from 'zod';
import { ERASURE_PHASES, eraseSome, type ErasureDeps, type ErasurePhase } from '../erase-account.js';
import type { Departure } from '../../ports/account-remains.js';
import type { JobDefinition, StepInput, StepResult } from './job-runner.js';

/**
 * Where a run is: the departure under way and its phase, or none. `n` counts the departures the
 * run finished and `r` the removals of the one under way, so a step that did anything moves the
 * position (a phase goes on from its beginning: the runner's no-progress guard sees the count).
 */
const Place = z.strictObject({
  n: z.number().int().min(0),
  r: z.number().int().min(0).optional(),
  d: z
    .strictObject({ stage: z.enum(['erase', 'release']), handle: z.string(), due: z.number().int().min(0) })
    .optional(),
  p: z.enum(ERASURE_PHASES).optional(),
});
type Place = z.infer<typeof Place>;

const encode = (place: Place) => Buffer.from(JSON.stringify(place)).toString('base64url');
function decode(cursor: string | undefined): Place {
  if (!cursor) return { n: 0 };
  const parsed = Place.safeParse(
    (() => {
      try {
        return JSON.parse(Buffer.from(cursor, 'base64url').toString());
      } catch {
        return null;
      }
    })(),
  );
  return parsed.success ? parsed.data : { n: 0 };
}

export const EraseCarry = z.strictObject({});

export async function eraseAccountsStep(
  deps: ErasureDeps & { now?: () => number },
  input: StepInput<z.infer<typeof EraseCarry>>,
): Promise<StepResult<z.infer<typeof EraseCarry>>> {
  const now = (deps.now ?? Date.now)();
  const place = decode(input.cursor);
  let departure: Departure | undefined = place.d;
  if (!departure) {
    // Erasures before releases: a release is never more urgent than the data still there.
    departure = (await deps.remains.due('erase', now, 1))[0] ?? (await deps.remains.due('release', now, 1))[0];
  }
  if (!departure) return { done: true, stats: { seen: 0, fixed: 0, erased: 0, released: 0, stale: 0 } };
  const outcome = await eraseSome(deps, departure, place.p as ErasurePhase | undefined, input.rowsPerStep, now);
  const stats = {
    seen: 1,
    fixed: 'removed' in outcome ? outcome.removed : 0,
    erased: outcome.state === 'erased' ? 1 : 0,
    released: outcome.state === 'released' ? 1 : 0,
    stale: outcome.state === 'stale' ? 1 : 0,
  };
  const next: Place =
    outcome.state === 'continue'
      ? { n: place.n, r: (place.r ?? 0) + outcome.removed, d: departure, p: outcome.phase }
      : { n: place.n + 1 };
  return {
    done: false,
    cursor: encode(next),
    carry: {},
    stats,
    notes: { handle: departure.handle, stage: departure.stage, outcome: outcome.state },
  };
}

export function eraseAccountsJob(
  deps: ErasureDeps & { now?: () => number },
): JobDefinition<z.infer<typeof EraseCarry>> {
  return {
    name: 'erase-accounts',
    carry: EraseCarry,
    maxRunMs: 23 * 3600_000,
    step: (input) => eraseAccountsStep(deps, input),
  };
}
