// shared/adapters/hbase/hbase-layout-store.ts — LayoutStore on the namespace's meta table: the
// migrations of shared/schema/migrations.ts, resumed from the progress they record there.
import type { HBaseRestClient } from '../../hbase/index.js';
import type { LayoutProgress, LayoutStore } from '../../ports/layout-store.js';
import { MIGRATIONS, migrate, type Migration } from '../../schema/migrations.js';

export class HBaseLayoutStore implements LayoutStore {
  constructor(
    private readonly client: HBaseRestClient,
    private readonly namespace: string,
    /** Tests only: migrations of their own in place of the code's. */
    private readonly migrations: readonly Migration[] = MIGRATIONS,
  ) {}

  migrate(until: number): Promise<LayoutProgress> {
    return migrate(this.client, this.namespace, { until, migrations: this.migrations });
  }
}
