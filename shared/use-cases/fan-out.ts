// shared/use-cases/fan-out.ts — what the SQS worker does with each message. Every step is
// idempotent (a re-delivered message rewrites the same inbox cells), work per message is
// bounded (at most chunksPerMessage × chunkSize followers; the rest continues in a follow-up
// message with a cursor), and memory holds one chunk of followers at a time.
//
// Scale behaviour (product.md): posts by celebrities are not fanned out — readers merge the
// celebrity's outbox at read time; followers who have not read for the inactivity window get
// nothing — their inbox is rebuilt when they return (`regenerate`).
//
// Who is away is carried on the followers-side row the fan-out scan reads anyway (e:away, set by
// the away sweep's `away` message, cleared by `regenerate`), so skipping them costs no request:
// a chunk of 1,000 followers is one scan page and one batch put. A big author's post is split
// into segments of the follower list (by key salt), one message each, which the worker's
// concurrent invocations run side by side (invariant J in shared/schema/consistency.md).
import { authorOfPostId } from '../domain/post.js';
import type { FanoutMessage } from '../ports/fanout-queue.js';
import type { Page, Segment } from '../ports/feed-store.js';
import type { FeedDeps } from './feed-deps.js';
import { postFacts, reconcileFact } from './notifications.js';
import { atStep } from './steps.js';

export interface FanoutOutcome {
  readers: number;
  continued: boolean;
  /** Post entries this message wrote into inboxes (the write amplification an operator watches). */
  inboxCells: number;
  skipped?: 'deleted' | 'celebrity' | 'unfollowed' | 'returned';
  /** fanout/retract: the segments this message split the follower list into (it ran the first). */
  segments?: number;
  /** settle: what the reader's view of the followee was made to agree with. */
  settled?: 'following' | 'not-following';
  /** fanout: the post was deleted while this message wrote it out, so its retraction was queued again. */
  retractedAgain?: boolean;
}

/** Posts a demotion copies into each follower's inbox (their recent history, now fanned out). */
const DEMOTE_BACKFILL = 50;
/** Comment rows deleted per purge-comments message (one scan and that many DELETEs). */
const COMMENTS_PURGED_PER_MESSAGE = 500;
/** Followees rebuilt per regenerate message: each costs one bounded scan. */
const REGENERATE_FOLLOWEES_PER_MESSAGE = 100;
/** At most this many segments per post: about the worker's concurrency (serverless.yml workerMaxConcurrency). */
export const MAX_SEGMENTS = 16;

/**
 * Pages a list from `cursor`, applying `write` to each chunk; at most chunksPerMessage chunks.
 * Pipelined: the next page is read while the current chunk is written, so reads and writes
 * overlap instead of taking turns. (A post's own fan-out uses overAudience: one scan.)
 */
async function overChunks(
  deps: FeedDeps,
  list: (limit: number, cursor?: string) => Promise<Page<{ handle: string }>>,
  cursor: string | undefined,
  write: (handles: string[]) => Promise<void>,
  opts: { chunkSize?: number; chunks?: number } = {},
): Promise<{ readers: number; written: number; nextCursor?: string }> {
  const chunkSize = opts.chunkSize ?? deps.limits.fanoutChunkSize;
  const chunks = opts.chunks ?? deps.limits.fanoutChunksPerMessage;
  const fetch = async (from: string | undefined) => {
    const page = await list(chunkSize, from);
    const handles = page.items.map((e) => e.handle);
    return { page, handles };
  };
  let readers = 0;
  let written = 0;
  let pending = fetch(cursor);
  for (let chunk = 0; ; chunk++) {
    const { page, handles } = await pending;
    readers += page.items.length;
    const next = page.nextCursor;
    const last = !next || chunk + 1 >= chunks;
    if (!last) pending = fetch(next);
    if (handles.length > 0) {
      await atStep(deps, 'fanout.readers-read', { readers: handles.join(',') });
      await write(handles);
      written += handles.length;
    }
    if (last) return next ? { readers, written, nextCursor: next } : { readers, written };
  }
}

const followersOf = (deps: FeedDeps, author: string) => (limit: number, cursor?: string) => deps.relations.followers(author, limit, cursor);

