// shared/use-cases/erase-account.ts — the erasure of an account that left (注销) and was not
// restored within RESTORE_WINDOW_MS: everything it wrote or did goes, and every other user's row
// it touched is put right (counts, edges' other sides, list entries, notifications), step by step
// and resumable (docs/consistency.md R).
//
// It begins with ONE check-and-put on the users row, standing deactivated at t → erased now: of
// a restore and the erasure racing, exactly one moves the standing (Q), and an erasure that loses
// erases nothing. From then on no login restores the account and no request can act on it or aim
// at it (every action reads the standing first).
//
// Then a WALK of phases, each a bounded batch at a time. Every item the walk is handed is
// removed before the next batch is read, so a phase simply reads again from its beginning until
// nothing is left: no position to carry, and a walk cut anywhere is finished by running it again
// (every removal is idempotent; counts move only for the request that won the removal, as for
// the user's own unfollow, unlike and delete). The order matters in one place: the posts go after
// the follows-in phase, which purges them from the followers' inboxes in one read each.
//
// What the walk leaves is the users row, reduced to the handle's reservation (the handle and the
// erased standing) so nobody can register the handle and inherit its mentions. RESERVATION_MS
// later the RELEASE runs the walk once more and then deletes that row. The walk again is what
// heals a write that was in flight when the erasure began: a request checks the standing before
// it writes and lives at most seconds (API Gateway's 30 s), so any write that read the account
// active lands long before the release walks (forced: a follow held across the erasure).
import { RESTORE_WINDOW_MS } from '../domain/leaving.js';
import { noticesOf, type NotificationFact } from '../domain/notification.js';
import { authorOfPostId } from '../domain/post.js';
import { searchTerms } from '../domain/people-search.js';
import { mentionedHandles, topicNames } from '../domain/text-entities.js';
import { mentionTerm } from '../domain/post-search.js';
import type { AccountRemains, Departure } from '../ports/account-remains.js';
import type { PeopleIndex } from '../ports/people-index.js';
import { followFacts, likeFact } from './background/tally.js';
import type { FeedDeps } from './feed-deps.js';
import { discardPictures } from './media/attach.js';
import { postFacts, reconcileFact, type ReconcileDeps, repostFact } from './notifications.js';
import { atStep } from './steps.js';
import { commentFact } from './comments.js';
import { removeConversation, type MessagePictures } from './messages.js';
import { eraseGroups } from './groups.js';
import { searchTermsOf } from './search-posts.js';
import { RESERVATION_MS } from '../domain/limits.js';

/**
 * What the walk touches: every store the account wrote to or left traces in, the pictures, the
 * people index, and what is left of it. Not the queue: the erasure reconciles notifications and
 * moves counts itself.
 */
export interface ErasureDeps
  extends Pick<
    FeedDeps,
    | 'users'
    | 'posts'
    | 'relations'
    | 'inbox'
    | 'counters'
    | 'reactions'
    | 'comments'
    | 'blocks'
    | 'notifications'
    | 'topics'
    | 'search'
    | 'pictures'
    | 'messages'
    | 'groups'
    | 'step'
  > {
  remains: AccountRemains;
  people: PeopleIndex;
  /** Pictures in private messages: given back and discarded with the conversations (absent: none are held). */
  messagePictures?: Pick<MessagePictures, 'release'>;
}

/** The walk's phases, in order (see the header). */
export const ERASURE_PHASES = [
  'follows-out',
  'follows-in',
  'reactions',
  'comments',
  'posts',
  'mentions',
  'messages',
  'blocks',
  'groups',
  'people',
  'own-rows',
] as const;
export type ErasurePhase = (typeof ERASURE_PHASES)[number];

/** What one call of a phase did: how many items it removed, and whether the phase is done. */
interface PhaseResult {
  removed: number;
  done: boolean;
}

/** How a departure's stage ended, or that it goes on. */
export type StageOutcome =
  | { state: 'continue'; phase: ErasurePhase; removed: number }
  /** The erasure began or went on, and the walk is done: the handle is reserved, the release scheduled. */
  | { state: 'erased'; removed: number }
  /** The reservation is over: the users row is gone and the handle free. */
  | { state: 'released'; removed: number }
  /** The entry no longer stands for anything (restored, left again later, never landed): dropped. */
  | { state: 'stale' };

/**
 * Runs one bounded piece of a departure's stage: the begin check (at the first piece), then up to
 * `budget` removals of the walk from `phase` on. The job calls it again with the phase it returns
 * until the stage is over.
 */
