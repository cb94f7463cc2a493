// shared/use-cases/feed-deps.ts — the feed's ports, as one value: the bag the wiring builds
// (shared/wiring/feed.ts) and the handlers pass on whole, so use cases stay free of configuration
// and can run on in-memory fakes in unit tests. Each use case names the part it uses, a Pick of
// this (e.g. PublishDeps in publish-post.ts), transitively: what it hands on to other use cases
// and helpers counts too. The full bag is assignable to every part.
import type { FeedLimits } from '../domain/limits.js';
import type { FanoutQueue } from '../ports/fanout-queue.js';
import type {
  CelebrityRegistry,
  CounterStore,
  IdempotencyStore,
  InboxStore,
  OutboxStore,
  PostStore,
  RelationStore,
} from '../ports/feed-store.js';
import type { CommentStore, ReactionStore, WriteQuota } from '../ports/reaction-store.js';
import type { BlockStore, NotificationStore, TopicStore } from '../ports/social-store.js';
import type { FaceDirectory, UserStore } from '../ports/user-store.js';
import type { StepHook } from './steps.js';
import type { Announcer } from './live.js';
import type { Pictures } from './media/attach.js';
import type { ExportFiles } from '../ports/export-files.js';
import type { MessageStore } from '../ports/message-store.js';
import type { PostSearchIndex } from '../ports/search-index.js';
import type { HotStore } from '../ports/hot-store.js';
import type { GroupStore } from '../ports/group-store.js';

export interface FeedDeps {
  users: UserStore;
  posts: PostStore;
  idempotency: IdempotencyStore;
  relations: RelationStore;
  inbox: InboxStore;
  counters: CounterStore;
  outbox: OutboxStore;
  celebrities: CelebrityRegistry;
  reactions: ReactionStore;
  comments: CommentStore;
  quota: WriteQuota;
  blocks: BlockStore;
  notifications: NotificationStore;
  topics: TopicStore;
  /** Post search: the posts each word is in (./search-posts.ts). */
  search: PostSearchIndex;
  /** The hot feed: engagements by hour and their ranking (./hot.ts, jobs/rank-hot.ts). */
  hot: HotStore;
  /** 分组 and 特别关注: each owner's groups, and who holds whom (./groups.ts). */
  groups: GroupStore;
  queue: FanoutQueue;
  limits: FeedLimits;
  /**
   * The faces feeds show (home timeline, topic pages): may be a minute old (adapters/memory/
   * caching-faces.ts). Absent: read fresh from `users`, like every other view.
   */
  feedFaces?: FaceDirectory;
  /** Pictures in posts (the media records, where variants are served); absent where no post carries any. */
  pictures?: Pictures;
  /** Where data exports are kept for download (export-data.ts); absent where there is no object store. */
  exports?: ExportFiles;
  /**
   * The live channel (the worker only): events logged for their readers and pushed to their
   * connections (./live.ts). Absent: nobody is told, the timelines are unchanged.
   */
  announcer?: Announcer;
  /** Private conversations: a block fences the two's conversation (./messages.ts). */
  messages?: MessageStore;
  /** Tests only: called between the steps of multi-row operations (./steps.ts). */
  step?: StepHook;
}
