// shared/use-cases/background/delivery.ts — posts into inboxes: a post's fan-out to its author's
// present followers, its retraction after a delete, and the backfill after a follow. Keeps A (a
// settled timeline is exactly the truth: each of these is an in-flight writer bounded by the
// settle window), B (a deleted post never comes back: a fan-out looks at its post again after
// writing and retracts again) and J's segments (a big post's list split into segment messages),
// as docs/consistency.md states them.
//
// Scale behaviour (product.md): posts by celebrities are not fanned out — readers merge the
// celebrity's outbox at read time; followers marked away are skipped at no cost (the followers-
// side row the fan-out scans carries the mark) — their inbox is rebuilt when they return
// (activity.ts). A chunk of 1,000 followers is one batch put; the followers come from the
// author's packed audience (invariant N), a scan page where a block is not packed.
import { authorOfPostId } from '../../domain/post.js';
import type { Segment } from '../../ports/feed-store.js';
import type { FeedDeps } from '../feed-deps.js';
import { notifyNow, postFacts, reconcileFact, type ReconcileDeps } from '../notifications.js';
import { SPECIAL_FANS_PER_MESSAGE, SPECIAL_GROUP_ID } from '../../domain/groups.js';
import { atStep } from '../steps.js';
import type { LiveEvent } from '../../domain/live.js';
import { announce, announceToFollowers, watchersOf as watchingAuthor } from '../live.js';
import { continueWith, type Handled, type MessageOf } from './message.js';
import { handlesOf, perMessage, prefetched, writePages, type Walked } from './pager.js';

/** A post's delivery: the followers' inboxes (segmented, continued through the queue), and its notifications. */
export type DeliverDeps = ReconcileDeps &
  Pick<FeedDeps, 'inbox' | 'counters' | 'celebrities' | 'queue' | 'limits' | 'announcer'>;
/** A deleted post's retraction: the same walk, removing. */
export type RetractDeps = Pick<
  FeedDeps,
  'relations' | 'inbox' | 'counters' | 'queue' | 'limits' | 'announcer' | 'step'
>;
/** A backfill (a follow's, a settle's, a returning reader's): the followee's recent posts into one inbox. */
export type BackfillDeps = Pick<FeedDeps, 'posts' | 'inbox' | 'celebrities' | 'limits' | 'step'>;

/** At most this many segments per post: about the worker's concurrency (serverless.yml workerMaxConcurrency). */
export const MAX_SEGMENTS = 16;

export interface DeliveryOutcome extends Handled<'deleted' | 'celebrity'> {
  /** The segments this message split the follower list into (it ran the first). */
  segments?: number;
  /** The post was deleted while this message wrote it out, so its retraction was queued again. */
  retractedAgain?: boolean;
}

export interface RetractionOutcome extends Handled {
  /** The segments this message split the follower list into (it ran the first). */
  segments?: number;
}