export async function eraseSome(
  deps: ErasureDeps,
  departure: Departure,
  phase: ErasurePhase | undefined,
  budget: number,
  now = Date.now(),
): Promise<StageOutcome> {
  const { handle } = departure;
  const standing = await deps.remains.standing(handle);
  if (departure.stage === 'erase') {
    // The entry is for the leave made at due − RESTORE_WINDOW_MS; anything else makes it stale.
    const leftAt = departure.due - RESTORE_WINDOW_MS;
    if (standing?.state === 'deactivated' && standing.at === leftAt) {
      await atStep(deps, 'erase.read', { handle });
      // The release's entry first: an erased account never lacks one (a crash after the standing
      // moved leaves both entries; the erase entry resumes the walk, the release ends it).
      await deps.remains.schedule({ stage: 'release', handle, due: now + RESERVATION_MS });
      if (!(await deps.remains.beginErasure(handle, leftAt, now))) {
        // A restore (or a second leave after one) won: nothing is erased. The release entry
        // just written is dropped when it falls due (the standing is not erased then).
        await deps.remains.unschedule(departure);
        return { state: 'stale' };
      }
    } else if (standing?.state !== 'erased') {
      await deps.remains.unschedule(departure);
      return { state: 'stale' };
    }
  } else if (standing?.state !== 'erased') {
    // No reservation to end (a restore won the race its entry was written for), or it was released.
    await deps.remains.unschedule(departure);
    return { state: 'stale' };
  }

  let removed = 0;
  for (let i = phase ? ERASURE_PHASES.indexOf(phase) : 0; i < ERASURE_PHASES.length; i++) {
    const current = ERASURE_PHASES[i]!;
    const result = await PHASES[current](deps, handle, budget - removed);
    removed += result.removed;
    if (!result.done) return { state: 'continue', phase: current, removed };
    if (removed >= budget && i + 1 < ERASURE_PHASES.length)
      return { state: 'continue', phase: ERASURE_PHASES[i + 1]!, removed };
  }
  if (departure.stage === 'erase') {
    await deps.remains.reserve(handle);
    await deps.remains.unschedule(departure);
    return { state: 'erased', removed };
  }
  const at = standing.state === 'erased' ? standing.at : 0;
  await deps.remains.release(handle, at);
  await deps.remains.unschedule(departure);
  return { state: 'released', removed };
}

type Phase = (deps: ErasureDeps, handle: string, budget: number) => Promise<PhaseResult>;

/** Runs `each` on a batch of at most `budget` items; the phase is done when the batch was short. */
async function batch<T>(
  budget: number,
  read: (limit: number) => Promise<T[]>,
  each: (item: T) => Promise<void>,
): Promise<PhaseResult> {
  const limit = Math.max(1, budget);
  const items = await read(limit);
  for (const item of items) await each(item);
  return { removed: items.length, done: items.length < limit };
}

/** Makes a fact's notices agree with its truth (now gone: retracted, the counts moved), then forgets the member for good. */
async function retractAndForget(
  deps: ReconcileDeps & Pick<ErasureDeps, 'remains'>,
  fact: NotificationFact,
): Promise<void> {
  await reconcileFact(deps, fact);
  await Promise.all(noticesOf(fact).map((n) => deps.remains.forgetMember(n.recipient, n.groupKey, n.member)));
}

/** Forgets whole groups about something that goes (a comment, a post's mentions): groups of one. */
const forgetGroups = (deps: Pick<ErasureDeps, 'remains'>, fact: NotificationFact) =>
  Promise.all(noticesOf(fact).map((n) => deps.remains.forgetGroup(n.recipient, n.groupKey)));

