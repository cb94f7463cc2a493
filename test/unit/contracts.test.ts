// test/unit/contracts.test.ts — every port's contract (test/support/contracts/) run against its
// in-memory fake (test/support/fakes/): the fakes the use-case tests stand on keep the promises
// the HBase adapters keep (test/integration/contracts.test.ts runs the same suites on those).
import { feedOrderKey } from '../../shared/domain/post.js';
import { MemorySessions, MemoryThrottle } from '../support/fakes/accounts.js';
import {
  FakeCelebrities,
  FakeComments,
  FakeCounters,
  FakeIdempotency,
  FakeInbox,
  FakeOutbox,
  FakePeople,
  FakePosts,
  FakeQuota,
  FakeReactions,
  FakeRelations,
  FakeUsers,
} from '../support/fakes/feed.js';
import { FakeMaintenanceStore } from '../support/fakes/jobs.js';
import { FakeMediaStore } from '../support/fakes/media.js';
import { FakeBlocks, FakeHotStore, FakeNotifications, FakeTopics } from '../support/fakes/social.js';
import { hotStoreContract } from '../support/contracts/hot-store.contract.js';
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
import { loginThrottleContract, userStoreContract } from '../support/contracts/user-store.contract.js';
import { peopleIndexContract } from '../support/contracts/people-index.contract.js';
import { sessionStoreContract } from '../support/contracts/session-store.contract.js';

postStoreContract(() => new FakePosts());
idempotencyStoreContract(() => new FakeIdempotency());
relationStoreContract(() => new FakeRelations());
inboxStoreContract(() => new FakeInbox());
outboxStoreContract(() => new FakeOutbox());
celebrityRegistryContract(() => new FakeCelebrities());
counterStoreContract(() => new FakeCounters());
reactionStoreContract(() => new FakeReactions());
commentStoreContract(() => new FakeComments());
writeQuotaContract(() => new FakeQuota());
blockStoreContract(() => new FakeBlocks());
notificationStoreContract(() => new FakeNotifications());
topicStoreContract(() => new FakeTopics());
hotStoreContract(() => new FakeHotStore());
userStoreContract(() => {
  // As on HBase, the account's counters are kept beside it: the fake users read the fake counters.
  const counters = new FakeCounters();
  return { users: Object.assign(new FakeUsers(), { counts: counters }), counters };
});
loginThrottleContract(() => new MemoryThrottle());
sessionStoreContract(() => new MemorySessions());
peopleIndexContract(() => new FakePeople());
mediaStoreContract(() => new FakeMediaStore());
maintenanceStoreContract((): MaintenanceWorld => {
  const store = new FakeMaintenanceStore();
  const activity = (reader: string) => store.activity.get(reader) ?? { seenAt: null, awayAt: null };
  return {
    store,
    account: async (handle, counters) => store.addUser(handle, counters),
    count: async (handle, counter, delta) => store.increment(handle, counter, delta),
    follow: async (follower, followee, since, sides) => {
      if (sides !== 'followers') store.addFollow(follower, followee, String(since));
      if (sides !== 'following') store.addCopy(follower, followee, String(since));
    },
    feed: async (feed, owner, postIds) =>
      store.writeFeed(feed, owner, postIds, (a, b) => (feedOrderKey(a) < feedOrderKey(b) ? -1 : 1)),
    entries: async (feed, owner) => [...(store.feed[feed].get(owner) ?? [])],
    seen: async (reader, at) => void store.activity.set(reader, { ...activity(reader), seenAt: at }),
    away: async (reader, at) => void store.activity.set(reader, { ...activity(reader), awayAt: at }),
    regenerating: async (reader, at) => {
      store.activity.set(reader, { ...activity(reader), seenAt: at });
      store.regen.set(reader, at);
    },
  };
});