/**
 * overChunks for a post's audience (one segment, or all), from ONE scan: the next page is read
 * while the current one is written. `present`: only followers not marked away.
 */
async function overAudience(
  deps: FeedDeps,
  author: string,
  segment: Segment | undefined,
  cursor: string | undefined,
  present: boolean,
  write: (handles: string[]) => Promise<void>,
): Promise<{ readers: number; written: number; nextCursor?: string }> {
  const pages = deps.relations
    .audiencePages(author, {
      ...(cursor === undefined ? {} : { cursor }),
      ...(segment ? { segment } : {}),
      pageSize: deps.limits.fanoutChunkSize,
      pages: deps.limits.fanoutChunksPerMessage,
    })
    [Symbol.asyncIterator]();
  let readers = 0;
  let written = 0;
  let nextCursor: string | undefined;
  let pending = pages.next();
  try {
    for (;;) {
      const { done, value: page } = await pending;
      if (done) break;
      pending = pages.next();
      readers += page.items.length;
      nextCursor = page.nextCursor;
      const handles = (present ? page.items.filter((m) => !m.away) : page.items).map((m) => m.handle);
      if (handles.length > 0) {
        await atStep(deps, 'fanout.readers-read', { readers: handles.join(',') });
        await write(handles);
        written += handles.length;
      }
    }
  } finally {
    pending.catch(() => {}); // a write failed: the prefetch's outcome no longer matters
    await pages.return?.();
  }
  return nextCursor ? { readers, written, nextCursor } : { readers, written };
}

/**
 * The first message of a post (no cursor, no segment) by an author with more followers than one
 * message covers: sends segments 1..n-1 as messages of their own and returns segment 0 for
 * itself. One counter get per post decides it; smaller lists stay one message chain.
 */
async function splitIntoSegments(deps: FeedDeps, msg: Extract<FanoutMessage, { type: 'fanout' | 'retract' }>, author: string): Promise<Segment | undefined> {
  if (msg.cursor !== undefined || msg.segment !== undefined) return msg.segment;
  const perMessage = deps.limits.fanoutChunkSize * deps.limits.fanoutChunksPerMessage;
  const followers = await deps.counters.get(author, 'followers');
  if (followers <= perMessage) return undefined;
  const of = Math.min(MAX_SEGMENTS, Math.ceil(followers / perMessage));
  await Promise.all(Array.from({ length: of - 1 }, (_, i) => deps.queue.send({ ...msg, segment: { index: i + 1, of } })));
  return { index: 0, of };
}

async function continueWith(deps: FeedDeps, msg: FanoutMessage, nextCursor: string | undefined): Promise<boolean> {
  if (nextCursor) await deps.queue.send({ ...msg, cursor: nextCursor } as FanoutMessage);
  return Boolean(nextCursor);
}

