// test/support/model/reference-model.ts — what the API should show, built only from what the
// API answered (never from reading state back; the one exception: a comment whose request got
// no answer is looked for by its unique body once the seed has settled). Timelines are derived,
// not stored: a reader's own live posts plus the live posts of everyone they follow now, newest
// first in the inbox's real byte order (so posts of the same millisecond are ordered as the
// server orders them). Reposts are posts of the reposter; counts and the reader's own state
// are derived too: likes = the likers kept here, comments = the live comments, reposts = the
// live posts whose original is this one, reposted = the reader has such a live post.
// Blocks and mutes: a reader's timeline hides posts — and reposts of posts — by users the reader
// blocks or mutes or who block the reader (a mute hides one way only), never the reader's own (a
// repost of someone who blocks them shows its original withheld); a block removes the follows
// both ways (the driver tells the model) and refuses follow / like / comment / repost across it.
// Notifications of likes and mentions are derived as the worker writes them: a
// notice is added while its fact holds and the recipient has not silenced the actor (blocked or
// muted them, or been blocked by them) WHEN THE DELIVERY RUNS — so a count is exact only where
// no block or mute between the two users changed while the fact's deliveries could run
// (FactWindow, `exactAround`); elsewhere the model states nothing.
// Groups (分组): each owner's members as the answers left them — an add answered 200 puts the
// member in, a remove takes them out, and an unfollow (a block's unfollows too) takes the
// followee out of every group of the follower, so members ⊆ following; a group's timeline is the
// owner's home timeline kept to the posts (reposts: the reposter's) of its members.
import { keyFromPostId } from '../../../shared/schema/row-keys.js';
import { parsePostId } from '../../../shared/domain/post.js';
import { inboxQualifier } from '../../../shared/schema/row-keys.js';
import { E2E_SETTLE_SECONDS } from '../e2e-settings.js';
import { GROUP_WINDOW_MS, POST_MAX_CODE_POINTS } from '../../../shared/domain/limits.js';
import { SPECIAL_GROUP_ID } from '../../../shared/domain/groups.js';

export interface ModelPost {
  slot: number;
  id: string;
  author: string;
  body: string;
  live: boolean;
  /** The inbox qualifier: timelines and author lists are ascending in it. */
  order: Buffer;
  /** A repost: its (root) original's id. */
  repostOf?: string;
  /** A repost made without a comment: the user's one plain repost of that original. */
  plain?: boolean;
  likers: Set<string>;
  /** Who keeps it in their bookmarks (收藏). */
  bookmarkers: Set<string>;
  /** How many edits landed (编辑): every view must show this version and its text. */
  version?: number;
  /** The registered users the body names with `@handle`, in text order (repeats kept): the post's `mentions`. */
  mentions: string[];
  /** When the publish (or repost) request ran, and who of the mentioned had silenced the author then. */
  mentionFact?: FactWindow & { silenced: Set<string> };
  /** A repost: when its request ran, and whether the original's author had silenced the reposter then. */
  repostFact?: FactWindow & { silenced: boolean };
}

/** A request that queues a notification fact: its deliveries run from `sent` until W (+ latency) after `answered`. */
export interface FactWindow {
  sent: number;
  answered: number;
}

/**
 * How long after a request's answer its notification deliveries may still run: the delayed half
 * comes W later; a delivery the worker failed comes back after the queue's visibility timeout
 * (18 s locally); plus latency.
 */
const DELIVERY_HORIZON_MS = (E2E_SETTLE_SECONDS + 30) * 1000;

/** `@handle` (either width) not inside a word, an address or a doubled sign; at most 30 handle characters. */
const MENTION = /(?<![\p{L}\p{M}\p{N}_@＠.])[@＠]([A-Za-z0-9_]{1,30})(?![A-Za-z0-9_])/gu;

export interface ModelComment {
  index: number;
  post: number;
  author: string;
  body: string;
  /** Unknown only while `state` is 'unknown'. */
  id?: string;
  replyTo?: { id: string; author: string };
  /** 'unknown': the create got no answer, so it may or may not exist (resolved by body after the seed). */
  state: 'live' | 'deleted' | 'unknown';
}

