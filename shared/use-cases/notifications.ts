// shared/use-cases/notifications.ts — notifications (通知): mention, comment, reply, repost, like
// and new-follower, grouped, with an unread count and a read-up-to marker.
//
// Delivery is asynchronous: the action that causes a notification only queues a `notify`
// message naming the FACT (this like, this follow…); the worker makes the notifications of that
// fact agree with its source of truth — added while the fact is live, retracted once it is not
// (an unlike, an unfollow, a deleted comment or post). So any number of deliveries, in any
// order, converge: each one reads the truth when it runs (invariant F in
// docs/consistency.md). Every fact is queued twice: once right after its write (the
// notification shows within a second or so) and once BEFORE its first write, delayed by the
// settle window: if the request dies after its write, or a slow delivery read the truth before
// a later change and wrote after that change's own delivery, the delayed one still runs after
// everything and puts it right. Notifications converge within the settle window.
//
// Grouping (shared/domain/notification.ts): a group counts people. Each member row holds the
// live instances of its actor's facts (a conditional swap, so exactly one racing delivery moves
// it); the group's count, place and latest actors are ONE cell, moved by a conditional swap that
// is retried until it lands, so they always move together (invariant F).
//
// What a user is told of (their settings, domain/settings.ts) is decided HERE, when a fact's
// notices are written, and not when they are read. The recipients' choices are read beside the
// fact's truth (one multi-get in the same stage: no extra round trip for the worker), and a
// notice of a kind its recipient switched off is reconciled as not live, exactly like one from a
// user they muted: it never arrives, and a redelivery after the switch takes one back. Deciding
// at read time instead would cost the list and the unread badge a read each, and would let
// switched-off groups crowd out the page and the badge's window (UNREAD_CAP) while showing
// nothing; decided here, the list and the badge count the same groups with no new read, and a
// switch holds from the next fact on (what was already told stays, as on Weibo).
import { SPECIAL_GROUP_ID } from '../domain/groups.js';
import { InvalidInputError } from '../domain/errors.js';
import {
  actorOfMember,
  changedGroup,
  noticesOf,
  parseGroupKey,
  type GroupState,
  type Notice,
  type NotificationFilter,
  typesOfFilter,
  type NotificationFact,
  type NotificationType,
} from '../domain/notification.js';
import { isPostId, type Post } from '../domain/post.js';
import { mentionedHandles } from '../domain/text-entities.js';
import type { Page } from '../ports/feed-store.js';
import type { NotificationEntry } from '../ports/social-store.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FeedDeps } from './feed-deps.js';
import { faceOf, readFaces, type Face } from './faces.js';
import { hiddenFrom, silencedRecipients } from './visibility.js';
import { atStep } from './steps.js';
import { announce } from './live.js';
import type { TallyHeal } from './background/tally.js';
import { UNREAD_CAP } from '../domain/limits.js';
import { wantsNotice } from '../domain/settings.js';
import type { Engagement } from '../domain/hot.js';
import type { UserStore } from '../ports/user-store.js';

/** What reconciling a fact's notifications reads and writes (reconcileFact: the worker, the erasure). */
export type ReconcileDeps = Pick<
  FeedDeps,
  'posts' | 'relations' | 'reactions' | 'comments' | 'blocks' | 'notifications' | 'groups' | 'announcer' | 'step'
> & { users: Pick<UserStore, 'notificationChoices'> } & Partial<Pick<FeedDeps, 'hot'>>;
/** What showing the notifications reads (the list and the unread badge). */
export type NotificationsReadDeps = Pick<FeedDeps, 'users' | 'posts' | 'blocks' | 'notifications' | 'pictures'>;

/** Entries read beyond the page, to fill in for groups hidden at read (stale, emptied, deleted post, blocked). */
const SPARE_ENTRIES = 10;
/** A comment's text kept with its notification, in code points. */
const EXCERPT_CODE_POINTS = 100;
/**
 * Rounds of read-and-swap before a delivery gives up (it then fails, and the queue delivers it
 * again). Every round some racing writer wins, so with a jittered back-off this bounds only a
 * pathological storm: 80 deliveries into one group settle well inside it.
 */
