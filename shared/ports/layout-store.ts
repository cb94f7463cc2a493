// shared/ports/layout-store.ts — the layout the stored data is in, and moving it to the one this
// code reads and writes (shared/schema/migrations.ts; docs/operations.md, "Upgrades").
export interface LayoutProgress {
  /** The version the data was in when the run began, and the one it is in now. */
  from: number;
  to: number;
  /** Migrations still to run (the time given was up first). */
  pending: number;
  /** Rows the run went through. */
  rows: number;
}

export interface LayoutStore {
  /** Runs pending migrations, batch by batch, until done or `until` (epoch millis) has passed. */
  migrate(until: number): Promise<LayoutProgress>;
}