const PHASES: Record<ErasurePhase, Phase> = {
  /** Whom the account follows: each edge both sides, the followee's count, the follow notification. */
  'follows-out': (deps, handle, budget) =>
    batch(
      budget,
      async (limit) => (await deps.relations.following(handle, limit)).items,
      async ({ handle: followee, since }) => {
        if (await deps.relations.unfollow(handle, followee, since)) {
          await deps.counters.add(followee, 'followers', -1, followFacts(handle, followee, since).followers);
        }
        // A followers side left by a cut follow goes too (the store removes it only on this since).
        await deps.relations.removeFollowerSide(handle, followee, since);
        await retractAndForget(deps, { kind: 'follow', actor: handle, target: followee, since });
      },
    ),
  /**
   * Who follows the account, by the followers side AND its list entries (written before the
   * edge: a follow that was in flight shows here even before its edge does): each follower's
   * edge, count, celebrity marker, and the account's posts in their inbox.
   */
  'follows-in': async (deps, handle, budget) => {
    const read = async (limit: number) => {
      const [sides, listed] = await Promise.all([
        deps.relations.followers(handle, limit),
        deps.relations.listed(handle, 'followers', limit),
      ]);
      const all = new Map([...sides.items, ...listed.items].map((e) => [`${e.handle}/${e.since}`, e]));
      return [...all.values()].slice(0, limit);
    };
    return batch(budget, read, async ({ handle: follower, since }) => {
      const edge = await deps.relations.edge(follower, handle);
      if (edge && (await deps.relations.unfollow(follower, handle, edge.since))) {
        await deps.counters.add(follower, 'following', -1, followFacts(follower, handle, edge.since).following);
      }
      await Promise.all([
        deps.relations.removeFollowerSide(follower, handle, since),
        deps.inbox.removeCelebrity([follower], handle),
        deps.inbox.purgeAuthor(follower, handle),
      ]);
    });
  },
  /** The account's likes (the post's count and likers' list) and bookmarks; its reposts go with its posts. */
  reactions: (deps, handle, budget) =>
    batch(
      budget,
      (limit) => deps.remains.reactions(handle, limit),
      async ({ postId, likedAt, bookmarkedAt }) => {
        if (likedAt !== null) {
          if (await deps.reactions.unlike(handle, postId, likedAt))
            await deps.posts.count(postId, 'likes', -1, likeFact(handle, likedAt));
          await deps.reactions.removeLiker(postId, handle, likedAt);
          if (authorOfPostId(postId) !== handle)
            await retractAndForget(deps, { kind: 'like', actor: handle, postId, since: likedAt });
        }
        if (bookmarkedAt !== null) {
          await deps.reactions.unbookmark(handle, postId, bookmarkedAt);
          await deps.reactions.unlistBookmark(handle, postId, bookmarkedAt);
        }
        await deps.remains.dropReaction(handle, postId);
      },
    ),
  /** The account's comments on any post (its index, kind W): deleted and uncounted, their notifications gone. */
  comments: (deps, handle, budget) =>
    batch(
      budget,
      (limit) => deps.remains.written(handle, limit),
      async ({ postId, commentId, since }) => {
        const found = await deps.comments.lookup(postId, commentId);
        if (found.state === 'live' && found.comment.author === handle) {
          await deps.comments.dropContent(postId, commentId);
          if (await deps.comments.markDeleted(postId, commentId, Date.now()))
            await deps.posts.count(postId, 'comments', -1, commentId);
          await forgetGroups(deps, commentFact(found.comment));
          const named = found.comment.mentions ? mentionedHandles(found.comment.mentions) : [];
          await Promise.all(
            named.map((h) => deps.remains.dropMention(h, { postId, commentId }, found.comment.createdAt)),
          );
        }
        await deps.comments.unlistWritten({ author: handle, postId, id: commentId, createdAt: since });
      },
    ),
  /** The account's posts, live or deleted: their effects on others undone, then every row of theirs. */
  posts: (deps, handle, budget) =>
    batch(
      budget,
      (limit) => deps.remains.posts(handle, limit),
      (id) => erasePost(deps, handle, id),
    ),
  /**
   * Where others named it with a link (its mention index, kind N): each post, earlier version and
   * comment keeps its text and loses the link, so nobody who registers the handle later inherits it.
   */
  mentions: (deps, handle, budget) =>
    batch(
      budget,
      (limit) => deps.remains.mentionsOf(handle, limit),
      async ({ place, since }) => {
        await deps.remains.unlinkMention(handle, place);
        // A post's search entry under the mention goes with the link (its words stay findable).
        if (!place.commentId) await deps.search.remove(place.postId, [mentionTerm(handle)]);
        await deps.remains.dropMention(handle, place, since);
      },
    ),
  /**
   * Its private conversations, every one (those it deleted for itself too: its participation
   * marks find them), deleted for BOTH sides: a conversation's row is keyed by the two handles,
   * and the handle goes to someone else at the release. The pictures are discarded, the other
   * side's list entries and counts for it go.
   */
  messages: (deps, handle, budget) => {
    const store = deps.messages;
    if (!store) return Promise.resolve({ removed: 0, done: true });
    return batch(
      budget,
      (limit) => store.peersOf(handle, limit),
      (peer) => removeConversation({ ...deps, messages: store }, handle, peer),
    );
  },
  /** Its blocks and mutes, and everyone's blocks and mutes of it (the reverse entries). */
  blocks: async (deps, handle, budget) => {
    const read = async (limit: number) => {
      const [mine, theirs] = await Promise.all([
        deps.remains.blocking(handle, limit),
        deps.remains.blockedBy(handle, limit),
      ]);
      return [
        ...mine.map((b) => ({ ...b, from: handle, to: b.user })),
        ...theirs.map((b) => ({ ...b, from: b.user, to: handle })),
      ].slice(0, limit);
    };
    return batch(budget, read, async (b) => {
      await deps.blocks.remove(b.kind, b.from, b.to);
      await deps.remains.dropBlock(b.kind, b.from, b.to, b.since);
    });
  },
  /** Every group that holds it, and its own groups (one step: at most 21 books of its own, and its holders). */
  groups: async (deps, handle) => {
    // The 特别关注 notices its posts sent go first (their record goes with the book).
    const told = await deps.groups.toldOf(handle);
    await Promise.all(told.map((t) => deps.remains.forgetGroup(t.fan, `special/${t.postId}`)));
    await eraseGroups(deps, handle);
    return { removed: 1, done: true };
  },
  /** Its rows in the people index (the current naming's). */
  people: async (deps, handle) => {
    const naming = await deps.users.naming(handle);
    if (naming?.naming) await deps.people.remove(handle, searchTerms(handle, naming.displayName), naming.naming);
    return { removed: naming?.naming ? 1 : 0, done: true };
  },
  /** Every row left under its own keys (inbox, outbox, notifications, lists, …): see AccountRemains.dropOwnRows. */
  'own-rows': async (deps, handle, budget) => {
    const removed = await deps.remains.dropOwnRows(handle, Math.max(1, budget));
    return { removed, done: removed < Math.max(1, budget) };
  },
};

