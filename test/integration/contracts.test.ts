// test/integration/contracts.test.ts — every port's contract (test/support/contracts/) run against
// its HBase adapter, in a throwaway namespace of this file's own: the same suites run on the
// in-memory fakes in test/unit/contracts.test.ts, so a fake that drifts from the adapter fails
// there. Each case works on handles of its own, so the suites share the namespace; the
// maintenance store's walks read whole tables, so its suite has a namespace to itself.
import { inject } from 'vitest';
import { HBaseLoginThrottle } from '../../shared/adapters/hbase/hbase-user-store.js';
import { HBaseSessionStore } from '../../shared/adapters/hbase/hbase-session-store.js';
import { HBaseRestClient } from '../../shared/hbase/index.js';
import { hbaseFeedStores } from '../../shared/wiring/feed.js';
import { HBaseMediaStore } from '../../shared/adapters/hbase/hbase-media-store.js';
import { HBaseMaintenanceStore } from '../../shared/adapters/hbase/hbase-maintenance-store.js';
import { HBasePeopleIndex } from '../../shared/adapters/hbase/hbase-people-index.js';
import { inboxStoreContract } from '../support/contracts/inbox-store.contract.js';
import { mediaStoreContract } from '../support/contracts/media-store.contract.js';
import { type MaintenanceWorld, maintenanceStoreContract } from '../support/contracts/maintenance-store.contract.js';
import { celebrityRegistryContract } from '../support/contracts/celebrity-registry.contract.js';
import { counterStoreContract } from '../support/contracts/counter-store.contract.js';
import { outboxStoreContract } from '../support/contracts/outbox-store.contract.js';
import { idempotencyStoreContract, postStoreContract } from '../support/contracts/post-store.contract.js';
import {
  commentStoreContract,
  reactionStoreContract,
  writeQuotaContract,
} from '../support/contracts/reaction-store.contract.js';
import { relationStoreContract } from '../support/contracts/relation-store.contract.js';
import {
  blockStoreContract,
  notificationStoreContract,
  topicStoreContract,
} from '../support/contracts/social-store.contract.js';
import { hotStoreContract } from '../support/contracts/hot-store.contract.js';
import { loginThrottleContract, userStoreContract } from '../support/contracts/user-store.contract.js';
import { peopleIndexContract } from '../support/contracts/people-index.contract.js';
import { sessionStoreContract } from '../support/contracts/session-store.contract.js';
import { useNamespace } from '../support/namespace.js';

const ns = `it_contracts_${Date.now().toString(36)}`;
const hbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
useNamespace(hbase, ns);
const stores = hbaseFeedStores(hbase, ns);
const jobsNs = `${ns}_jobs`;
const jobsHbase = new HBaseRestClient({ baseUrl: inject('hbaseRestUrl'), timeoutMs: 60_000 });
useNamespace(jobsHbase, jobsNs);

postStoreContract(() => stores.posts);
idempotencyStoreContract(() => stores.idempotency);
relationStoreContract(() => stores.relations);
inboxStoreContract(() => stores.inbox);
outboxStoreContract(() => stores.outbox);
celebrityRegistryContract(() => stores.celebrities);
counterStoreContract(() => stores.counters);
reactionStoreContract(() => stores.reactions);
commentStoreContract(() => stores.comments);
writeQuotaContract(() => stores.quota);
blockStoreContract(() => stores.blocks);
notificationStoreContract(() => stores.notifications);
topicStoreContract(() => stores.topics);
hotStoreContract(() => stores.hot);
userStoreContract(() => ({ users: stores.users, counters: stores.counters }));
loginThrottleContract(() => new HBaseLoginThrottle(hbase, ns));
sessionStoreContract(() => new HBaseSessionStore(hbase, ns));
peopleIndexContract(() => new HBasePeopleIndex(hbase, ns));
mediaStoreContract(() => new HBaseMediaStore(hbase, ns));
maintenanceStoreContract((): MaintenanceWorld => {
  const { users, counters, relations, inbox, outbox } = hbaseFeedStores(jobsHbase, jobsNs);
  return {
    store: new HBaseMaintenanceStore(jobsHbase, jobsNs),
    account: async (handle, given = {}) => {
      await users.create({ handle, displayName: handle, passwordHash: 'h', createdAt: 0 });
      for (const [counter, value] of Object.entries(given)) await counters.add(handle, counter as 'followers', value);
    },
    count: (handle, counter, delta) => counters.add(handle, counter, delta),
    follow: async (follower, followee, since, sides) => {
      if (sides === 'followers') return relations.restoreFollowerSide(follower, followee, since);
      await relations.follow(follower, followee, since);
      if (sides === 'following') await relations.removeFollowerSide(follower, followee, since);
    },
    feed: async (feed, owner, postIds) => {
      if (feed === 'inbox')
        await inbox.addMany(
          owner,
          postIds.map((id) => ({ id })),
        );
      else for (const id of postIds) await outbox.add(owner, { id });
    },
    entries: async (feed, owner) =>
      feed === 'inbox'
        ? (await inbox.read(owner, { limit: 1000 })).entries
        : (await outbox.recent(owner, 1000)).map((e) => e.id),
    seen: (reader, at) => inbox.markSeen(reader, at),
    away: (reader, at) => inbox.markAway(reader, at),
    regenerating: (reader, at) => inbox.markRegenerating(reader, at),
  };
});
