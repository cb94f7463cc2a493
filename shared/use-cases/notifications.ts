// shared/use-cases/notifications.ts — notifications (通知): mention, comment, reply, repost, like
// and new-follower, grouped, with an unread count and a read-up-to marker.
//
// Delivery is asynchronous: the action that causes a notification only queues a `notify`
// message naming the FACT (this like, this follow…); the worker makes the notifications of that
// fact agree with its source of truth — added while the fact is live, retracted once it is not
// (an unlike, an unfollow, a deleted comment or post). So any number of deliveries, in any
// order, converge: each one reads the truth when it runs (invariant F in
// shared/schema/consistency.md). Every fact is queued twice: once right after its write (the
// notification shows within a second or so) and once BEFORE its first write, delayed by the
// settle window: if the request dies after its write, or a slow delivery read the truth before
// a later change and wrote after that change's own delivery, the delayed one still runs after
// everything and puts it right. Notifications converge within the settle window.
//
// Grouping (shared/domain/notification.ts): the group row keeps an exact count (moved only by the
// winner of a member's conditional write), the latest actors and the group's place in the list.
import { InvalidInputError } from '../domain/errors.js';
import { actorOfMember, noticesOf, parseGroupKey, withLatestMember, type Notice, type NotificationFact, type NotificationType } from '../domain/notification.js';
import { isPostId, type Post } from '../domain/post.js';
import { mentionedHandles } from '../domain/text-entities.js';
import type { Page } from '../ports/feed-store.js';
import { memberRef, type NotificationEntry } from '../ports/social-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { faceOf, readFaces, type Face, type Faces } from './faces.js';
import { hiddenFrom, silencedRecipients } from './visibility.js';
import { atStep } from './steps.js';

/** Entries read beyond the page, to fill in for groups hidden at read (stale, emptied, deleted post, blocked). */
const SPARE_ENTRIES = 10;
/** The unread badge counts up to this many groups ("99+"). */
export const UNREAD_CAP = 99;
/** A comment's text kept with its notification, in code points. */
const EXCERPT_CODE_POINTS = 100;
/** Rounds of read-and-swap on a group's latest members before an add gives up naming itself there. */
const LATEST_ATTEMPTS = 5;

// ------------------------------------------------------------------ sending

/**
 * Queues the delayed half of a fact's notification: call it BEFORE the fact's first write (like
 * the settle message of a follow), so it exists even if the request dies half-way.
 */
export function notifyLater(deps: Pick<FeedDeps, 'queue' | 'limits'>, fact: NotificationFact): Promise<void> {
  return deps.queue.send({ v: 1, type: 'notify', fact }, { delaySeconds: deps.limits.settleSeconds });
}

/** Queues the immediate half: call it after the fact's write. */
export function notifyNow(deps: Pick<FeedDeps, 'queue'>, fact: NotificationFact): Promise<void> {
  return deps.queue.send({ v: 1, type: 'notify', fact });
}

/** The facts a post notifies by: its mentions, and for a repost the original's author. */
export function postFacts(post: Post): NotificationFact[] {
  const mentions = post.mentions ? mentionedHandles(post.mentions) : [];
  return [
    ...(mentions.length > 0 ? [{ kind: 'post' as const, actor: post.author, postId: post.id, since: post.createdAt, mentions }] : []),
    ...(post.repostOf ? [{ kind: 'repost' as const, actor: post.author, postId: post.id, original: post.repostOf, since: post.createdAt }] : []),
  ];
}

// ------------------------------------------------------------------ the worker

/** Whether the fact still holds by its source of truth, and for a comment its text. */
async function truthOf(deps: FeedDeps, fact: NotificationFact): Promise<{ live: boolean; excerpt?: string }> {
  switch (fact.kind) {
    case 'like':
      return { live: (await deps.reactions.likeSince(fact.actor, fact.postId)) === fact.since };
    case 'follow':
      return { live: (await deps.relations.edge(fact.actor, fact.target))?.since === fact.since };
    case 'repost':
      return { live: (await deps.posts.get(fact.postId))?.repostOf === fact.original };
    case 'post':
      return { live: (await deps.posts.get(fact.postId)) !== null };
    case 'comment': {
      const found = await deps.comments.lookup(fact.postId, fact.commentId);
      return found.state === 'live' ? { live: true, excerpt: [...found.comment.body].slice(0, EXCERPT_CODE_POINTS).join('') } : { live: false };
    }
  }
}

export interface ReconcileOutcome {
  added: number;
  removed: number;
}