/** Delivers a post to its author's followers who are not away, one segment and a bounded part of it per message. */
export async function deliverPost(deps: DeliverDeps, msg: MessageOf<'fanout'>): Promise<DeliveryOutcome> {
  // The three reads a message starts with are independent (the author is in the post id): one
  // round trip, not three, before the first page of followers is asked for.
  const author = authorOfPostId(msg.postId);
  // A follow-up message knows its part of the list already (cursor, segment): its first page of
  // followers is asked for beside these reads, not after them. Dropped (the scanner closed
  // unread) if the post is gone or its author a celebrity.
  const early = author && !isFirst(msg) ? audience(deps, author, msg.segment, msg.cursor, true) : undefined;
  const [post, celebrity, followers, watching, holders] = await Promise.all([
    deps.posts.get(msg.postId),
    author ? deps.celebrities.isCelebrity(author) : false,
    author && isFirst(msg) ? deps.counters.get(author, 'followers') : undefined,
    author ? watchersOf(deps, author) : NO_WATCHERS,
    // Who keeps the author in 特别关注 (one get of the index; the first message only).
    author && isFirst(msg) ? deps.groups.holders(author) : [],
  ]).catch(async (err: unknown) => {
    await early?.close();
    throw err;
  });
  if (!post || celebrity) await early?.close();
  if (!post) return { readers: 0, continued: false, inboxCells: 0, skipped: 'deleted' };
  // The first message of a post also notifies: who it mentions, a repost's original author, and
  // those who keep its author in 特别关注 (each checked against their own book by the reconcile).
  // Its 特别关注 fans are told through notify messages of SPECIAL_FANS_PER_MESSAGE fans each:
  // however many keep the author there, this message's work stays bounded and its inbox walk
  // is not held back (each notify message reconciles its fans, idempotently).
  if (isFirst(msg)) {
    const fans = [...new Set(holders.filter((h) => h.groupId === SPECIAL_GROUP_ID).map((h) => h.owner))];
    const chunks = Array.from({ length: Math.ceil(fans.length / SPECIAL_FANS_PER_MESSAGE) }, (_, i) =>
      fans.slice(i * SPECIAL_FANS_PER_MESSAGE, (i + 1) * SPECIAL_FANS_PER_MESSAGE),
    );
    await Promise.all([
      ...postFacts(post).map((fact) => reconcileFact(deps, fact)),
      // Recorded before the notices: the author's erasure finds every one of them (X, R).
      deps.groups.told(post.author, post.id, fans).then(() =>
        Promise.all(
          chunks.map((chunk) =>
            notifyNow(deps, {
              kind: 'special',
              actor: post.author,
              postId: post.id,
              since: post.createdAt,
              fans: chunk,
            }),
          ),
        ),
      ),
    ]);
  }
  const event = { kind: 'post', postId: post.id, author: post.author } as const;
  if (celebrity) {
    // Merged at read time, never fanned out: the readers watching the author who follow it are
    // told (one read of the watchers, one of their edges), not every follower.
    if (deps.announcer && isFirst(msg)) await announceToFollowers(deps.announcer, post.author, event, Date.now());
    return { readers: 0, continued: false, inboxCells: 0, skipped: 'celebrity' };
  }
  const segment = await splitIntoSegments(deps, msg, followers);
  const split = msg.segment === undefined && segment ? { segments: segment.of } : {};
  const walk = early ?? audience(deps, post.author, segment, msg.cursor, true);
  const done = await walk.write(async (handles) => {
    await deps.inbox.add(handles, post);
    await tellWatching(deps, watching, handles, event);
  });
  // A delete that landed while we wrote may have been retracted before our cells arrived:
  // look again, and if the post is gone, retract what this message covered (idempotent). The
  // follow-up goes out beside that look: if the post is gone, it finds so first and stops.
  const rest = { ...msg, ...(segment ? { segment } : {}) };
  const [still, continued] = await Promise.all([deps.posts.get(post.id), continueWith(deps, rest, done.nextCursor)]);
  if (!still) {
    await deps.queue.send({
      v: 1,
      type: 'retract',
      postId: post.id,
      ...(msg.cursor ? { cursor: msg.cursor } : {}),
      ...(segment ? { segment } : {}),
    });
    return { readers: done.readers, continued, inboxCells: done.written, retractedAgain: true, ...split };
  }
  return { readers: done.readers, continued, inboxCells: done.written, ...split };
}

/** Removes a deleted post from its author's followers' inboxes, split and continued as its delivery was. */
export async function retractPost(deps: RetractDeps, msg: MessageOf<'retract'>): Promise<RetractionOutcome> {
  const author = authorOfPostId(msg.postId);
  if (!author) return { readers: 0, continued: false, inboxCells: 0 };
  // Away readers too: a cell written before they were marked must go.
  const [followers, watching] = await Promise.all([
    isFirst(msg) ? deps.counters.get(author, 'followers') : undefined,
    watchersOf(deps, author),
  ]);
  const segment = await splitIntoSegments(deps, msg, followers);
  const event = { kind: 'deleted', postId: msg.postId, author } as const;
  const done = await audience(deps, author, segment, msg.cursor, false).write(async (handles) => {
    await deps.inbox.remove(handles, msg.postId);
    await tellWatching(deps, watching, handles, event);
  });
  const split = msg.segment === undefined && segment ? { segments: segment.of } : {};
  return {
    readers: done.readers,
    continued: await continueWith(deps, { ...msg, ...(segment ? { segment } : {}) }, done.nextCursor),
    inboxCells: 0,
    ...split,
  };
}

