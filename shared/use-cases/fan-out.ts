// shared/use-cases/fan-out.ts — what the SQS worker does with each message. Every step is
// idempotent (a re-delivered message rewrites the same inbox cells), work per message is
// bounded (at most chunksPerMessage × chunkSize followers; the rest continues in a follow-up
// message), and memory holds one chunk of followers at a time.
import type { FanoutMessage } from '../ports/fanout-queue.js';
import type { Edge, Page } from '../ports/feed-store.js';
import { authorOfPostId } from '../domain/post.js';
import type { FeedDeps } from './feed-deps.js';

export interface FanoutOutcome {
  readers: number;
  continued: boolean;
}

/** Pages the author's followers from `cursor`, applying `write` to each chunk. */
async function overFollowers(
  deps: FeedDeps,
  author: string,
  cursor: string | undefined,
  write: (handles: string[]) => Promise<void>,
): Promise<{ readers: number; nextCursor?: string }> {
  let readers = 0;
  let next = cursor;
  for (let chunk = 0; chunk < deps.limits.fanoutChunksPerMessage; chunk++) {
    const page: Page<Edge> = await deps.relations.followers(author, deps.limits.fanoutChunkSize, next);
    if (page.items.length > 0) await write(page.items.map((e) => e.handle));
    readers += page.items.length;
    next = page.nextCursor;
    if (!next) return { readers };
  }
  return { readers, nextCursor: next };
}

export async function handleFanoutMessage(deps: FeedDeps, msg: FanoutMessage): Promise<FanoutOutcome> {
  switch (msg.type) {
    case 'fanout': {
      const post = await deps.posts.get(msg.postId);
      if (!post) return { readers: 0, continued: false }; // deleted before delivery: nothing to do
      const done = await overFollowers(deps, post.author, msg.cursor, (handles) => deps.inbox.add(handles, post.id));
      if (done.nextCursor) await deps.queue.send({ ...msg, cursor: done.nextCursor });
      return { readers: done.readers, continued: Boolean(done.nextCursor) };
    }
    case 'retract': {
      const author = authorOfPostId(msg.postId);
      if (!author) return { readers: 0, continued: false };
      const done = await overFollowers(deps, author, msg.cursor, (handles) => deps.inbox.remove(handles, msg.postId));
      if (done.nextCursor) await deps.queue.send({ ...msg, cursor: done.nextCursor });
      return { readers: done.readers, continued: Boolean(done.nextCursor) };
    }
    case 'backfill': {
      // An unfollow may have overtaken this message: backfill only a still-current edge.
      if (!(await deps.relations.isFollowing(msg.reader, msg.followee))) return { readers: 0, continued: false };
      // Never older than the tail of a full inbox: what is past the cap would be trimmed anyway.
      const { size, oldestMillis } = await deps.inbox.stats(msg.reader);
      const notOlderThan = size >= deps.limits.inboxCap ? oldestMillis : undefined;
      const posts = await deps.posts.recentByAuthor(msg.followee, deps.limits.backfillLimit, notOlderThan);
      if (posts.length > 0) await deps.inbox.addMany(msg.reader, posts.map((p) => p.id));
      return { readers: 1, continued: false };
    }
  }
}