export async function handleFanoutMessage(deps: FeedDeps, msg: FanoutMessage): Promise<FanoutOutcome> {
  switch (msg.type) {
    case 'fanout': {
      const post = await deps.posts.get(msg.postId);
      if (!post) return { readers: 0, continued: false, inboxCells: 0, skipped: 'deleted' };
      // The first message of a post also notifies: who it mentions, and a repost's original author.
      if (!msg.cursor && !msg.segment) await Promise.all(postFacts(post).map((fact) => reconcileFact(deps, fact)));
      if (await deps.celebrities.isCelebrity(post.author)) return { readers: 0, continued: false, inboxCells: 0, skipped: 'celebrity' };
      const segment = await splitIntoSegments(deps, msg, post.author);
      const split = msg.segment === undefined && segment ? { segments: segment.of } : {};
      const done = await overAudience(deps, post.author, segment, msg.cursor, true, (handles) => deps.inbox.add(handles, post));
      // A delete that landed while we wrote may have been retracted before our cells arrived:
      // look again, and if the post is gone, retract what this message covered (idempotent).
      if (!(await deps.posts.get(post.id))) {
        await deps.queue.send({ v: 1, type: 'retract', postId: post.id, ...(msg.cursor ? { cursor: msg.cursor } : {}), ...(segment ? { segment } : {}) });
        return { readers: done.readers, continued: false, inboxCells: done.written, retractedAgain: true, ...split };
      }
      return { readers: done.readers, continued: await continueWith(deps, { ...msg, ...(segment ? { segment } : {}) }, done.nextCursor), inboxCells: done.written, ...split };
    }
    case 'retract': {
      const author = authorOfPostId(msg.postId);
      if (!author) return { readers: 0, continued: false, inboxCells: 0 };
      // Away readers too: a cell written before they were marked must go.
      const segment = await splitIntoSegments(deps, msg, author);
      const done = await overAudience(deps, author, segment, msg.cursor, false, (handles) => deps.inbox.remove(handles, msg.postId));
      const split = msg.segment === undefined && segment ? { segments: segment.of } : {};
      return { readers: done.readers, continued: await continueWith(deps, { ...msg, ...(segment ? { segment } : {}) }, done.nextCursor), inboxCells: 0, ...split };
    }
    case 'away': {
      const seen = async () => (await deps.inbox.lastSeen([msg.reader])).get(msg.reader);
      if ((await seen()) !== msg.seenAt) return { readers: 0, continued: false, inboxCells: 0, skipped: 'returned' };
      const done = await overChunks(
        deps,
        (limit, cursor) => deps.relations.following(msg.reader, limit, cursor),
        msg.cursor,
        (followees) => deps.relations.markAway(msg.reader, followees, msg.seenAt),
      );
      await atStep(deps, 'away.marked', { reader: msg.reader });
      // Back while we wrote: our marks may have landed after the return's rebuild cleared them.
      // Another rebuild clears every mark, then backfills what they hid (invariant J).
      if ((await seen()) !== msg.seenAt) {
        await deps.queue.send({ v: 1, type: 'regenerate', reader: msg.reader });
        return { readers: 1, continued: false, inboxCells: 0, skipped: 'returned' };
      }
      if (!done.nextCursor) await deps.inbox.markAway(msg.reader, msg.seenAt);
      return { readers: 1, continued: await continueWith(deps, msg, done.nextCursor), inboxCells: 0 };
    }
    case 'backfill': {
      // An unfollow may have overtaken this message: backfill only a still-current edge.
      if (!(await deps.relations.isFollowing(msg.reader, msg.followee))) return { readers: 0, continued: false, inboxCells: 0, skipped: 'unfollowed' };
      return { readers: 1, continued: false, inboxCells: await backfill(deps, msg.reader, msg.followee) };
    }
    case 'promote': {
      // Markers first, the flag last: until every follower can merge the outbox, posts keep
      // being fanned out, so no follower ever misses one (duplicates merge away).
      const done = await overChunks(deps, followersOf(deps, msg.author), msg.cursor, (handles) => deps.inbox.addCelebrity(handles, msg.author));
      if (!done.nextCursor) await deps.celebrities.setCelebrity(msg.author, true);
      return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor), inboxCells: 0 };
    }
    case 'demote': {
      // The flag first: fan-out resumes at once; each follower keeps merging the outbox until
      // their chunk has the recent posts copied in and the marker removed.
      if (!msg.cursor) await deps.celebrities.setCelebrity(msg.author, false);
      const recent = await deps.outbox.recent(msg.author, DEMOTE_BACKFILL);
      const done = await overChunks(deps, followersOf(deps, msg.author), msg.cursor, async (handles) => {
        await deps.inbox.addManyToReaders(handles, recent);
        await deps.inbox.removeCelebrity(handles, msg.author);
      });
      return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor), inboxCells: done.written * recent.length };
    }
    case 'purge-comments': {
      // Only for a post that is gone: a forged or early message cannot remove live comments.
      if ((await deps.posts.lookup(msg.postId)).state === 'live') return { readers: 0, continued: false, inboxCells: 0 };
      const removed = await deps.comments.purge(msg.postId, COMMENTS_PURGED_PER_MESSAGE);
      const continued = removed === COMMENTS_PURGED_PER_MESSAGE;
      if (continued) await deps.queue.send(msg);
      return { readers: 0, continued, inboxCells: 0 };
    }
    case 'notify':
      await reconcileFact(deps, msg.fact);
      return { readers: 0, continued: false, inboxCells: 0 };
    case 'settle': {
      const { settled, inboxCells } = await settle(deps, msg.reader, msg.followee, msg.at);
      return { readers: 1, continued: false, inboxCells, settled };
    }
    case 'regenerate': {
      let inboxCells = 0;
      const done = await overChunks(
        deps,
        (limit, cursor) => deps.relations.following(msg.reader, limit, cursor),
        msg.cursor,
        async (followees) => {
          // Marks first: a post whose fan-out skipped the reader read the mark before this clear,
          // so it exists before the backfill below reads (invariant J).
          await deps.relations.clearAway(msg.reader, followees);
          await atStep(deps, 'regenerate.marks-cleared', { reader: msg.reader });
          for (const followee of followees) inboxCells += await backfill(deps, msg.reader, followee);
        },
        { chunkSize: REGENERATE_FOLLOWEES_PER_MESSAGE, chunks: 1 },
      );
      if (!done.nextCursor) await deps.inbox.clearRegenerating(msg.reader);
      return { readers: 1, continued: await continueWith(deps, msg, done.nextCursor), inboxCells };
    }
  }
}