/** After a follow: the followee's recent posts into the reader's inbox. */
export async function backfillFollow(
  deps: BackfillDeps & Pick<FeedDeps, 'relations' | 'announcer'>,
  msg: MessageOf<'backfill'>,
): Promise<Handled<'unfollowed'>> {
  // An unfollow may have overtaken this message: backfill only a still-current edge.
  if (!(await deps.relations.isFollowing(msg.reader, msg.followee)))
    return { readers: 0, continued: false, inboxCells: 0, skipped: 'unfollowed' };
  // A reader connected now hears of the new followee's posts at once, not at its next connect.
  await deps.announcer?.live.watch(msg.reader, [msg.followee]);
  return { readers: 1, continued: false, inboxCells: await backfill(deps, msg.reader, msg.followee) };
}

/**
 * Copies a followee's recent posts into a reader's inbox: at most backfillLimit, and never older
 * than the tail of a full inbox (what is past the cap would be trimmed anyway). A celebrity is
 * marked for the read-time merge instead. Returns the number of posts copied. Also the step of a
 * settle (settle.ts) and of a returning reader's rebuild (activity.ts).
 */
export async function backfill(
  deps: BackfillDeps,
  reader: string,
  followee: string,
  celebrity?: boolean,
): Promise<number> {
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
 * A post's audience (one segment, or all), written page by page as the store reads it (its packs,
 * or one scan: no scanner set up per page). `present`: only followers not marked away. Its first
 * page is asked for at once, so the read runs beside whatever the caller does before `write`;
 * `close` drops it unwritten.
 */
function audience(
  deps: Pick<FeedDeps, 'relations' | 'limits' | 'step'>,
  author: string,
  segment: Segment | undefined,
  cursor: string | undefined,
  present: boolean,
): { write: (write: (handles: string[]) => Promise<void>) => Promise<Walked>; close: () => Promise<void> } {
  const pages = deps.relations.audiencePages(author, {
    ...(cursor === undefined ? {} : { cursor }),
    ...(segment ? { segment } : {}),
    ...perMessage(deps),
  });
  const started = prefetched(pages);
  return {
    write: (write) =>
      writePages(deps, started, (members) => handlesOf(present ? members.filter((m) => !m.away) : members), write),
    close: () => started.close(),
  };
}

const NO_WATCHERS: ReadonlySet<string> = new Set();

/** The readers watching the author (none without a live channel): one read, shared for a while by a worker. */
function watchersOf(deps: Pick<FeedDeps, 'announcer'>, author: string): Promise<ReadonlySet<string>> {
  return deps.announcer ? watchingAuthor(deps.announcer, author) : Promise.resolve(NO_WATCHERS);
}

/**
 * After a page of inboxes is written: the page's readers who watch the author are told (their
 * logs, their connections). Most pages hold none of them, and cost nothing more.
 */
async function tellWatching(
  deps: Pick<FeedDeps, 'announcer'>,
  watching: ReadonlySet<string>,
  handles: string[],
  event: LiveEvent,
): Promise<void> {
  if (!deps.announcer || watching.size === 0) return;
  const told = handles.filter((h) => watching.has(h));
  if (told.length > 0) await announce(deps.announcer, told, event, Date.now());
}

/** The first message of a post: no cursor, no segment (it decides the segments and notifies). */
const isFirst = (msg: MessageOf<'fanout' | 'retract'>): boolean =>
  msg.cursor === undefined && msg.segment === undefined;

/**
 * The first message of a post (no cursor, no segment) by an author with more followers than one
 * message covers: sends segments 1..n-1 as messages of their own and returns segment 0 for
 * itself. `followers` is the author's counter, read by the first message only (beside its other
 * reads); smaller lists stay one message chain.
 */
async function splitIntoSegments(
  deps: Pick<FeedDeps, 'queue' | 'limits'>,
  msg: MessageOf<'fanout' | 'retract'>,
  followers: number | undefined,
): Promise<Segment | undefined> {
  if (!isFirst(msg) || followers === undefined) return msg.segment;
  const { pageSize, pages } = perMessage(deps);
  if (followers <= pageSize * pages) return undefined;
  const of = Math.min(MAX_SEGMENTS, Math.ceil(followers / (pageSize * pages)));
  await Promise.all(
    Array.from({ length: of - 1 }, (_, i) => deps.queue.send({ ...msg, segment: { index: i + 1, of } })),
  );
  return { index: 0, of };
}
