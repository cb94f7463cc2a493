// test/support/interleave.ts — forces one exact interleaving of two operations on the real
// stack. The use cases call FeedDeps.step at named points between their steps
// (shared/use-cases/steps.ts); `holdAt` makes the next operation that reaches a point wait
// there until the test releases it, so the test can run another operation in between:
//
//   const held = gate.holdAt('unfollow.edge-removed');
//   const first = unfollow(deps, 'ann', 'bob');   // runs until the point, then waits
//   await held.reached;
//   await follow(deps, 'ann', 'bob');             // runs entirely inside the gap
//   held.release();
//   await first;
import type { StepHook, StepPoint } from '../../shared/use-cases/steps.js';

export interface Hold {
  /** Resolves when an operation is waiting at the point; rejects if none arrives in time. */
  reached: Promise<void>;
  release(): void;
}

export function interleaver(timeoutMs = 15_000) {
  const holds: {
    point: StepPoint;
    match: (d: Readonly<Record<string, string>>) => boolean;
    arrived: () => void;
    gate: Promise<void>;
    taken: boolean;
  }[] = [];

  const hook: StepHook = async (point, detail) => {
    const hold = holds.find((h) => !h.taken && h.point === point && h.match(detail));
    if (!hold) return;
    hold.taken = true;
    hold.arrived();
    await hold.gate;
  };

  function holdAt(point: StepPoint, match: (d: Readonly<Record<string, string>>) => boolean = () => true): Hold {
    let arrived!: () => void;
    let release!: () => void;
    const reachedOrNot = new Promise<void>((resolve) => (arrived = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    holds.push({ point, match, arrived, gate, taken: false });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no operation reached step "${point}" within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    const reached = Promise.race([reachedOrNot, timeout]).finally(() => clearTimeout(timer));
    return { reached, release };
  }

  return { hook, holdAt };
}
