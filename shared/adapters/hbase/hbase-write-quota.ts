// shared/adapters/hbase/hbase-write-quota.ts — WriteQuota on HBase (secondary adapter): one
// counter row per (user, action, window); the window is the caller's (domain/quota.ts).
// Layout: shared/schema/tables.ts (quota).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { WriteAction } from '../../domain/limits.js';
import type { WriteQuota } from '../../ports/reaction-store.js';
import { quotaKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { counter } from './cells.js';

const COUNT = 'q:n';

export class HBaseWriteQuota implements WriteQuota {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'quota');
  }

  async take(user: string, action: WriteAction, window: number): Promise<number> {
    const key = quotaKey(user, action, window);
    // Increment first, then read: the value read includes this request, so racing requests can
    // only be refused early at the boundary, never let through past the limit. (The REST
    // increment cannot return the new value: with rr=true 2.6 echoes the delta.)
    await this.client.increment(this.table, key, COUNT, 1);
    return counter(await this.client.getRow(this.table, key, { columns: [COUNT] }), COUNT);
  }
}