const SWAP_ATTEMPTS = 100;
/** The longest back-off between two rounds, in ms (jittered, doubling from 2 ms). */
const SWAP_BACKOFF_MAX_MS = 100;

// ------------------------------------------------------------------ sending

/**
 * Queues the delayed half of a fact's notification: call it BEFORE the fact's first write (like
 * the settle message of a follow), so it exists even if the request dies half-way. It also
 * applies a count change the request was cut before (`tally`: when the operation began, and
 * whether it takes the fact back; background/tally.ts).
 */
export function notifyLater(
  deps: Pick<FeedDeps, 'queue' | 'limits'>,
  fact: NotificationFact,
  tally: TallyHeal,
): Promise<void> {
  return deps.queue.send({ v: 1, type: 'notify', fact, tally }, { delaySeconds: deps.limits.settleSeconds });
}

/** Queues the immediate half: call it after the fact's write. */
export function notifyNow(deps: Pick<FeedDeps, 'queue'>, fact: NotificationFact): Promise<void> {
  return deps.queue.send({ v: 1, type: 'notify', fact });
}

/** A repost's fact: it notifies the original's author, and is what its repost count tallies. */
export const repostFact = (post: Post, original: string): NotificationFact => ({
  kind: 'repost',
  actor: post.author,
  postId: post.id,
  original,
  since: post.createdAt,
});

/**
 * An edit's mention fact: only those the edit added (notified as of the edit) or dropped
 * (retracted); those it kept are left as they are. null when the mentions did not change.
 */
export function editedMentionsFact(before: Post, after: Post, at: number): NotificationFact | null {
  const [was, now] = [
    new Set(before.mentions ? mentionedHandles(before.mentions) : []),
    new Set(after.mentions ? mentionedHandles(after.mentions) : []),
  ];
  const changed = [...[...now].filter((h) => !was.has(h)), ...[...was].filter((h) => !now.has(h))];
  return changed.length > 0
    ? { kind: 'post', actor: after.author, postId: after.id, since: at, mentions: changed }
    : null;
}

/**
 * An edit's fact: a notification for those who reposted the post (none may have), and for the
 * live channel the edit itself (the worker tells the author's watching followers).
 */
export function editFact(post: Post, editedAt: number, reposters: string[]): NotificationFact {
  const others = [...new Set(reposters)].filter((h) => h !== post.author);
  return { kind: 'edit', actor: post.author, postId: post.id, since: editedAt, reposters: others };
}

/** The facts a post notifies by: its mentions, and for a repost the original's author. */
/**
 * A post's own fact: its @mentions' notifications, and its author's posts count (the delayed
 * message of a publish or a delete settles it).
 */
export function postFact(post: Post): NotificationFact {
  return {
    kind: 'post',
    actor: post.author,
    postId: post.id,
    since: post.createdAt,
    mentions: post.mentions ? mentionedHandles(post.mentions) : [],
  };
}

/** The fact whose delayed notify settles a post's counts: a repost's (its original's count too), or the post's own. */
export function countedFact(post: Post): NotificationFact {
  return post.repostOf ? repostFact(post, post.repostOf) : postFact(post);
}

export function postFacts(post: Post): NotificationFact[] {
  const mentions = post.mentions ? mentionedHandles(post.mentions) : [];
  return [
    ...(mentions.length > 0
      ? [{ kind: 'post' as const, actor: post.author, postId: post.id, since: post.createdAt, mentions }]
      : []),
    ...(post.repostOf ? [repostFact(post, post.repostOf)] : []),
  ];
}

// ------------------------------------------------------------------ the worker

const excerptOf = (body: string) => (body ? { excerpt: [...body].slice(0, EXCERPT_CODE_POINTS).join('') } : {});

