// shared/wiring/profile.ts — profiles: reading and editing one, and its avatar (a picture).
import { HBasePeopleIndex } from '../adapters/hbase/hbase-people-index.js';
import { HBaseUserStore } from '../adapters/hbase/hbase-user-store.js';
import { config } from '../config/config.js';
import type { Pictures } from '../use-cases/media/attach.js';
import { hbaseClient } from './hbase.js';
import { picturesIfConfigured } from './pictures.js';

export interface ProfileDependencies {
  users: HBaseUserStore;
  people: HBasePeopleIndex;
  pictures?: Pictures;
}

let profile: ProfileDependencies | undefined;
/** The profile routes' ports: the users, the people index, and the pictures an avatar is. */
export function profileDependencies(): ProfileDependencies {
  if (profile) return profile;
  const hbase = hbaseClient();
  const ns = config().HBASE_NAMESPACE;
  profile = {
    users: new HBaseUserStore(hbase, ns),
    people: new HBasePeopleIndex(hbase, ns),
    ...picturesIfConfigured(),
  };
  return profile;
}
