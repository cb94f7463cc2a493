// shared/wiring/feed.ts — the feed: posts, timelines, follows, reactions, comments, blocks,
// notifications, topics, people search. Its ports on HBase, the fan-out queue, and pictures as
// the feed shows them. No object store: the data export adds it (./data-export.ts).
import { HBaseBlockStore } from '../adapters/hbase/hbase-block-store.js';
import { HBaseCommentStore } from '../adapters/hbase/hbase-comment-store.js';
import { HBaseCounterStore } from '../adapters/hbase/hbase-counter-store.js';
import { HBaseInboxStore } from '../adapters/hbase/hbase-inbox-store.js';
import { HBaseMessageStore } from '../adapters/hbase/hbase-message-store.js';
import { HBaseNotificationStore } from '../adapters/hbase/hbase-notification-store.js';
import { HBaseCelebrityRegistry, HBaseOutboxStore } from '../adapters/hbase/hbase-outbox-store.js';
import { HBasePeopleIndex } from '../adapters/hbase/hbase-people-index.js';
import { HBaseIdempotencyStore, HBasePostStore } from '../adapters/hbase/hbase-post-store.js';
import { HBaseReactionStore } from '../adapters/hbase/hbase-reaction-store.js';
import { HBaseSearchIndex } from '../adapters/hbase/hbase-search-index.js';
import { HBaseHotStore } from '../adapters/hbase/hbase-hot-store.js';
import { HBaseGroupStore } from '../adapters/hbase/hbase-group-store.js';
import { HBaseRelationStore } from '../adapters/hbase/hbase-relation-store.js';
import { HBaseTopicStore } from '../adapters/hbase/hbase-topic-store.js';
import { HBaseUserStore } from '../adapters/hbase/hbase-user-store.js';
import { HBaseWriteQuota } from '../adapters/hbase/hbase-write-quota.js';
import { CachingFaces } from '../adapters/memory/caching-faces.js';
import { config, feedLimits } from '../config/config.js';
import type { HBaseRestClient } from '../hbase/index.js';
import type { FeedDeps } from '../use-cases/feed-deps.js';
import type { PeopleDeps } from '../use-cases/people.js';
import { hbaseClient } from './hbase.js';
import { picturesIfConfigured } from './pictures.js';
import { fanoutQueue } from './queues.js';

/** How old a name or avatar a feed may show (adapters/memory/caching-faces.ts). */
const FEED_FACES_TTL_MS = 60_000;

/**
 * Every HBase-backed port of the feed, for one client and namespace. `settleMs`: the stage's
 * settle window W (SETTLE_SECONDS), which the packed audience waits out (invariant N).
 */
export function hbaseFeedStores(hbase: HBaseRestClient, ns: string, opts: { settleMs?: number } = {}) {
  return {
    users: new HBaseUserStore(hbase, ns),
    posts: new HBasePostStore(hbase, ns),
    idempotency: new HBaseIdempotencyStore(hbase, ns),
    relations: new HBaseRelationStore(hbase, ns, opts),
    inbox: new HBaseInboxStore(hbase, ns),
    counters: new HBaseCounterStore(hbase, ns),
    outbox: new HBaseOutboxStore(hbase, ns),
    celebrities: new HBaseCelebrityRegistry(hbase, ns),
    reactions: new HBaseReactionStore(hbase, ns),
    comments: new HBaseCommentStore(hbase, ns),
    quota: new HBaseWriteQuota(hbase, ns),
    blocks: new HBaseBlockStore(hbase, ns),
    notifications: new HBaseNotificationStore(hbase, ns),
    topics: new HBaseTopicStore(hbase, ns),
    search: new HBaseSearchIndex(hbase, ns),
    hot: new HBaseHotStore(hbase, ns),
    groups: new HBaseGroupStore(hbase, ns),
    messages: new HBaseMessageStore(hbase, ns),
    feedFaces: new CachingFaces(new HBaseUserStore(hbase, ns), FEED_FACES_TTL_MS),
  };
}

let feed: FeedDeps | undefined;
/** The feed use cases' ports, built on first use. */
export function feedDependencies(): FeedDeps {
  if (feed) return feed;
  const cfg = config();
  feed = {
    ...hbaseFeedStores(hbaseClient(), cfg.HBASE_NAMESPACE, { settleMs: cfg.SETTLE_SECONDS * 1000 }),
    // Pictures in posts, where the stage has a media bucket (every deployed stage and npm start do).
    ...picturesIfConfigured(),
    queue: fanoutQueue(),
    limits: feedLimits(cfg),
  };
  return feed;
}

let people: PeopleDeps | undefined;
/** Finding people: the feed's relations, blocks and pictures, and the people index. */
export function peopleDependencies(): PeopleDeps {
  people ??= { ...feedDependencies(), people: new HBasePeopleIndex(hbaseClient(), config().HBASE_NAMESPACE) };
  return people;
}