/**
 * Whether the fact still holds by its source of truth, and for a comment its text. A post's
 * mentions hold per recipient: an edit can drop or add one (`mentioned`: whom the text names now).
 */
async function truthOf(
  deps: Pick<FeedDeps, 'posts' | 'relations' | 'reactions' | 'comments' | 'groups'>,
  fact: NotificationFact,
): Promise<{ live: boolean; excerpt?: string; mentioned?: ReadonlySet<string> }> {
  switch (fact.kind) {
    case 'like':
      return { live: (await deps.reactions.likeSince(fact.actor, fact.postId)) === fact.since };
    case 'follow':
      return { live: (await deps.relations.edge(fact.actor, fact.target))?.since === fact.since };
    case 'repost': {
      // A repost's own words (转发理由) go with its notification, as a comment's text does.
      const repost = await deps.posts.get(fact.postId);
      if (repost?.repostOf !== fact.original) return { live: false };
      return repost.body
        ? { live: true, excerpt: [...repost.body].slice(0, EXCERPT_CODE_POINTS).join('') }
        : { live: true };
    }
    case 'edit':
      // The edit that set this editedAt is still the post's latest: a later edit's fact replaces it.
      return { live: (await deps.posts.get(fact.postId))?.editedAt === fact.since };
    case 'post': {
      const post = await deps.posts.get(fact.postId);
      return { live: post !== null, mentioned: new Set(post?.mentions ? mentionedHandles(post.mentions) : []) };
    }
    case 'special': {
      // Each fan still keeps the author in 特别关注 (its book, not the index that named them).
      const [post, kept] = await Promise.all([
        deps.posts.get(fact.postId),
        Promise.all(fact.fans.map((f) => deps.groups.members(f, SPECIAL_GROUP_ID))),
      ]);
      const fans = fact.fans.filter((_, i) => kept[i]?.includes(fact.actor));
      return post ? { live: true, mentioned: new Set(fans), ...excerptOf(post.body) } : { live: false };
    }
    case 'commentLike': {
      // The like holds this since on a live comment; the comment's words go with the notification.
      const state = await deps.comments.likeState(fact.postId, fact.commentId, fact.actor);
      return state?.since === fact.since
        ? { live: true, excerpt: [...state.comment.body].slice(0, EXCERPT_CODE_POINTS).join('') }
        : { live: false };
    }
    case 'comment': {
      const found = await deps.comments.lookup(fact.postId, fact.commentId);
      return found.state === 'live'
        ? { live: true, excerpt: [...found.comment.body].slice(0, EXCERPT_CODE_POINTS).join('') }
        : { live: false };
    }
  }
}

/**
 * The engagement a fact is for the hot feed (domain/hot.ts): a like, a comment or a repost of a
 * post (a repost engages its original). Recorded while its truth holds, so an unlike's messages
 * never add one; an undone engagement stays counted until it ages out (the person did engage).
 * A fact without notices (one's own post) is never read here: the author never counts anyway.
 */
function engagementOf(fact: NotificationFact): Engagement | null {
  switch (fact.kind) {
    case 'like':
    case 'comment':
      return { postId: fact.postId, handle: fact.actor, at: fact.since };
    case 'repost':
      return { postId: fact.original, handle: fact.actor, at: fact.since };
    default:
      return null;
  }
}

export interface ReconcileOutcome {
  added: number;
  removed: number;
}

