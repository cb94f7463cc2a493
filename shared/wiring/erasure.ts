// shared/wiring/erasure.ts — the erasure job (use-cases/jobs/erase-accounts.ts): every feed port,
// the people index, and what is left of a departed account.
import { HBaseAccountRemains } from '../adapters/hbase/hbase-account-remains.js';
import { HBasePeopleIndex } from '../adapters/hbase/hbase-people-index.js';
import { config } from '../config/config.js';
import type { ErasureDeps } from '../use-cases/erase-account.js';
import { feedDependencies } from './feed.js';
import { hbaseClient } from './hbase.js';
import { messagePictureDependencies } from './message-pictures.js';

export function erasureDependencies(): ErasureDeps {
  const hbase = hbaseClient();
  const ns = config().HBASE_NAMESPACE;
  const feed = feedDependencies();
  return {
    ...feed,
    // The pictures in the erased account's conversations are released with them.
    ...(feed.pictures ? { messagePictures: messagePictureDependencies() } : {}),
    people: new HBasePeopleIndex(hbase, ns),
    remains: new HBaseAccountRemains(hbase, ns),
  };
}
