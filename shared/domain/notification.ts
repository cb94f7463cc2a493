// shared/domain/notification.ts — what a notification is: the FACTS that cause them (a like, a
// follow, a repost, a comment, a post's mentions), who each fact notifies, and how notices group.
//
// Grouping follows Mastodon's grouped notifications: likes and reposts of one post, and new
// followers, are grouped within a window (Mastodon: favourite, reblog, follow; 12-hour span);
// a comment, a reply and a mention are each their own group of one. The group key is computed
// from the fact alone (its since fixes the window), so a redelivered message lands in the same
// group, and the message that retracts a fact finds the group its add used.
import { authorOfPostId } from './post.js';
import { GROUP_WINDOW_MS } from './limits.js';

export type NotificationType =
  | 'like'
  | 'commentLike'
  | 'repost'
  | 'follow'
  | 'comment'
  | 'reply'
  | 'mention'
  | 'edit'
  | 'special';

/**
 * A fact that notifies someone, as the queue message carries it. `since` identifies the fact's
 * instance (the like's since, the follow's since, the post's or comment's creation time): the
 * worker notifies while the source of truth still holds that instance, and retracts otherwise.
 */
export type NotificationFact =
  | { kind: 'like'; actor: string; postId: string; since: number }
  | { kind: 'follow'; actor: string; target: string; since: number }
  /** `postId` is the repost, `original` the post it reposts (whose author is notified). */
  | { kind: 'repost'; actor: string; postId: string; original: string; since: number }
  | {
      kind: 'comment';
      actor: string;
      postId: string;
      commentId: string;
      since: number;
      replyTo?: string;
      mentions: string[];
    }
  /** A like of a comment (`author`: the comment's, who is notified). */
  | { kind: 'commentLike'; actor: string; postId: string; commentId: string; author: string; since: number }
  /** A post's (or repost's) @mentions. */
  | { kind: 'post'; actor: string; postId: string; since: number; mentions: string[] }
  /** An edit of a post (since = its editedAt), told to those who reposted it (as Mastodon does). */
  | { kind: 'edit'; actor: string; postId: string; since: number; reposters: string[] }
  /** A new post by someone the `fans` keep in 特别关注 (special attention): each fan is told. */
  | { kind: 'special'; actor: string; postId: string; since: number; fans: string[] };

/** One recipient's share of a fact: the group it joins and the member it adds there. */
export interface Notice {
  recipient: string;
  type: NotificationType;
  groupKey: string;
  /** The group's member: the actor. A group counts people, as Mastodon's grouped notifications do. */
  member: string;
  /**
   * Which of the member's facts this is: the like's or follow's since, the repost's id, the
   * comment's or post's id. A member stands in its group while it has one live instance at least
   * (someone who reposted twice is one person, and stays while either repost lives).
   */
  instance: string;
  actor: string;
  since: number;
}

const windowOf = (at: number) => Math.floor(at / GROUP_WINDOW_MS);

/** Who a fact notifies and where: never the actor themself; one notice per recipient. */
export function noticesOf(fact: NotificationFact): Notice[] {
  const out: Notice[] = [];
  const seen = new Set<string>([fact.actor]); // no notification to yourself
  const instance =
    fact.kind === 'like' || fact.kind === 'commentLike' || fact.kind === 'follow' || fact.kind === 'edit'
      ? String(fact.since)
      : fact.kind === 'comment'
        ? fact.commentId
        : fact.postId;
  const add = (recipient: string | null | undefined, type: NotificationType, groupKey: string) => {
    if (!recipient || seen.has(recipient)) return;
    seen.add(recipient);
    out.push({ recipient, type, groupKey, member: fact.actor, instance, actor: fact.actor, since: fact.since });
  };
  switch (fact.kind) {
    case 'like':
      add(authorOfPostId(fact.postId), 'like', `like/${fact.postId}/${windowOf(fact.since)}`);
      break;
    case 'follow':
      add(fact.target, 'follow', `follow/${windowOf(fact.since)}`);
      break;
    case 'commentLike':
      // Grouped per comment within the window, as a post's likes are.
      add(fact.author, 'commentLike', `commentLike/${fact.postId}/${fact.commentId}/${windowOf(fact.since)}`);
      break;
    case 'repost':
      add(authorOfPostId(fact.original), 'repost', `repost/${fact.original}/${windowOf(fact.since)}`);
      break;
    case 'comment': {
      const where = `${fact.postId}/${fact.commentId}`;
      // A reply to the post author's own comment is one notice (the reply), not two.
      add(fact.replyTo, 'reply', `reply/${where}`);
      add(authorOfPostId(fact.postId), 'comment', `comment/${where}`);
      for (const m of fact.mentions) add(m, 'mention', `mention/${where}`);
      break;
    }
    case 'post':
      for (const m of fact.mentions) add(m, 'mention', `mention/${fact.postId}`);
      break;
    case 'edit':
      // One group per post: the latest edit stands for the earlier ones (their facts lapse).
      for (const r of fact.reposters) add(r, 'edit', `edit/${fact.postId}`);
      break;
    case 'special':
      // One group per post, as a mention: each new post is its own notice.
      for (const f of fact.fans) add(f, 'special', `special/${fact.postId}`);
      break;
  }
  return out;
}