/** Weibo's repost chain, as the API documents it: `comment //@them: their text`, cut to the post limit. */
export function chainBody(comment: string, via?: { author: string; body: string }): string {
  if (!via || via.body === '') return comment;
  const chained = [...`${comment} //@${via.author}: ${via.body}`.trimStart()];
  return chained.length <= POST_MAX_CODE_POINTS
    ? chained.join('')
    : `${chained.slice(0, POST_MAX_CODE_POINTS - 1).join('')}…`;
}

/** How many of a subject's history entries a mismatch line quotes (the most recent ones). */
const HISTORY_QUOTED = 6;
/** How many subjects' histories a wrong count quotes (the most recently flagged ones). */
const HISTORIES_QUOTED = 4;

export const pairSubject = (follower: string, followee: string) => `${follower}→${followee}`;
export const slotSubject = (slot: number) => `#${slot}`;
export const commentSubject = (index: number) => `c${index}`;
/** Two users either way round: what blocks and mutes between them are noted under. */
const usersKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

export class ReferenceModel {
  private readonly edges = new Set<string>();
  private readonly posts = new Map<number, ModelPost>();
  private readonly ids = new Map<string, ModelPost>();
  private readonly comments = new Map<number, ModelComment>();
  /** Posts any like, unlike or comment request was sent for: their lists are read back. */
  private readonly likeTouched = new Set<number>();
  private readonly commentTouched = new Set<number>();
  /** Per pair / post: what was done to it and what the API answered, for mismatch lines. */
  private readonly notes = new Map<string, string[]>();
  /** Subjects worth quoting beside a wrong count (concurrent races, retries after delete), least recently flagged first. */
  private readonly flagged = new Set<string>();
  /** `a>b`: a blocks (mutes) b. */
  private readonly blocking = new Set<string>();
  private readonly muting = new Set<string>();
  /** Every block, unblock, mute and unmute request between two users (either way), sent → answered. */
  private readonly silencingChanges = new Map<string, FactWindow[]>();
  /** Per `slot|liker`: from the first like / unlike request sent to the last answered, and whether the author had silenced the liker at the first send. */
  private readonly likeFacts = new Map<string, FactWindow & { silenced: boolean }>();
  /** 分组: each owner's group ids by the plan's number (0: 特别关注), and `owner/groupId` → its members. */
  private readonly groupIds = new Map<string, string[]>();
  private readonly groupMembers = new Map<string, Set<string>>();

  constructor(readonly handles: readonly string[]) {}

  // --- updates, from responses ----------------------------------------------------------------

  /** `fact`: when the request that created it ran (its mentions notify from then on). */
  created(
    slot: number,
    id: string,
    author: string,
    body: string,
    repost?: { of: string; plain: boolean },
    fact?: FactWindow,
  ): void {
    const key = keyFromPostId(id);
    if (!key) throw new Error(`model: ${id} is not a post id`);
    const mentions = this.mentionsIn(body);
    const post: ModelPost = {
      slot,
      id,
      author,
      body,
      live: true,
      order: Buffer.from(inboxQualifier(key)),
      likers: new Set(),
      bookmarkers: new Set(),
      mentions,
    };
    if (repost) Object.assign(post, { repostOf: repost.of, plain: repost.plain });
    if (fact) post.mentionFact = { ...fact, silenced: new Set(mentions.filter((m) => this.silenced(m, author))) };
    const originalAuthor = repost ? this.byId(repost.of)?.author : undefined;
    if (fact && originalAuthor) post.repostFact = { ...fact, silenced: this.silenced(originalAuthor, author) };
    this.posts.set(slot, post);
    this.ids.set(id, post);
  }

  setLike(slot: number, user: string, on: boolean): void {
    const post = this.posts.get(slot);
    if (!post) return;
    if (on) post.likers.add(user);
    else post.likers.delete(user);
  }

  setBookmark(slot: number, user: string, on: boolean): void {
    const post = this.posts.get(slot);
    if (!post) return;
    if (on) post.bookmarkers.add(user);
    else post.bookmarkers.delete(user);
  }