/** The worker's handling of a notify message. Idempotent; see the header. */
export async function reconcileFact(deps: ReconcileDeps, fact: NotificationFact): Promise<ReconcileOutcome> {
  const notices = noticesOf(fact);
  if (notices.length === 0) return { added: 0, removed: 0 };
  const recipients = notices.map((n) => n.recipient);
  const [truth, silenced, choices] = await Promise.all([
    truthOf(deps, fact),
    silencedRecipients(deps, fact.actor, recipients),
    deps.users.notificationChoices(recipients),
  ]);
  const wanted = (n: Notice) => {
    const c = choices.get(n.recipient);
    return c === undefined || wantsNotice(c, n.type);
  };
  await atStep(deps, 'notify.truth-read', { kind: fact.kind, actor: fact.actor });
  // No notification from a user the recipient blocked or muted (or who blocks the recipient).
  const shown = (n: Notice) =>
    truth.live && (truth.mentioned?.has(n.recipient) ?? true) && !silenced.has(n.recipient) && wanted(n);
  const engagement = truth.live && deps.hot ? engagementOf(fact) : null;
  const [outcomes] = await Promise.all([
    Promise.all(
      notices.map((n) =>
        reconcileNotice(deps, n, shown(n), n.type === 'like' || n.type === 'follow' ? undefined : truth.excerpt),
      ),
    ),
    // The hot feed counts the person (an idempotent put beside the notices: no round trip of its own).
    engagement ? deps.hot!.engaged(engagement) : undefined,
  ]);
  // Each recipient's clients are told, once per notice however often this runs (the log keeps
  // each event key once): also by a redelivery that found the notification already written.
  const announcer = deps.announcer;
  if (announcer) {
    const now = Date.now();
    await Promise.all(
      notices
        .filter(shown)
        .map((n) =>
          announce(
            announcer,
            [n.recipient],
            { kind: 'notification', type: n.type, id: `${n.groupKey}.${n.member}.${n.instance}` },
            now,
          ),
        ),
    );
  }
  return {
    added: outcomes.filter((o) => o === 'added').length,
    removed: outcomes.filter((o) => o === 'removed').length,
  };
}

async function reconcileNotice(
  deps: Pick<FeedDeps, 'notifications' | 'step'>,
  n: Notice,
  live: boolean,
  excerpt?: string,
): Promise<'added' | 'removed' | 'unchanged'> {
  const store = deps.notifications;
  for (let attempt = 1; ; attempt++) {
    const seen = await store.member(n.recipient, n.groupKey, n.member);
    const has = seen.value.includes(n.instance);
    if (has === live) {
      // Already as the truth says (a redelivery, or the delayed half). The group is made to agree
      // with the member: a delivery stopped between its member and its group is finished here
      // (its count too: the group records whom it counts).
      await updateGroup(
        deps,
        n,
        live ? { kind: 'join', member: n.member, at: n.since } : { kind: 'leave', member: n.member },
        { counts: seen.value.length > 0, legacy: false },
        excerpt,
      );
      return 'unchanged';
    }
    const next = live ? [...seen.value, n.instance] : seen.value.filter((i) => i !== n.instance);
    if (!(await store.swapMember(n.recipient, n.groupKey, n.member, next, seen))) {
      await backOff(attempt, 'member');
      continue;
    }
    await atStep(deps, 'notify.member-written', { recipient: n.recipient, member: n.member, instance: n.instance });
    // The count moves when the member comes or goes as a person: its first live instance, or its
    // last (`legacy`: the rule for a group that has not recorded whom it counts).
    const legacy = live ? seen.value.length === 0 : next.length === 0;
    await updateGroup(
      deps,
      n,
      live ? { kind: 'join', member: n.member, at: n.since } : { kind: 'leave', member: n.member },
      { counts: next.length > 0, legacy },
      excerpt,
    );
    return live ? 'added' : 'removed';
  }
}

/** A member's change to its group, before knowing whether it moves the count. */
type MemberChange = { kind: 'join'; member: string; at: number } | { kind: 'leave'; member: string };

/**
 * Applies a member's change to its group's one state cell — count, place and latest actors
 * together — by a conditional swap on the state read, retried until it lands; then lists the
 * group at its place. A group only moves forward in the list. The count moves when the group's
 * record of the member (counted or not, written in the same swap) differs from `member.counts`
 * (whether the member holds live facts now), towards `member.counts` whatever the change's kind:
 * a delivery finishing another's cut work counts exactly what is missing, even a late fact taken
 * back meeting a newer live one. A group with no record of the member falls back on
 * `member.legacy`.
 */
