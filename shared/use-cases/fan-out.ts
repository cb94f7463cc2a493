// shared/use-cases/fan-out.ts — what the SQS worker does with each message. Every step is
// idempotent (a re-delivered message rewrites the same inbox cells), work per message is
// bounded (at most chunksPerMessage × chunkSize followers; the rest continues in a follow-up
// message with a cursor), and memory holds one chunk of followers at a time.
//
// Scale behaviour (product.md): posts by celebrities are not fanned out — readers merge the
// celebrity's outbox at read time; followers who have not read for the inactivity window get
// nothing — their inbox is rebuilt when they return (`regenerate`).
import { authorOfPostId } from '../domain/post.js';
import type { FanoutMessage } from '../ports/fanout-queue.js';
import type { Page } from '../ports/feed-store.js';
import type { FeedDeps } from './feed-deps.js';

export interface FanoutOutcome {
  readers: number;
  continued: boolean;
  skipped?: 'deleted' | 'celebrity' | 'unfollowed';
}

/** Posts a demotion copies into each follower's inbox (their recent history, now fanned out). */
const DEMOTE_BACKFILL = 50;
/** Followees rebuilt per regenerate message: each costs one bounded scan. */
const REGENERATE_FOLLOWEES_PER_MESSAGE = 100;

/**
 * Pages a list from `cursor`, applying `write` to each chunk; at most chunksPerMessage chunks.
 * Pipelined: the next page is read (and `prepare`d, e.g. filtered by activity) while the
 * current chunk is written, so reads and writes overlap instead of taking turns.
 */
async function overChunks(
  deps: FeedDeps,
  list: (limit: number, cursor?: string) => Promise<Page<{ handle: string }>>,
  cursor: string | undefined,
  write: (handles: string[]) => Promise<void>,
  opts: { chunkSize?: number; chunks?: number; prepare?: (handles: string[]) => Promise<string[]> } = {},
): Promise<{ readers: number; nextCursor?: string }> {
  const chunkSize = opts.chunkSize ?? deps.limits.fanoutChunkSize;
  const chunks = opts.chunks ?? deps.limits.fanoutChunksPerMessage;
  const fetch = async (from: string | undefined) => {
    const page = await list(chunkSize, from);
    const handles = page.items.map((e) => e.handle);
    return { page, handles: opts.prepare && handles.length > 0 ? await opts.prepare(handles) : handles };
  };
  let readers = 0;
  let pending = fetch(cursor);
  for (let chunk = 0; ; chunk++) {
    const { page, handles } = await pending;
    readers += page.items.length;
    const next = page.nextCursor;
    const last = !next || chunk + 1 >= chunks;
    if (!last) pending = fetch(next);
    if (handles.length > 0) await write(handles);
    if (last) return next ? { readers, nextCursor: next } : { readers };
  }
}

const followersOf = (deps: FeedDeps, author: string) => (limit: number, cursor?: string) => deps.relations.followers(author, limit, cursor);

/** Followers seen within the inactivity window (never recorded = active: nothing says otherwise). */
async function activeOnly(deps: FeedDeps, handles: string[], now: number): Promise<string[]> {
  const seen = await deps.inbox.lastSeen(handles);
  return handles.filter((h) => {
    const at = seen.get(h);
    return at === undefined || now - at <= deps.limits.inactiveAfterMs;
  });
}

async function continueWith(deps: FeedDeps, msg: FanoutMessage, nextCursor: string | undefined): Promise<boolean> {
  if (nextCursor) await deps.queue.send({ ...msg, cursor: nextCursor } as FanoutMessage);
  return Boolean(nextCursor);
}

export async function handleFanoutMessage(deps: FeedDeps, msg: FanoutMessage, now = Date.now()): Promise<FanoutOutcome> {
  switch (msg.type) {
    case 'fanout': {
      const post = await deps.posts.get(msg.postId);
      if (!post) return { readers: 0, continued: false, skipped: 'deleted' };
      if (await deps.celebrities.isCelebrity(post.author)) return { readers: 0, continued: false, skipped: 'celebrity' };
      const done = await overChunks(deps, followersOf(deps, post.author), msg.cursor, (handles) => deps.inbox.add(handles, post.id), {
        prepare: (handles) => activeOnly(deps, handles, now),
      });
      return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor) };
    }
    case 'retract': {
      const author = authorOfPostId(msg.postId);
      if (!author) return { readers: 0, continued: false };
      const done = await overChunks(deps, followersOf(deps, author), msg.cursor, (handles) => deps.inbox.remove(handles, msg.postId));
      return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor) };
    }
    case 'backfill': {
      // An unfollow may have overtaken this message: backfill only a still-current edge.
      if (!(await deps.relations.isFollowing(msg.reader, msg.followee))) return { readers: 0, continued: false, skipped: 'unfollowed' };
      await backfill(deps, msg.reader, msg.followee);
      return { readers: 1, continued: false };
    }
    case 'promote': {
      // Markers first, the flag last: until every follower can merge the outbox, posts keep
      // being fanned out, so no follower ever misses one (duplicates merge away).
      const done = await overChunks(deps, followersOf(deps, msg.author), msg.cursor, (handles) => deps.inbox.addCelebrity(handles, msg.author));
      if (!done.nextCursor) await deps.celebrities.setCelebrity(msg.author, true);
      return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor) };
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
      return { readers: done.readers, continued: await continueWith(deps, msg, done.nextCursor) };
    }
    case 'regenerate': {
      const done = await overChunks(
        deps,
        (limit, cursor) => deps.relations.following(msg.reader, limit, cursor),
        msg.cursor,
        async (followees) => {
          for (const followee of followees) await backfill(deps, msg.reader, followee);
        },
        { chunkSize: REGENERATE_FOLLOWEES_PER_MESSAGE, chunks: 1 },
      );
      if (!done.nextCursor) await deps.inbox.clearRegenerating(msg.reader);
      return { readers: 1, continued: await continueWith(deps, msg, done.nextCursor) };
    }
  }
}

/**
 * Copies a followee's recent posts into a reader's inbox: at most backfillLimit, and never older
 * than the tail of a full inbox (what is past the cap would be trimmed anyway). A celebrity is
 * marked for the read-time merge instead.
 */
async function backfill(deps: FeedDeps, reader: string, followee: string): Promise<void> {
  if (await deps.celebrities.isCelebrity(followee)) {
    await deps.inbox.addCelebrity([reader], followee);
    return;
  }
  const { size, oldestMillis } = await deps.inbox.stats(reader);
  const notOlderThan = size >= deps.limits.inboxCap ? oldestMillis : undefined;
  const posts = await deps.posts.recentByAuthor(followee, deps.limits.backfillLimit, notOlderThan);
  if (posts.length > 0) await deps.inbox.addMany(reader, posts.map((p) => p.id));
}