  /**
   * The live posts `user` keeps in their bookmarks that their list must show: a deleted post
   * leaves it, and one a block stands between (either way, with its author or its original's) is
   * hidden while the block stands.
   */
  bookmarksOf(user: string): ModelPost[] {
    const blocked = (author: string | undefined) => author !== undefined && this.eitherBlocks(user, author);
    return this.allPosts().filter(
      (p) =>
        p.live &&
        p.bookmarkers.has(user) &&
        !blocked(p.author) &&
        !blocked(p.repostOf ? this.byId(p.repostOf)?.author : undefined),
    );
  }

  touchedLikes(slot: number): void {
    this.likeTouched.add(slot);
  }

  touchedComments(slot: number): void {
    this.commentTouched.add(slot);
  }

  commented(index: number, comment: Omit<ModelComment, 'index'>): void {
    this.comments.set(index, { index, ...comment });
    this.commentTouched.add(comment.post);
  }

  commentDeleted(index: number): void {
    const comment = this.comments.get(index);
    if (comment) comment.state = 'deleted';
  }

  /** An unknown comment found (with the id and reply-to the server gave it), or not found. */
  resolveComment(index: number, found?: { id: string; replyTo?: { id: string; author: string } }): void {
    const comment = this.comments.get(index);
    if (comment?.state !== 'unknown') return;
    if (found)
      Object.assign(comment, { state: 'live', id: found.id, ...(found.replyTo ? { replyTo: found.replyTo } : {}) });
    else comment.state = 'deleted';
  }

  /** An edit that landed: the post's text and version as every view must now show them. */
  edited(slot: number, body: string, version: number): void {
    const post = this.posts.get(slot);
    if (post) Object.assign(post, { body, version });
  }

  deleted(slot: number): void {
    const post = this.posts.get(slot);
    if (post) post.live = false;
  }

  /** A like or unlike request of `slot` by `user`: the window its notification deliveries run in. */
  likeFact(slot: number, user: string, fact: FactWindow, silencedAtSend: boolean): void {
    const key = `${slot}|${user}`;
    const known = this.likeFacts.get(key);
    this.likeFacts.set(
      key,
      known ? { ...known, answered: Math.max(known.answered, fact.answered) } : { ...fact, silenced: silencedAtSend },
    );
  }

  setBlock(actor: string, target: string, on: boolean): void {
    if (on) this.blocking.add(`${actor}>${target}`);
    else this.blocking.delete(`${actor}>${target}`);
  }

  setMute(actor: string, target: string, on: boolean): void {
    if (on) this.muting.add(`${actor}>${target}`);
    else this.muting.delete(`${actor}>${target}`);
  }

  /** A block, unblock, mute or unmute request between the two, whatever it answered. */
  silencingChanged(a: string, b: string, change: FactWindow): void {
    const key = usersKey(a, b);
    this.silencingChanges.set(key, [...(this.silencingChanges.get(key) ?? []), change]);
  }

  setEdge(follower: string, followee: string, on: boolean): void {
    if (on) this.edges.add(pairSubject(follower, followee));
    else this.edges.delete(pairSubject(follower, followee));
  }

  /** A group the API made for `owner`, under the plan's number for it. */
  groupCreated(owner: string, index: number, id: string): void {
    const ids = this.groupIds.get(owner) ?? [SPECIAL_GROUP_ID];
    ids[index] = id;
    this.groupIds.set(owner, ids);
  }

  setMember(owner: string, groupId: string, member: string, on: boolean): void {
    const key = `${owner}/${groupId}`;
    const members = this.groupMembers.get(key) ?? new Set<string>();
    if (on) members.add(member);
    else members.delete(member);
    this.groupMembers.set(key, members);
  }

  /** An unfollow (a block's too) takes the followee out of every group of the follower. */
  leaveGroups(owner: string, member: string): void {
    for (const id of this.groupsOf(owner)) this.setMember(owner, id, member, false);
  }