/** One of the account's posts: what a delete undoes on others, then others' traces on it, its comments, and its rows. */
async function erasePost(deps: ErasureDeps, handle: string, id: string): Promise<void> {
  const found = await deps.posts.lookup(id);
  if (found.state === 'live') {
    const post = found.post;
    // Read while its texts are there: every term any of them was indexed under.
    const terms = await searchTermsOf(deps, post);
    await deps.posts.markDeleted(id, Date.now());
    const original = post.repostOf;
    await Promise.all([
      ...(original
        ? [
            deps.posts.count(original, 'reposts', -1, id),
            deps.reactions.removeRepost(handle, original, id),
            authorOfPostId(original) === handle ? undefined : retractAndForget(deps, repostFact(post, original)),
          ]
        : []),
      ...(post.topics?.length ? [deps.topics.remove(id, topicNames(post.topics))] : []),
      deps.search.remove(id, terms),
      ...postFacts(post)
        .filter((f) => f.kind === 'post')
        .map((f) => forgetGroups(deps, f)),
      discardPictures(deps.pictures, post.media?.map((m) => m.id) ?? []),
    ]);
  }
  // Others' likes, bookmarks and reposts of it (their reposts stay, showing it deleted); an edit
  // told to its reposters goes with their trace.
  for (;;) {
    const traces = await deps.remains.tracesOn(id, TRACE_BATCH);
    for (const t of traces) {
      if (t.kind === 'repost') await deps.remains.forgetGroup(t.user, `edit/${id}`);
      await deps.remains.dropTrace(id, t);
    }
    if (traces.length < TRACE_BATCH) break;
  }
  // Its comments, whoever wrote them: their notifications to others (replies, mentions) and their
  // authors' index entries go with them.
  for (;;) {
    const comments = await deps.remains.commentsOn(id, TRACE_BATCH);
    for (const c of comments) {
      if (c.author)
        await forgetGroups(deps, {
          kind: 'comment',
          actor: c.author,
          postId: id,
          commentId: c.commentId,
          since: c.createdAt,
          ...(c.replyTo ? { replyTo: c.replyTo.author } : {}),
          mentions: c.mentions,
        });
      await deps.remains.dropComment(id, c);
    }
    if (comments.length < TRACE_BATCH) break;
  }
  await deps.remains.dropPost(id);
}

/** Others' traces (and comments) on one post read at a time. */
const TRACE_BATCH = 100;
