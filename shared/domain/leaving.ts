// shared/domain/leaving.ts — domain: leaving (注销). An account is active, deactivated (hidden
// everywhere, restored by logging in), or erased (its data gone, the handle still reserved).
// What each standing means for reads and writes: docs/consistency.md Q.

/** How long a deactivated account can still be restored by logging in before it is erased. */
export const RESTORE_WINDOW_MS = 30 * 86_400_000;

export type Standing =
  | { state: 'active' }
  /** Since `at`: shown to nobody; a login restores it until the erasure begins. */
  | { state: 'deactivated'; at: number }
  /** Erasure began at `at`: nothing can bring it back; the handle stays taken. */
  | { state: 'erased'; at: number };

export const ACTIVE: Standing = Object.freeze({ state: 'active' });

export const isActive = (s: Standing): boolean => s.state === 'active';

/** When a deactivation made at `at` becomes due for erasure (restorable until the erasure begins). */
export const erasableFrom = (at: number): number => at + RESTORE_WINDOW_MS;

/** The two queues a departure waits in: its erasure, then its handle's release. */
export type DepartureStage = 'erase' | 'release';