  note(subject: string, text: string, flag = false): void {
    this.notes.set(subject, [...(this.notes.get(subject) ?? []), text]);
    if (flag) {
      this.flagged.delete(subject);
      this.flagged.add(subject);
    }
  }

  // --- what the API should show ---------------------------------------------------------------

  post(slot: number): ModelPost | undefined {
    return this.posts.get(slot);
  }

  byId(id: string): ModelPost | undefined {
    return this.ids.get(id);
  }

  allPosts(): ModelPost[] {
    return [...this.posts.values()];
  }

  follows(follower: string, followee: string): boolean {
    return this.edges.has(pairSubject(follower, followee));
  }

  following(user: string): string[] {
    return this.handles.filter((h) => this.follows(user, h));
  }

  followers(user: string): string[] {
    return this.handles.filter((h) => this.follows(h, user));
  }

  livePostsOf(author: string): ModelPost[] {
    return newestFirst(this.allPosts().filter((p) => p.live && p.author === author));
  }

  /**
   * The reader's settled inbox: own live posts and those of everyone followed, newest first —
   * hidden ones included (a page walks them, and leaves them out: `hides`).
   */
  timeline(reader: string): ModelPost[] {
    return newestFirst(
      this.allPosts().filter((p) => p.live && (p.author === reader || this.follows(reader, p.author))),
    );
  }

  /** The id of the owner's group number `index` (0: 特别关注, always there). */
  groupId(owner: string, index: number): string | undefined {
    return index === 0 ? SPECIAL_GROUP_ID : this.groupIds.get(owner)?.[index];
  }

  /** Whether the plan made groups for `owner` (a load run makes none: its users' groups are not read back). */
  hasGroups(owner: string): boolean {
    return this.groupIds.has(owner);
  }

  /** The owner's groups the model knows: 特别关注 and those made. */
  groupsOf(owner: string): string[] {
    return [SPECIAL_GROUP_ID, ...(this.groupIds.get(owner) ?? []).slice(1).filter((id) => id !== undefined)];
  }

  membersOf(owner: string, groupId: string): string[] {
    return [...(this.groupMembers.get(`${owner}/${groupId}`) ?? [])];
  }

  /**
   * A group's settled timeline: the owner's home inbox (`timeline`) kept to the posts its members
   * wrote or reposted — hidden ones included, as there.
   */
  groupTimeline(owner: string, groupId: string): ModelPost[] {
    const members = new Set(this.membersOf(owner, groupId));
    return this.timeline(owner).filter((p) => members.has(p.author));
  }

  blocks(actor: string, target: string): boolean {
    return this.blocking.has(`${actor}>${target}`);
  }

  mutes(actor: string, target: string): boolean {
    return this.muting.has(`${actor}>${target}`);
  }

  eitherBlocks(a: string, b: string): boolean {
    return a !== b && (this.blocks(a, b) || this.blocks(b, a));
  }

  /** `viewer` must not see `other`: the viewer blocks or mutes them, or they block the viewer. */
  hidden(viewer: string, other: string): boolean {
    return viewer !== other && (this.blocks(viewer, other) || this.mutes(viewer, other) || this.blocks(other, viewer));
  }

  /** The same three rows decide whether `actor` may notify `recipient`. */
  silenced(recipient: string, actor: string): boolean {
    return this.hidden(recipient, actor);
  }

  /**
   * Why a timeline leaves `post` out for `reader` (by a hidden author, or a repost of one), or
   * undefined. The reader's own posts always stay (a repost of someone who blocks the reader
   * with its original withheld: `withholds`).
   */
  hides(reader: string, post: ModelPost): string | undefined {
    if (post.author === reader) return undefined;
    const original = post.repostOf ? this.byId(post.repostOf) : undefined;
    for (const [who, what] of [
      [post.author, 'its author'],
      [original?.author, 'its original’s author'],
    ] as const) {
      if (!who || !this.hidden(reader, who)) continue;
      const why = this.blocks(reader, who)
        ? `${reader} blocks`
        : this.mutes(reader, who)
          ? `${reader} mutes`
          : 'is blocked by';
      return `hidden: ${why} ${what} ${who} ${this.history(pairSubject(reader, who))} ${this.history(pairSubject(who, reader))}`;
    }
    return undefined;
  }