/**
 * The notifications page's tabs: all, @我的 (mentions), 评论 (comments on your posts and replies
 * to your comments), 赞 (likes of your posts and of your comments). Each shows only groups of its types.
 */
export type NotificationFilter = 'all' | 'mentions' | 'comments' | 'likes';

export const NOTIFICATION_FILTERS: readonly NotificationFilter[] = ['all', 'mentions', 'comments', 'likes'];

/** The types a filter shows; null for all of them. */
export function typesOfFilter(filter: NotificationFilter): readonly NotificationType[] | null {
  switch (filter) {
    case 'all':
      return null;
    case 'mentions':
      return ['mention'];
    case 'comments':
      return ['comment', 'reply'];
    case 'likes':
      return ['like', 'commentLike'];
  }
}

/** What a group key says: its type, and the post / comment it is about. */
export interface GroupSubject {
  type: NotificationType;
  postId?: string;
  commentId?: string;
}

const TYPES = new Set<NotificationType>([
  'like',
  'commentLike',
  'repost',
  'follow',
  'comment',
  'reply',
  'mention',
  'edit',
  'special',
]);

export function parseGroupKey(groupKey: string): GroupSubject | null {
  const [type, a, b] = groupKey.split('/');
  if (!TYPES.has(type as NotificationType)) return null;
  switch (type as NotificationType) {
    case 'follow':
      return { type: 'follow' };
    case 'like':
    case 'repost':
    case 'edit':
    case 'special':
      return a ? { type: type as NotificationType, postId: a } : null;
    default:
      return a ? { type: type as NotificationType, postId: a, ...(b ? { commentId: b } : {}) } : null;
  }
}

/** The handle of a group member (the actor; members written before groups counted people were `actor/repostId`). */
export const actorOfMember = (member: string) => member.split('/')[0]!;

/** Latest actors a group shows by name ("ann, bob and 12 others"). */
export const LATEST_ACTORS = 3;

/** A group's latest members, newest first: [member, millis]. */
export type LatestMembers = [string, number][];

/**
 * The latest members after `member` joined (or rejoined) the group at `at`: newest first, each
 * member once (at its newest time here), at most LATEST_ACTORS. A late, older add may find
 * itself below the cut: the group keeps the newest names.
 */
export function withLatestMember(latest: LatestMembers, member: string, at: number): LatestMembers {
  return [[member, at] as [string, number], ...latest.filter(([m]) => m !== member)]
    .sort((a, b) => b[1] - a[1])
    .slice(0, LATEST_ACTORS);
}

/** The live instances of one member's facts in a group (present in the group iff not empty). */
export type MemberInstances = string[];

/**
 * One group's state, kept in ONE cell so that its count, its place in the list and its latest
 * actors always move together: a reader never sees the count of one set of members beside the
 * place or the names of another.
 */
export interface GroupState {
  /** Exact: how many members (people) the group holds. */
  count: number;
  /** Time of the group's latest join: its place in the list (null for a group never joined). */
  at: number | null;
  latest: LatestMembers;
  /**
   * Moves forward with every change, close to wall time (max(previous + 1, now)): the list entry
   * is written with this as its cell timestamp, so HBase keeps the newest state's entry whatever
   * order racing writers land in.
   */
  clock: number;
  /**
   * The group records whom its count includes (NotificationStore.swapGroup): true for every group
   * begun since it does; a group begun before falls back on the member-transition rule.
   */
  recorded?: true;
}

export const EMPTY_GROUP: GroupState = { count: 0, at: null, latest: [], clock: 0 };

/**
 * What one member's change does to its group: joined (or still in), or left. `count`: how the
 * count moves with it (+1 as the member comes to count, −1 as it stops, 0 when the group already
 * says so). A leave may move it up: the member still holds another live fact the group had not
 * counted yet.
 */
export type GroupChange =
  | { kind: 'join'; member: string; at: number; count: -1 | 0 | 1 }
  | { kind: 'leave'; member: string; count: -1 | 0 | 1 };

/**
 * The group after a member's change, or null when the change is already in it (a redelivery
 * finding its member counted and named). A leaving member that stops counting leaves the latest
 * actors too.
 */
export function changedGroup(state: GroupState, change: GroupChange, now: number): GroupState | null {
  const count = state.count + change.count;
  const at = change.kind === 'join' ? (state.at === null ? change.at : Math.max(state.at, change.at)) : state.at;
  // A member already named keeps its newest time (a late redelivery of an older fact must not age it).
  const named = change.kind === 'join' ? state.latest.find(([m]) => m === change.member)?.[1] : undefined;
  const latest =
    change.kind === 'join'
      ? withLatestMember(state.latest, change.member, named === undefined ? change.at : Math.max(named, change.at))
      : change.count < 0
        ? state.latest.filter(([m]) => m !== change.member)
        : state.latest;
  if (count === state.count && at === state.at && JSON.stringify(latest) === JSON.stringify(state.latest)) return null;
  return { ...state, count, at, latest, clock: Math.max(state.clock + 1, now) };
}