/**
 * Copies a followee's recent posts into a reader's inbox: at most backfillLimit, and never older
 * than the tail of a full inbox (what is past the cap would be trimmed anyway). A celebrity is
 * marked for the read-time merge instead. Returns the number of posts copied.
 */
async function backfill(deps: FeedDeps, reader: string, followee: string, celebrity?: boolean): Promise<number> {
  if (celebrity ?? (await deps.celebrities.isCelebrity(followee))) {
    await deps.inbox.addCelebrity([reader], followee);
    return 0;
  }
  const { size, oldestMillis } = await deps.inbox.stats(reader);
  const notOlderThan = size >= deps.limits.inboxCap ? oldestMillis : undefined;
  const posts = await deps.posts.recentByAuthor(followee, deps.limits.backfillLimit, notOlderThan);
  await atStep(deps, 'backfill.posts-read', { reader, followee });
  if (posts.length > 0) await deps.inbox.addMany(reader, posts);
  return posts.length;
}

/**
 * Makes `reader`'s view of `followee` agree with the edge (the following side, the source of
 * truth) as it stands now. Runs from the settle message each follow/unfollow queues before its
 * first write, delayed by the settle window — longer than any operation's steps can take — so
 * every write based on an older read of the edge (a fan-out chunk, a backfill, a purge, a
 * promotion or demotion walk) has landed before this reads. Following: the followers side is
 * restored, the celebrity marker set or the recent posts backfilled. Not following: the
 * followers side is removed (unless a later follow wrote it), the marker dropped, the inbox
 * purged of the followee's posts. Idempotent: any number of settles, in any order, after the
 * last operation on the pair, leave the same state (invariants A, C, D in consistency.md).
 */
export async function settle(
  deps: FeedDeps,
  reader: string,
  followee: string,
  at: number,
): Promise<{ settled: 'following' | 'not-following'; inboxCells: number }> {
  const [edge, celebrity, followerSide] = await Promise.all([
    deps.relations.edge(reader, followee),
    deps.celebrities.isCelebrity(followee),
    deps.relations.followerSide(reader, followee),
  ]);
  await atStep(deps, 'settle.state-read', { reader, followee });
  if (edge) {
    const [, copied] = await Promise.all([
      followerSide === edge.since ? undefined : deps.relations.restoreFollowerSide(reader, followee, edge.since),
      // A marker left from before a demotion is dropped only after the backfill replaced it.
      backfill(deps, reader, followee, celebrity).then(async (n) => {
        if (!celebrity) await deps.inbox.removeCelebrity([reader], followee);
        return n;
      }),
    ]);
    return { settled: 'following', inboxCells: copied };
  }
  await Promise.all([
    // A followers-side row newer than the operation that queued this belongs to a later follow.
    followerSide !== null && followerSide <= at ? deps.relations.removeFollowerSide(reader, followee, followerSide) : undefined,
    deps.inbox.removeCelebrity([reader], followee),
    deps.inbox.purgeAuthor(reader, followee),
  ]);
  return { settled: 'not-following', inboxCells: 0 };
}