  /** Whether `reader` sees their own repost `post` with nothing of its original: its author blocks them. */
  withholds(reader: string | undefined, post: ModelPost): boolean {
    const original = post.repostOf ? this.byId(post.repostOf) : undefined;
    return (
      reader !== undefined && post.author === reader && original !== undefined && this.blocks(original.author, reader)
    );
  }

  /** Whether no block or mute between the two changed while a fact's deliveries could run. */
  exactAround(a: string, b: string, fact: FactWindow): boolean {
    return (this.silencingChanges.get(usersKey(a, b)) ?? []).every(
      (c) => c.answered < fact.sent || c.sent > fact.answered + DELIVERY_HORIZON_MS,
    );
  }

  /**
   * The like, repost and mention notifications `recipient` must list, as `like:<post id>` /
   * `repost:<post id>` / `mention:<post id>` → count (0: not listed; a repost group counts people), for every post of the model; `inexact`: the keys the model
   * cannot state (a block or mute between the two changed while a delivery could run).
   */
  expectedNotifications(recipient: string): { expected: Map<string, number>; inexact: Map<string, string> } {
    const expected = new Map<string, number>();
    const inexact = new Map<string, string>();
    // A group is listed while its count is positive — except a group of one whose one actor the
    // recipient now hides (listNotifications leaves it out).
    const shown = (count: number, sole?: string) =>
      count === 1 && sole !== undefined && this.hidden(recipient, sole) ? 0 : count;
    for (const post of this.allPosts()) {
      const likeKey = `like:${post.id}`;
      if (post.author === recipient) {
        if (!post.live) expected.set(likeKey, 0);
        else {
          const likers = [...post.likers].filter((l) => l !== recipient);
          const facts = likers.map((l) => [l, this.likeFacts.get(`${post.slot}|${l}`)] as const);
          const unsure = facts.find(([l, f]) => !f || !this.exactAround(recipient, l, f));
          if (unsure)
            inexact.set(
              likeKey,
              `a block or mute between ${recipient} and ${unsure[0]} changed while the like's notification was delivered`,
            );
          else {
            const counted = facts.filter(([, f]) => !f!.silenced).map(([l]) => l);
            expected.set(likeKey, shown(counted.length, counted[0]));
          }
        }
      }
      if (post.author === recipient) {
        // Reposts group by people: someone who reposted twice is one (and stays while either lives).
        const repostKey = `repost:${post.id}`;
        const reposts = this.allPosts().filter((r) => r.repostOf === post.id && r.author !== recipient);
        const unsure = reposts.find((r) => !r.repostFact || !this.exactAround(recipient, r.author, r.repostFact));
        const windows = new Set(reposts.map((r) => Math.floor(parsePostId(r.id)!.millis / GROUP_WINDOW_MS)));
        if (!post.live) expected.set(repostKey, 0);
        else if (unsure)
          inexact.set(
            repostKey,
            `a block or mute between ${recipient} and ${unsure.author} changed while the repost's notification was delivered`,
          );
        else if (windows.size > 1) inexact.set(repostKey, 'the reposts fall in two 12-hour groups');
        else {
          const people = [...new Set(reposts.filter((r) => r.live && !r.repostFact!.silenced).map((r) => r.author))];
          expected.set(repostKey, shown(people.length, people[0]));
        }
      }
      const mentionKey = `mention:${post.id}`;
      if (post.author === recipient || !post.mentions.includes(recipient)) continue;
      if (!post.live) expected.set(mentionKey, 0);
      else if (!post.mentionFact || !this.exactAround(recipient, post.author, post.mentionFact)) {
        inexact.set(
          mentionKey,
          `a block or mute between ${recipient} and ${post.author} changed while the mention's notification was delivered`,
        );
      } else expected.set(mentionKey, post.mentionFact.silenced.has(recipient) ? 0 : shown(1, post.author));
    }
    return { expected, inexact };
  }