/** The worker's handling of a notify message. Idempotent; see the header. */
export async function reconcileFact(deps: FeedDeps, fact: NotificationFact): Promise<ReconcileOutcome> {
  const notices = noticesOf(fact);
  if (notices.length === 0) return { added: 0, removed: 0 };
  const [truth, silenced] = await Promise.all([truthOf(deps, fact), silencedRecipients(deps, fact.actor, notices.map((n) => n.recipient))]);
  await atStep(deps, 'notify.truth-read', { kind: fact.kind, actor: fact.actor });
  const outcomes = await Promise.all(
    // No notification from a user the recipient blocked or muted (or who blocks the recipient).
    notices.map((n) => reconcileNotice(deps, n, truth.live && !silenced.has(n.recipient), n.type === 'like' || n.type === 'repost' || n.type === 'follow' ? undefined : truth.excerpt)),
  );
  return { added: outcomes.filter((o) => o === 'added').length, removed: outcomes.filter((o) => o === 'removed').length };
}

async function reconcileNotice(deps: FeedDeps, n: Notice, live: boolean, excerpt?: string): Promise<'added' | 'removed' | 'unchanged'> {
  const store = deps.notifications;
  const current = await store.member(n.recipient, n.groupKey, n.member);
  if (!live) {
    // Only this fact's instance is retracted: a member a later like wrote has another since.
    if (current !== n.since || !(await store.removeMember(n.recipient, n.groupKey, n.member, n.since))) return 'unchanged';
    await store.count(n.recipient, n.groupKey, -1);
    return 'removed';
  }
  if (current === n.since) {
    // Present already (a redelivery, or the delayed half): make sure the group is placed.
    await placeGroup(deps, n, excerpt);
    return 'unchanged';
  }
  // Absent, or holding an older instance of the same actor's fact (like → unlike → like in one
  // window): written only while it holds what we read, so exactly one racing delivery wins.
  if (!(await store.putMember(n.recipient, n.groupKey, n.member, n.since, current ?? undefined))) return 'unchanged';
  await Promise.all([current === null ? store.count(n.recipient, n.groupKey, 1) : undefined, placeGroup(deps, n, excerpt)]);
  return 'added';
}

/**
 * After an add won (or to finish one): names the member among the group's latest (domain rule,
 * withLatestMember) and moves the group to the add's time if that is newer — a group only moves
 * forward in the list. The store swaps the latest members only while they hold what was read, so
 * racing adds retry; a lost race can only drop an older name, never a count.
 */
async function placeGroup(deps: FeedDeps, n: Notice, excerpt?: string): Promise<void> {
  for (let attempt = 0; attempt < LATEST_ATTEMPTS; attempt++) {
    const head = await deps.notifications.head(n.recipient, n.groupKey);
    const next = {
      at: head.latestAt === null ? n.since : Math.max(head.latestAt, n.since),
      latest: withLatestMember(head.latest, n.member, n.since),
      ...(excerpt === undefined ? {} : { excerpt }),
    };
    if (await deps.notifications.place(n.recipient, n.groupKey, next, head)) return;
  }
}

// ------------------------------------------------------------------ reading

export interface NotificationActor {
  handle: string;
  at: number;
  face: Face;
}

export interface NotificationGroup {
  /** Stable for the group at its current place; `markRead({ upTo: id })` marks it and everything older. */
  id: string;
  type: NotificationType;
  /** Exact: how many likes / reposts / followers the group holds (1 for a comment, reply, mention). */
  count: number;
  latestAt: number;
  unread: boolean;
  /** The latest actors, newest first (at most 3; blocked and muted users left out). */
  actors: NotificationActor[];
  /** The post it is about: yours (like, repost, comment, reply) or the one that mentions you. */
  post?: { id: string; body: string };
  /** The comment, for a comment, a reply or a mention in a comment. */
  comment?: { id: string; body: string };
}

const ID_PATTERN = /^(\d{1,16})\.([a-z]+\/[A-Za-z0-9_./-]{1,140})$/;

function parseId(id: string): { at: number; groupKey: string } | null {
  const m = ID_PATTERN.exec(id);
  if (!m || !parseGroupKey(m[2]!)) return null;
  const at = Number(m[1]);
  return Number.isSafeInteger(at) ? { at, groupKey: m[2]! } : null;
}

/**
 * The groups of these list entries as the recipient may see them (null where an entry shows
 * nothing): ONE parallel stage — the groups with their latest actors' member rows (one
 * multi-get), the posts they name, the recipient's blocks and mutes of those actors — plus
 * whatever `alongside` needs. A group is shown at its one live entry; groups emptied by
 * retractions, about a deleted post, or whose only actor the recipient blocked or muted show
 * nothing. The list and the unread badge both count through here, so they always agree.
 */