async function updateGroup(
  deps: Pick<FeedDeps, 'notifications' | 'step'>,
  n: Notice,
  change: MemberChange,
  member: { counts: boolean; legacy: boolean },
  excerpt?: string,
): Promise<void> {
  const store = deps.notifications;
  // A grouped repost shows the words of its newest reposter: another member's delivery (a late
  // redelivery of an older repost) leaves the entry's words as they are.
  const ownExcerpt = (state: GroupState) =>
    n.type === 'repost' && state.latest[0]?.[0] !== n.member ? undefined : excerpt;
  for (let attempt = 1; ; attempt++) {
    const seen = await store.group(n.recipient, n.groupKey, n.member);
    await atStep(deps, 'notify.group-read', { recipient: n.recipient, member: n.member, attempt: String(attempt) });
    // A group that records its members and has no record of this one has not counted it.
    const was = seen.counts ?? (seen.value.recorded ? false : undefined);
    const count =
      was === undefined
        ? member.legacy
          ? change.kind === 'join'
            ? 1
            : -1
          : 0
        : was === member.counts
          ? 0
          : member.counts
            ? 1
            : -1;
    const next = changedGroup(seen.value, { ...change, count }, Date.now());
    if (next === null) {
      // Already in the state; list it again in case the writer that changed it stopped before listing.
      if (seen.value.at !== null) await store.list(n.recipient, n.groupKey, seen.value, null, ownExcerpt(seen.value));
      return;
    }
    if (await store.swapGroup(n.recipient, n.groupKey, next, seen, { handle: n.member, counts: member.counts })) {
      if (next.at !== null) await store.list(n.recipient, n.groupKey, next, seen.value.at, ownExcerpt(next));
      return;
    }
    await backOff(attempt, 'group');
  }
}

async function backOff(attempt: number, what: string): Promise<void> {
  if (attempt >= SWAP_ATTEMPTS) throw new Error(`notify: the ${what} swap lost ${attempt} races in a row`);
  await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(SWAP_BACKOFF_MAX_MS, 2 ** attempt)));
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
  /** For a repost: the words of the repost its entry was last written for (none for a plain repost). */
  repostWords?: string;
}

const ID_PATTERN = /^(\d{1,16})\.([a-zA-Z]+\/[A-Za-z0-9_./-]{1,140})$/;

function parseId(id: string): { at: number; groupKey: string } | null {
  const m = ID_PATTERN.exec(id);
  if (!m || !parseGroupKey(m[2]!)) return null;
  const at = Number(m[1]);
  return Number.isSafeInteger(at) ? { at, groupKey: m[2]! } : null;
}

/**
 * The groups of these list entries as the recipient may see them (null where an entry shows
 * nothing): ONE parallel stage — the groups' state cells (one multi-get), the posts they name,
 * the recipient's blocks and mutes of the actors the entries name, their faces. A group is shown
 * at its one live entry, with the count and the latest actors of that same state; groups emptied
 * by retractions, about a deleted post, or whose only actor the recipient blocked or muted show
 * nothing. The list and the unread badge both count through here, so they always agree.
 */