  /** The registered users `text` mentions, in text order. */
  private mentionsIn(text: string): string[] {
    return [...text.matchAll(MENTION)].map((m) => m[1]!.toLowerCase()).filter((h) => this.handles.includes(h));
  }

  counts(user: string): { followers: number; following: number; posts: number } {
    return {
      followers: this.followers(user).length,
      following: this.following(user).length,
      posts: this.livePostsOf(user).length,
    };
  }

  /** The live post a plain repost of `original` by `user` answers again (200), if any. */
  plainRepostOf(user: string, original: string): ModelPost | undefined {
    return this.allPosts().find((p) => p.live && p.plain && p.author === user && p.repostOf === original);
  }

  comment(index: number): ModelComment | undefined {
    return this.comments.get(index);
  }

  allComments(): ModelComment[] {
    return [...this.comments.values()];
  }

  unknownComments(): ModelComment[] {
    return [...this.comments.values()].filter((c) => c.state === 'unknown');
  }

  /** A post's live comments, oldest first (comment ids sort by creation time). */
  liveComments(slot: number): ModelComment[] {
    return [...this.comments.values()]
      .filter((c) => c.post === slot && c.state === 'live')
      .sort((a, b) => (a.id! < b.id! ? -1 : a.id! > b.id! ? 1 : 0));
  }

  /** Posts whose comments or likers lists are read back. */
  postsWithComments(): ModelPost[] {
    return [...this.commentTouched].flatMap((s) => this.posts.get(s) ?? []);
  }

  postsWithLikes(): ModelPost[] {
    return [...this.likeTouched].flatMap((s) => this.posts.get(s) ?? []);
  }

  /** What every view of a post must show: exact counts, and the reader's own state (none: anonymous). */
  engagement(
    post: ModelPost,
    reader?: string,
  ): {
    likeCount: number;
    commentCount: number;
    repostCount: number;
    liked: boolean;
    reposted: boolean;
    bookmarked: boolean;
  } {
    const reposts = this.allPosts().filter((p) => p.live && p.repostOf === post.id);
    return {
      likeCount: post.likers.size,
      commentCount: this.liveComments(post.slot).length,
      repostCount: reposts.length,
      liked: reader !== undefined && post.likers.has(reader),
      reposted: reader !== undefined && reposts.some((p) => p.author === reader),
      bookmarked: reader !== undefined && post.bookmarkers.has(reader),
    };
  }

  // --- explaining mismatches --------------------------------------------------------------------

  history(subject: string): string {
    const entries = this.notes.get(subject) ?? [];
    const shown = entries.slice(-HISTORY_QUOTED).join('; ');
    return `[${subject}: ${entries.length > HISTORY_QUOTED ? '…; ' : ''}${shown || 'no requests'}]`;
  }

  /** Histories of the flagged subjects behind one of `user`'s counts: its posts, or its edges in that direction. */
  flaggedHistories(user: string, count: 'followers' | 'following' | 'posts'): string {
    const behind = [...this.flagged].filter((subject) => {
      if (count === 'posts')
        return subject.startsWith('#') && this.posts.get(Number(subject.slice(1)))?.author === user;
      const [follower, followee] = subject.split('→');
      return count === 'following' ? follower === user : followee === user;
    });
    const quoted = behind.slice(-HISTORIES_QUOTED).map((subject) => this.history(subject));
    return [
      ...(behind.length > HISTORIES_QUOTED ? [`(${behind.length - HISTORIES_QUOTED} more)`] : []),
      ...quoted,
    ].join(' ');
  }

  describe(post: ModelPost): string {
    return `${post.repostOf ? (post.plain ? 'plain repost' : 'repost') : 'post'} #${post.slot} by ${post.author} (${post.id})`;
  }

  describeComment(comment: ModelComment): string {
    return `comment c${comment.index} by ${comment.author} on #${comment.post}${comment.id ? ` (${comment.id})` : ''}`;
  }
}

function newestFirst(posts: ModelPost[]): ModelPost[] {
  return posts.sort((x, y) => Buffer.compare(x.order, y.order));
}