async function visibleGroups(
  deps: FeedDeps,
  recipient: string,
  entries: NotificationEntry[],
  readUpTo: Promise<number>,
  showFaces = true,
): Promise<(NotificationGroup | null)[]> {
  const subjects = entries.map((e) => parseGroupKey(e.groupKey));
  const postIds = [...new Set(subjects.flatMap((s) => (s?.postId && isPostId(s.postId) ? [s.postId] : [])))];
  const members = entries.flatMap((e) => e.latest.map(([member]) => ({ groupKey: e.groupKey, member })));
  const actorHandles = members.map((m) => actorOfMember(m.member));
  // The entries name their latest actors, so the actors' faces are read in this same stage.
  const [{ groups, live }, posts, hidden, marker, faces] = await Promise.all([
    deps.notifications.states(recipient, entries.map((e) => e.groupKey), members),
    deps.posts.getMany(postIds),
    hiddenFrom(deps, recipient, actorHandles),
    readUpTo,
    showFaces ? readFaces(deps, actorHandles) : Promise.resolve(new Map() as Faces),
  ]);
  const postById = new Map(posts.map((p) => [p.id, p]));
  return entries.map((entry, i): NotificationGroup | null => {
    const subject = subjects[i];
    const group = groups.get(entry.groupKey);
    // Not the group's live entry (a racing add left it), or every member retracted.
    if (!subject || !group || group.count <= 0 || group.latestAt !== entry.at) return null;
    const post = subject.postId === undefined ? undefined : postById.get(subject.postId);
    if (subject.postId !== undefined && !post) return null; // about a deleted post
    const actors: NotificationActor[] = [];
    for (const [member, at] of entry.latest) {
      const handle = actorOfMember(member);
      if (!live.has(memberRef(entry.groupKey, member)) || hidden.has(handle) || actors.some((a) => a.handle === handle)) continue;
      actors.push({ handle, at, face: faceOf(faces, handle) });
    }
    if (actors.length === 0 && group.count === 1) return null; // its one actor is gone or hidden
    return {
      id: `${entry.at}.${entry.groupKey}`,
      type: subject.type,
      count: group.count,
      latestAt: entry.at,
      unread: entry.at > marker,
      actors,
      ...(post ? { post: { id: post.id, body: post.body } } : {}),
      ...(subject.commentId ? { comment: { id: subject.commentId, body: entry.excerpt ?? '' } } : {}),
    };
  });
}

/** One page, newest first. Round trips: the entries scan, then visibleGroups' one parallel stage (the read marker in it too). */
export async function listNotifications(deps: FeedDeps, recipient: string, limit: number, cursor?: string): Promise<Page<NotificationGroup>> {
  const after = decodeCursor(cursor, (inner) => parseId(inner) !== null);
  const { items: entries, more } = await deps.notifications.entries(recipient, limit + SPARE_ENTRIES, after === undefined ? undefined : parseId(after)!);
  const shown = await visibleGroups(deps, recipient, entries, deps.notifications.readUpTo(recipient));
  const items: NotificationGroup[] = [];
  let consumed = 0; // entries walked, shown or not
  for (const group of shown) {
    if (items.length === limit) break;
    consumed++;
    if (group) items.push(group);
  }
  const hasMore = consumed < entries.length || more;
  const last = entries[consumed - 1];
  return { items, ...(hasMore && last ? { nextCursor: encodeCursor(`${last.at}.${last.groupKey}`) } : {}) };
}

/**
 * Groups the list would show as unread, up to UNREAD_CAP. Round trips: the marker and the newest
 * entries in parallel, then visibleGroups' one stage — so a group hidden by a block, a mute or a
 * deleted post is never counted (a badge the list cannot clear would be stuck).
 */
export async function unreadCount(deps: FeedDeps, recipient: string): Promise<{ count: number; capped: boolean }> {
  const [readUpTo, { items, more }] = await Promise.all([deps.notifications.readUpTo(recipient), deps.notifications.entries(recipient, UNREAD_CAP)]);
  const newer = items.filter((e) => e.at > readUpTo);
  if (newer.length === 0) return { count: 0, capped: false };
  const count = (await visibleGroups(deps, recipient, newer, Promise.resolve(readUpTo), false)).filter((g) => g !== null).length;
  return { count, capped: more && newer.length === items.length };
}

/** Marks `upTo` (a notification id) and everything older as read. The marker never moves back. */
export async function markNotificationsRead(deps: FeedDeps, recipient: string, upTo: string, now = Date.now()): Promise<{ readUpTo: number }> {
  const parsed = parseId(upTo);
  if (!parsed) throw new InvalidInputError('upTo is not a notification id', 'invalid_notification_id');
  const at = Math.min(parsed.at, now);
  await deps.notifications.markRead(recipient, at);
  return { readUpTo: await deps.notifications.readUpTo(recipient) };
}