async function visibleGroups(
  deps: NotificationsReadDeps,
  recipient: string,
  entries: NotificationEntry[],
  readUpTo: Promise<number>,
): Promise<(NotificationGroup | null)[]> {
  const subjects = entries.map((e) => parseGroupKey(e.groupKey));
  const postIds = [...new Set(subjects.flatMap((s) => (s?.postId && isPostId(s.postId) ? [s.postId] : [])))];
  // The entries name their latest actors, so the actors' blocks, mutes and faces are read in this same stage.
  const actorHandles = [...new Set(entries.flatMap((e) => e.latest.map(([member]) => actorOfMember(member))))];
  const [groups, posts, hidden, marker, faces] = await Promise.all([
    deps.notifications.states(
      recipient,
      entries.map((e) => e.groupKey),
    ),
    deps.posts.getMany(postIds),
    hiddenFrom(deps, recipient, actorHandles),
    readUpTo,
    // Also what says who is still here: an actor who left (leave.ts) has no face and shows nowhere.
    readFaces(deps, actorHandles),
  ]);
  const postById = new Map(posts.map((p) => [p.id, p]));
  return entries.map((entry, i): NotificationGroup | null => {
    const subject = subjects[i];
    const group = groups.get(entry.groupKey);
    // Not the group's live entry (a racing writer left it), or every member retracted.
    if (!subject || !group || group.count <= 0 || group.at !== entry.at) return null;
    const post = subject.postId === undefined ? undefined : postById.get(subject.postId);
    if (subject.postId !== undefined && !post) return null; // about a deleted post
    // The names come from the group's state (the same state as its count and place); an entry
    // a newer state has not rewritten yet may not name them all: only the checked ones show.
    const checked = new Set(entry.latest.map(([member]) => actorOfMember(member)));
    const actors: NotificationActor[] = [];
    for (const [member, at] of group.latest) {
      const handle = actorOfMember(member);
      if (!checked.has(handle) || hidden.has(handle) || !faces.has(handle) || actors.some((a) => a.handle === handle))
        continue;
      actors.push({ handle, at, face: faceOf(faces, handle) });
    }
    if (actors.length === 0 && group.count === 1) return null; // its one actor is gone, hidden or left
    return {
      id: `${group.at}.${entry.groupKey}`,
      type: subject.type,
      count: group.count,
      latestAt: group.at,
      unread: group.at > marker,
      actors,
      ...(post ? { post: { id: post.id, body: post.body } } : {}),
      ...(subject.commentId ? { comment: { id: subject.commentId, body: entry.excerpt ?? '' } } : {}),
      ...(subject.type === 'repost' && entry.excerpt ? { repostWords: entry.excerpt } : {}),
    };
  });
}

/** One page, newest first (of one tab's types with `filter`). Round trips: the entries scan, then visibleGroups' one parallel stage (the read marker in it too). */
export async function listNotifications(
  deps: NotificationsReadDeps,
  recipient: string,
  limit: number,
  cursor?: string,
  filter: NotificationFilter = 'all',
): Promise<Page<NotificationGroup>> {
  const after = decodeCursor(cursor, (inner) => parseId(inner) !== null);
  // A tab (filter) reads only its types' entries, in the same one scan: its pages fill up.
  const types = typesOfFilter(filter);
  const { items: entries, more } = await deps.notifications.entries(
    recipient,
    limit + SPARE_ENTRIES,
    after === undefined ? undefined : parseId(after)!,
    types ?? undefined,
  );
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
export async function unreadCount(
  deps: NotificationsReadDeps,
  recipient: string,
): Promise<{ count: number; capped: boolean }> {
  const [readUpTo, { items, more }] = await Promise.all([
    deps.notifications.readUpTo(recipient),
    deps.notifications.entries(recipient, UNREAD_CAP),
  ]);
  const newer = items.filter((e) => e.at > readUpTo);
  if (newer.length === 0) return { count: 0, capped: false };
  const count = (await visibleGroups(deps, recipient, newer, Promise.resolve(readUpTo))).filter(
    (g) => g !== null,
  ).length;
  return { count, capped: more && newer.length === items.length };
}

/** Marks `upTo` (a notification id) and everything older as read. The marker never moves back. */
export async function markNotificationsRead(
  deps: Pick<FeedDeps, 'notifications'>,
  recipient: string,
  upTo: string,
  now = Date.now(),
): Promise<{ readUpTo: number }> {
  const parsed = parseId(upTo);
  if (!parsed) throw new InvalidInputError('upTo is not a notification id', 'invalid_notification_id');
  const at = Math.min(parsed.at, now);
  await deps.notifications.markRead(recipient, at);
  return { readUpTo: await deps.notifications.readUpTo(recipient) };
}
